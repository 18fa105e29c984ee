import { Suspense } from 'react';
import { Navigate, type RouteObject } from 'react-router';
import { Loader } from '@/components/Loader';
import { lazyPage } from './lazy-page';
import { RouteError } from './RouteError';
import { Shell } from './Shell';

const LoginPage = lazyPage(() => import('@/features/auth/components/LoginPage'));
const HomePage = lazyPage(() => import('@/features/home/components/HomePage'));
const TermsPage = lazyPage(() => import('@/features/terms/components/TermsPage'));
const OnboardingPage = lazyPage(() => import('@/features/onboarding/components/OnboardingPage'));
const MenuPage = lazyPage(() => import('@/features/menu/components/MenuPage'));
const SessionsPage = lazyPage(() => import('@/features/menu/components/SessionsPage'));
const PrivacyPage = lazyPage(() => import('@/features/privacy/components/PrivacyPage'));
const ProductsOverviewPage = lazyPage(() => import('@/features/products/components/ProductsOverviewPage'));
const SegmentPage = lazyPage(() => import('@/features/products/components/SegmentPage'));
const CategoryPage = lazyPage(() => import('@/features/products/components/CategoryPage'));
const ProductDetailPage = lazyPage(() => import('@/features/products/components/ProductDetailPage'));
const ProductDocumentsPage = lazyPage(() => import('@/features/products/components/ProductDocumentsPage'));
const ComponentsPage = lazyPage(() => import('@/features/products/components/ComponentsPage'));
const InDepthPage = lazyPage(() => import('@/features/products/components/InDepthPage'));
const ComponentPage = lazyPage(() => import('@/features/products/components/ComponentPage'));
const DocumentsPage = lazyPage(() => import('@/features/documents/components/DocumentsPage'));
const NewsListPage = lazyPage(() => import('@/features/news/components/NewsListPage'));
const NewsDetailPage = lazyPage(() => import('@/features/news/components/NewsDetailPage'));
const CongressListPage = lazyPage(() => import('@/features/congresses/components/CongressListPage'));
const CongressDetailPage = lazyPage(() => import('@/features/congresses/components/CongressDetailPage'));
const ActivityPage = lazyPage(() => import('@/features/congresses/components/ActivityPage'));
const TrainingListPage = lazyPage(() => import('@/features/training/components/TrainingListPage'));
const TrainingDetailPage = lazyPage(() => import('@/features/training/components/TrainingDetailPage'));
const LearnListPage = lazyPage(() => import('@/features/learn/components/LearnListPage'));
const CourseDetailPage = lazyPage(() => import('@/features/learn/components/CourseDetailPage'));
const FolderPage = lazyPage(() => import('@/features/documents/components/FolderPage'));
const DocumentHistoryPage = lazyPage(() => import('@/features/documents/components/HistoryPage'));
const WithdrawnPage = lazyPage(() => import('@/features/documents/components/WithdrawnPage'));
const SearchPage = lazyPage(() => import('./SearchRoute'));
const ContactsPage = lazyPage(() => import('@/features/contacts/components/ContactsPage'));
const UsefulLinksPage = lazyPage(() => import('@/features/useful/components/UsefulLinksPage'));
const MultimediaPage = lazyPage(() => import('@/features/multimedia/components/MultimediaPage'));
const WhatsNewPage = lazyPage(() => import('@/features/whats-new/components/WhatsNewPage'));
const WizardPage = lazyPage(() => import('@/features/wizard/components/WizardPage'));
const UpdateWizardPage = lazyPage(() => import('@/features/whats-new/components/UpdateWizardPage'));
const OfflinePage = lazyPage(() => import('@/features/offline/components/OfflinePage'));
const PublishPage = lazyPage(() => import('@/features/whats-new/components/PublishPage'));
const AuditPage = lazyPage(() => import('@/features/audit/components/AuditPage'));
const ConsolePage = lazyPage(() => import('@/features/console/components/ConsolePage'));
const SharesPage = lazyPage(() => import('@/features/shares/components/SharesPage'));
const SentPage = lazyPage(() => import('@/features/shares/components/SentPage'));
const SharedLinkPage = lazyPage(() => import('@/features/shares/components/SharedLinkPage'));

