/**
 * Home products carousel: one card per product segment, each going to
 * /products/{id}. Filled by the products issue (query key `homeKeys.products()`).
 */
export function ProductsCarousel() {
  return null;
}
