import { fileURLToPath, URL } from 'node:url';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import { defineConfig } from 'vitest/config';

const backend = process.env.COMPANION_BACKEND ?? 'http://localhost:8080';

export default defineConfig({
  plugins: [
    react(),
    // The service worker and manifest: see docs/offline.md for what is cached and why.
    VitePWA({
      // The app asks before taking a new version (the update toast), never in the middle of someone's work.
      registerType: 'prompt',
      injectRegister: false,
      // Registered by the app in production builds only (src/lib/offline/register-sw.ts).
      devOptions: { enabled: false },
      includeAssets: ['favicon.svg', 'icons/apple-touch-icon-180.png'],
      manifest: {
        id: '/',
        name: 'Companion',
        short_name: 'Companion',
        description: 'Companion app for the sales force, surgeons and staff.',
        lang: 'en',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        orientation: 'portrait',
        theme_color: '#0b3d91',
        background_color: '#ffffff',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      workbox: {
        // The app shell and every route chunk (and the PDF worker) are precached.
        globPatterns: ['**/*.{js,mjs,css,html,svg,png,woff2}'],
        globIgnores: ['terms/**'],
        maximumFileSizeToCacheInBytes: 4 * 1024 * 1024,
        // Web Push: shows each push and opens its link on tap (public/push-sw.js, docs/offline.md).
        importScripts: ['push-sw.js'],
        navigateFallback: '/index.html',
        // A shared link's page (/s/...) comes from the server each time: it answers 410 once the link
        // is taken back, and a recipient's browser has no reason to keep the app.
        navigateFallbackDenylist: [/^\/api\//, /^\/media\//, /^\/metrics/, /^\/s\//],
        cleanupOutdatedCaches: true,
        // No expiration plugin: it keeps the cached addresses in IndexedDB, which sign-out could not
        // empty while the worker holds it open. Each address keeps one answer (the newest); the
        // caches are emptied at sign-out (src/lib/offline/clear.ts).
        runtimeCaching: [
          {
            // Published content (catalogue, news, congresses, training): shown at once from the
            // device, refreshed in the background. Only the user's own actions never change it.
            // (The patterns are written inside each function: Workbox copies the function's text into
            // the service worker, so it cannot refer to anything around it.)
            urlPattern: ({ url, request, sameOrigin }) =>
              sameOrigin &&
              request.method === 'GET' &&
              /^\/api\/(products|product|component|news|congresses|training)(\/|$)/.test(url.pathname),
            handler: 'StaleWhileRevalidate',
            options: {
              cacheName: 'companion-content',
              cacheableResponse: { statuses: [200] },
            },
          },
          {
            // Everything else the user reads (documents, notifications, courses, session data):
            // the network first, so an action's effect is never hidden by an older answer; the last
            // answer when the network is gone or slower than 4 s.
            // Never kept: files (pinned ones are stored apart), shared links (/api/s/), the live socket, probes, sign-in
            // answers, the list of withdrawn documents (offline, the device must know it could not ask), the push endpoint whose GET marks a notification read, and what the
            // administrator and the auditor read (accounts, the audit trail, histories, past
            // states and who could see an item): other people's data stays off the device.
            urlPattern: ({ url, request, sameOrigin }) =>
              sameOrigin &&
              request.method === 'GET' &&
              url.pathname.startsWith('/api/') &&
              !/^\/api\/(products|product|component|news|congresses|training)(\/|$)/.test(url.pathname) &&
              !/^\/api\/(ws|health|ready|shared-links\/|s\/|push\/|library\/withdrawn|documents\/[^/]+\/(file|history\.csv)|users\/(check-domain|sso|login|logout|welcome|password))/.test(
                url.pathname,
              ) &&
              !/^\/api\/(admin|audit)(\/|$)/.test(url.pathname) &&
              !/^\/api\/(documents\/[^/]+\/history|folders\/[^/]+\/as-of|items\/[^/]+\/access-as-of)(\/|\.|$)/.test(
                url.pathname,
              ),
            handler: 'NetworkFirst',
            options: {
              cacheName: 'companion-api',
              networkTimeoutSeconds: 4,
              cacheableResponse: { statuses: [200] },
            },
          },
        ],
      },
    }),
  ],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: backend, changeOrigin: true, ws: true },
      '/media': { target: backend, changeOrigin: true },
      '/ws': { target: backend, changeOrigin: true, ws: true },
    },
  },
  build: {
    outDir: 'dist',
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 250,
    rolldownOptions: {
      output: {
        // Long-lived vendor chunks: they change far less often than the app code.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 20 },
            { name: 'router', test: /node_modules[\\/](react-router|cookie|set-cookie-parser)[\\/]/, priority: 15 },
            { name: 'data', test: /node_modules[\\/](@tanstack|zustand)[\\/]/, priority: 10 },
          ],
        },
      },
    },
  },
  test: {
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'node',
  },
});
