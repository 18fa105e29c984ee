/**
 * Home news carousel, shown only when there is news; items go to /news/{id}.
 * Filled by the news issue (query key `homeKeys.news()`).
 */
export function NewsCarousel() {
  return null;
}
