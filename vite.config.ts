import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig, type Plugin } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { isolationHeaders, ortDir, ortFiles, siteRoutes } from './scripts/site-routes.ts';
import { buildDefines } from './scripts/build-info.ts';

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

export default defineConfig({
  plugins: [svelte(), jianguSite()],
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
    target: 'es2022',
    chunkSizeWarningLimit: 4096,
    rollupOptions: { input: { main: 'index.html', harness: 'harness.html' } },
  },
  optimizeDeps: { exclude: ['@huggingface/transformers', 'onnxruntime-web'] },
});
