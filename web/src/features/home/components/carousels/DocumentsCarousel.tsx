/**
 * Home documents carousel: sections 'US' (only when the user's US flag allows),
 * 'My Docs' and 'Shared with me', the first 3 items of each.
 * Filled by the documents issue (query key `homeKeys.documents()`).
 */
export function DocumentsCarousel() {
  return null;
}
