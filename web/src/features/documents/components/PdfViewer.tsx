export { PdfViewer } from '@/components/pdf/LazyPdfViewer';
