import { useState } from 'react';
import { Link } from 'react-router';
import { Carousel } from '@/components/carousel/Carousel';
import { ClampedText } from '@/components/ClampedText';
import { Loader } from '@/components/Loader';
import { ImageGallery } from '@/components/media/ImageGallery';
import { VideoModal } from '@/components/media/VideoModal';
import { PageFrame } from '@/components/page/PageFrame';
import { RichText } from '@/components/RichText';
import { useFailureToast } from '@/lib/hooks/useFailureToast';
import { useProductDetails } from '../api/get-product-details';
import type { ProductDetails, ProductVideo } from '../api/types';
import { inDepthPath, productBackTarget } from '../navigation';
import { ProductTabs } from './ProductTabs';
import styles from './Products.module.css';
import { useRouteId } from './useItemId';

function InDepthCarousel({ product }: { product: ProductDetails }) {
  const carousel = product.inDepth?.carousel;
  if (!carousel || carousel.items.length === 0) return null;
  return (
    <div className={styles.inDepthHero}>
      <Carousel title={carousel.title}>
        {carousel.items.map((item) => (
          <Link
            key={`${item.link.path}-${item.link.anchor ?? ''}`}
            to={inDepthPath(product.id, item.link)}
            className={`${styles.card} ${styles.cardWide}`}
          >
            <img src={item.image} alt="" loading="lazy" />
            {item.title}
          </Link>
        ))}
      </Carousel>
    </div>
  );
}

function Details({ product }: { product: ProductDetails }) {
  const [galleryAt, setGalleryAt] = useState<number | null>(null);
  const [video, setVideo] = useState<ProductVideo | null>(null);
  // With an in-depth page (inDepth is an object) its carousel leads, right under the gallery.
  const inDepthFirst = product.inDepth !== null;

  return (
    <>
      <div className={styles.gallery} data-testid="product-gallery">
        {product.images.map((src, i) => (
          <button
            key={src}
            type="button"
            onClick={() => setGalleryAt(i)}
            aria-label={`Image ${i + 1} of ${product.images.length}`}
          >
            <img src={src} alt="" />
          </button>
        ))}
      </div>
      {inDepthFirst && <InDepthCarousel product={product} />}
      <section className={styles.block}>
        <h2 className={styles.blockTitle}>Description</h2>
        <ClampedText html={product.description} />
      </section>
      {product.benefits.length > 0 && (
        <section className={styles.block}>
          <h2 className={styles.blockTitle}>Benefits</h2>
          <ul className={styles.benefits}>
            {product.benefits.map((b) => (
              <li key={b}>{b}</li>
            ))}
          </ul>
        </section>
      )}
      {product.has_components && (
        <Link to={`/products/detail/${product.id}/components`} className={`btn btn-outline ${styles.linkButton}`}>
          Components
        </Link>
      )}
      {product.videos.length > 0 && (
        <section className={styles.block}>
          <h2 className={styles.blockTitle}>Videos</h2>
          <div className={styles.videos}>
            {product.videos.map((v) => (
              <button key={v.label} type="button" className={styles.videoCard} onClick={() => setVideo(v)}>
                <img src={v.preview} alt="" loading="lazy" />
                {v.label}
              </button>
            ))}
          </div>
        </section>
      )}
      {product.disclaimers && (
        <section className={styles.block}>
          <h2 className={styles.blockTitle}>Disclaimer</h2>
          <div className={styles.disclaimer}>
            <RichText html={product.disclaimers} />
          </div>
        </section>
      )}
      {product.relatedProducts.products.length > 0 && (
        <Carousel title="Related products">
          {product.relatedProducts.products.map((r) => (
            <Link key={r.id} to={`/products/detail/${r.id}/`} className={styles.card}>
              <img src={r.image} alt="" loading="lazy" />
              {r.name}
            </Link>
          ))}
        </Carousel>
      )}
      {product.banner && (
        <Link to={product.banner.link} className={styles.banner}>
          <img src={product.banner.banner} alt="" loading="lazy" />
          <span className={styles.bannerText}>
            <span className={styles.bannerTitle}>{product.banner.title}</span>
            {product.banner.description}
          </span>
        </Link>
      )}
      <ImageGallery
        images={product.images.map((src) => ({ src, label: product.name }))}
        index={galleryAt}
        onClose={() => setGalleryAt(null)}
      />
      <VideoModal video={video} onClose={() => setVideo(null)} />
    </>
  );
}

/** /products/detail/{id}: the Details tab. */
export default function ProductDetailPage() {
  const id = useRouteId('id');
  const query = useProductDetails(id ?? undefined);
  useFailureToast(query.error, { redirectTo: '/products', missingId: id === null });
  const product = query.data;

  return (
    <PageFrame title={product?.name ?? 'Product'} back={product ? productBackTarget(product) : '/products'} support>
      <div className={styles.page}>
        {id && <ProductTabs id={id} />}
        {query.isPending && id && <Loader />}
        {product && <Details product={product} />}
      </div>
    </PageFrame>
  );
}
