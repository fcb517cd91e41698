import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig, type Plugin } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { VitePWA } from 'vite-plugin-pwa';
import { isolationHeaders, ortDir, ortFiles, siteBase, siteRoutes } from './scripts/site-routes.ts';
import { buildDefines } from './scripts/build-info.ts';

// The sub-path the site is deployed under, set at build time (`JIANGU_BASE=/jiangu/ npm run build`
// for https://host/jiangu/): every URL the pages, workers and service worker build starts from it.
const base = siteBase(process.env.JIANGU_BASE);

// Serves model folders and ORT's wasm in dev and preview, and copies the wasm into the build, so
// the site never asks a CDN for onnxruntime-web.
function jianguSite(): Plugin {
  return {
    name: 'jiangu-site',
    configureServer(server) {
      server.middlewares.use(siteRoutes({ serveOrt: true }));
    },
    configurePreviewServer(server) {
      server.middlewares.use(siteRoutes({ serveOrt: false }));
    },
    generateBundle() {
      for (const name of ortFiles) {
        this.emitFile({ type: 'asset', fileName: `ort/${name}`, source: readFileSync(join(ortDir, name)) });
      }
    },
  };
}

// The service worker (src/sw.ts, Workbox through vite-plugin-pwa's injectManifest) and the web app
// manifest. src/ui/site/register.ts registers it on the main page only; the dev server has none.
function serviceWorker() {
  return VitePWA({
    strategies: 'injectManifest',
    srcDir: 'src',
    filename: 'sw.ts',
    injectRegister: false,
    manifestFilename: 'manifest.webmanifest',
    // The icons are in globPatterns already (the plugin would list them twice).
    includeManifestIcons: false,
    injectManifest: {
      // The app shell (both pages, their scripts and styles, the icons, the manifest), the
      // AncientBench sample, and ORT's two files. Model folders are cached at run time (models/).
      globPatterns: ['**/*.{html,js,css,svg,png}', 'samples/*', 'ort/*'],
      globIgnores: ['models/**', 'sw.js'],
      // ORT's wasm is 27 MB; workbox-build's size limit is one number for every file (no per-pattern
      // knob), so it is raised for all: nothing else in the build is near it.
      maximumFileSizeToCacheInBytes: 40 * 1024 * 1024,
    },
    manifest: {
      name: '鉴古 Jiangu',
      short_name: '鉴古',
      description: 'Evaluate small language models on classical Chinese, in the browser',
      lang: 'zh-Hans',
      display: 'standalone',
      // --accent and --paper in src/ui/global.css
      theme_color: '#9b2d20',
      background_color: '#faf7f0',
      start_url: base,
      scope: base,
      icons: [
        { src: 'icons/icon-192.png', sizes: '192x192', type: 'image/png' },
        { src: 'icons/icon-512.png', sizes: '512x512', type: 'image/png' },
        { src: 'icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
      ],
    },
  });
}

export default defineConfig({
  base,
  plugins: [svelte(), jianguSite(), serviceWorker()],
  define: buildDefines(),
  // Two real pages, no SPA fallback: a missing file is a 404, not index.html served as JSON.
  appType: 'mpa',
  server: { host: '127.0.0.1', port: 5173, headers: isolationHeaders },
  preview: { host: '127.0.0.1', port: 4173, headers: isolationHeaders },
  worker: { format: 'es' },
  // ORT's "extern wasm" build: it loads its .mjs and .wasm from env.wasm.wasmPaths (our /ort/ copies)
  // instead of embedding the factory and making Vite emit a second copy of the 27 MB wasm.
  resolve: { conditions: ['onnxruntime-web-use-extern-wasm', 'module', 'browser', 'development|production'] },
  build: {
    // JIANGU_DIST: another output folder, so that two builds on one machine (parallel work trees of
    // one checkout) do not overwrite the site the other's browser tests are serving. Default dist/.
    outDir: process.env.JIANGU_DIST ?? 'dist',
    target: 'es2022',
    chunkSizeWarningLimit: 4096,
    rollupOptions: { input: { main: 'index.html', harness: 'harness.html' } },
  },
  optimizeDeps: { exclude: ['@huggingface/transformers', 'onnxruntime-web'] },
});
