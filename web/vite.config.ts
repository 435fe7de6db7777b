import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// In development the API runs on REELSTAT_API (default http://127.0.0.1:3000); Vite proxies calls and sockets.
const api = process.env.REELSTAT_API ?? 'http://127.0.0.1:3000';
const proxied = [
  '/auth',
  '/api',
  '/stats',
  '/sync',
  '/backup',
  '/logs',
  '/webhooks',
  '/proxy',
  '/utils',
  '/healthz',
  '/readyz',
  '/metrics',
  '/api-docs',
];

export default defineConfig({
  plugins: [react()],
  // The API contract (zod schemas) is shared with the server: one source for both sides.
  resolve: {
    alias: { '@reelstat/contract': fileURLToPath(new URL('../services/contract/src/index.ts', import.meta.url)) },
  },
  // Relative asset URLs: the server adds <base href> for BASE_URL, so one build serves any sub-path.
  base: './',
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true, chunkSizeWarningLimit: 1200 },
  server: {
    port: 5173,
    proxy: {
      ...Object.fromEntries(proxied.map((path) => [path, { target: api, changeOrigin: false }])),
      '/socket.io': { target: api, ws: true },
    },
  },
});
