import type { ManifestOptions } from 'vite-plugin-pwa';

/** The web app manifest: Otto installs as an app that opens on the back office. */
export const ottoWebManifest: Partial<ManifestOptions> = {
  name: 'Otto: customers and jobs',
  short_name: 'Otto',
  description: 'The back office for a small business: customers and jobs, kept on your device, working offline.',
  id: '/biz',
  start_url: '/biz/customers',
  scope: '/',
  display: 'standalone',
  theme_color: '#4f46e5',
  background_color: '#ffffff',
  icons: [
    { src: '/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
    { src: '/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
    { src: '/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
  ],
};