/** Every route of spec 2.2. Guarding and layout live in the Shell. */
export const routes: RouteObject[] = [
  {
    // A recipient outside the company opening a shared link: no account, nothing of the app around it.
    path: 's/:token',
    errorElement: <RouteError />,
    element: (
      <Suspense fallback={<Loader full />}>
        <SharedLinkPage />
      </Suspense>
    ),
  },
  {
    element: <Shell />,
    errorElement: <RouteError />,
    children: [
      {
        errorElement: <RouteError />,
        children: [
          { index: true, element: <Navigate to="/login" replace /> },
          { path: 'login', element: <LoginPage /> },
          { path: 'privacy', element: <PrivacyPage /> },
          { path: 'home', element: <HomePage /> },
          { path: 'terms', element: <TermsPage /> },
          { path: 'onboarding', element: <OnboardingPage /> },
          { path: 'menu', element: <MenuPage /> },
          { path: 'menu/sessions', element: <SessionsPage /> },
          { path: 'useful', element: <UsefulLinksPage /> },
          { path: 'news', element: <NewsListPage /> },
          { path: 'news/:id', element: <NewsDetailPage /> },
          { path: 'multimedia', element: <MultimediaPage /> },
          { path: 'new', element: <WhatsNewPage /> },
          { path: 'new/update', element: <UpdateWizardPage /> },
          { path: 'new/update/:id', element: <UpdateWizardPage /> },
          { path: 'new/publish', element: <PublishPage /> },
          { path: 'search', element: <SearchPage /> },
          { path: 'contacts', element: <ContactsPage /> },
          { path: 'documents', element: <DocumentsPage /> },
          { path: 'offline', element: <OfflinePage /> },
          { path: 'documents/folder', element: <FolderPage /> },
          { path: 'documents/folder/:id', element: <FolderPage /> },
          { path: 'documents/history/:id', element: <DocumentHistoryPage /> },
          { path: 'documents/sent', element: <SentPage /> },
          { path: 'documents/:id/shares', element: <SharesPage /> },
          { path: 'documents/:id/withdrawn', element: <WithdrawnPage /> },
          { path: 'library/:id/withdrawn', element: <WithdrawnPage /> },
          { path: 'products', element: <ProductsOverviewPage /> },
          { path: 'products/:segment', element: <SegmentPage /> },
          { path: 'products/category/:category', element: <CategoryPage /> },
          { path: 'products/detail/component/:id', element: <ComponentPage /> },
          { path: 'products/detail/:id', element: <ProductDetailPage /> },
          { path: 'products/detail/:id/documents', element: <ProductDocumentsPage /> },
          { path: 'products/detail/:id/components', element: <ComponentsPage /> },
          { path: 'products/detail/:id/indepth/:tab?/:anchor?', element: <InDepthPage /> },
          { path: 'congresses', element: <CongressListPage /> },
          { path: 'congresses/activities', element: <ActivityPage /> },
          { path: 'congresses/activities/:id', element: <ActivityPage /> },
          { path: 'congresses/:id', element: <CongressDetailPage /> },
          { path: 'training', element: <TrainingListPage /> },
          { path: 'training/:id', element: <TrainingDetailPage /> },
          { path: 'learn', element: <LearnListPage /> },
          { path: 'learn/list', element: <CourseDetailPage /> },
          { path: 'learn/list/:id', element: <CourseDetailPage /> },
          { path: 'learn/:id', element: <CourseDetailPage /> },
          { path: 'wizard', element: <WizardPage /> },
          { path: 'audit', element: <AuditPage /> },
          { path: 'audit/activity', element: <AuditPage /> },
          { path: 'console', element: <ConsolePage /> },
          { path: 'console/library/:id', element: <ConsolePage /> },
          { path: 'console/news', element: <ConsolePage /> },
          { path: 'console/news/:id', element: <ConsolePage /> },
          { path: '*', element: <Navigate to="/home" replace /> },
        ],
      },
    ],
  },
];
