import { Navigate, type RouteObject } from 'react-router';
import { lazyPage } from './lazy-page';
import { RouteError } from './RouteError';
import { Shell } from './Shell';

const LoginPage = lazyPage(() => import('@/features/auth/components/LoginPage'));
const HomePage = lazyPage(() => import('@/features/home/components/HomePage'));
const TermsPage = lazyPage(() => import('@/features/terms/components/TermsPage'));
const OnboardingPage = lazyPage(() => import('@/features/onboarding/components/OnboardingPage'));
const MenuPage = lazyPage(() => import('@/features/menu/components/MenuPage'));
const PrivacyPage = lazyPage(() => import('@/features/privacy/components/PrivacyPage'));
const ProductsPage = lazyPage(() => import('@/features/products/components/ProductsPage'));
const DocumentsPage = lazyPage(() => import('@/features/documents/components/DocumentsPage'));
const FolderPage = lazyPage(() => import('@/features/documents/components/FolderPage'));
const DocumentHistoryPage = lazyPage(() => import('@/features/documents/components/HistoryPage'));
const NewsPage = lazyPage(() => import('@/features/news/components/NewsPage'));
const CongressesPage = lazyPage(() => import('@/features/congresses/components/CongressesPage'));
const TrainingPage = lazyPage(() => import('@/features/training/components/TrainingPage'));
const LearnPage = lazyPage(() => import('@/features/learn/components/LearnPage'));
const SearchPage = lazyPage(() => import('@/features/search/components/SearchPage'));
const ContactsPage = lazyPage(() => import('@/features/contacts/components/ContactsPage'));
const UsefulLinksPage = lazyPage(() => import('@/features/useful/components/UsefulLinksPage'));
const MultimediaPage = lazyPage(() => import('@/features/multimedia/components/MultimediaPage'));
const WhatsNewPage = lazyPage(() => import('@/features/whats-new/components/WhatsNewPage'));
const WizardPage = lazyPage(() => import('@/features/wizard/components/WizardPage'));

/** Every route of spec 2.2. Guarding and layout live in the Shell. */
export const routes: RouteObject[] = [
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
          { path: 'useful', element: <UsefulLinksPage /> },
          { path: 'news', element: <NewsPage /> },
          { path: 'news/:id', element: <NewsPage /> },
          { path: 'multimedia', element: <MultimediaPage /> },
          { path: 'new', element: <WhatsNewPage /> },
          { path: 'new/update', element: <WhatsNewPage /> },
          { path: 'new/update/:id', element: <WhatsNewPage /> },
          { path: 'search', element: <SearchPage /> },
          { path: 'contacts', element: <ContactsPage /> },
          { path: 'documents', element: <DocumentsPage /> },
          { path: 'documents/folder', element: <FolderPage /> },
          { path: 'documents/folder/:id', element: <FolderPage /> },
          { path: 'documents/history/:id', element: <DocumentHistoryPage /> },
          { path: 'products', element: <ProductsPage /> },
          { path: 'products/:segment', element: <ProductsPage /> },
          { path: 'products/category/:category', element: <ProductsPage /> },
          { path: 'products/detail/component/:id', element: <ProductsPage /> },
          { path: 'products/detail/:id', element: <ProductsPage /> },
          { path: 'products/detail/:id/documents', element: <ProductsPage /> },
          { path: 'products/detail/:id/components', element: <ProductsPage /> },
          { path: 'products/detail/:id/indepth/:tab?/:anchor?', element: <ProductsPage /> },
          { path: 'congresses', element: <CongressesPage /> },
          { path: 'congresses/:id', element: <CongressesPage /> },
          { path: 'congresses/activities/:id', element: <CongressesPage /> },
          { path: 'training', element: <TrainingPage /> },
          { path: 'training/:id', element: <TrainingPage /> },
          { path: 'learn', element: <LearnPage /> },
          { path: 'learn/:id', element: <LearnPage /> },
          { path: 'learn/list/:id', element: <LearnPage /> },
          { path: 'wizard', element: <WizardPage /> },
          { path: '*', element: <Navigate to="/home" replace /> },
        ],
      },
    ],
  },
];
