/**
 * Home 'Congresses and Events' carousel, shown only when there are any; items go
 * to /congresses/{id}. Filled by the congresses issue (query key `homeKeys.congresses()`).
 */
export function CongressesCarousel() {
  return null;
}
