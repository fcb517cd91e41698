// The bare onnxruntime-web session the benches compare the pipeline with runs in the harness page
// itself: the page imports ORT's ESM build, which the site does not serve (only the worker's wasm),
// so the bench serves it from node_modules on the site's own origin, and hands the page its URLs.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { ortDir } from '../site-routes.ts';

const ORT_ROUTE = '/__bench/ort/';
const ORT_MODULE = 'ort.webgpu.min.mjs';

/** The URLs pageBareSetup (mc-page.ts) takes: ORT's module, and the site's own wasm files. */
export function bareOrtUrls(siteUrl: string): { ortUrl: string; wasmMjs: string; wasmBinary: string } {
  return {
    ortUrl: `${siteUrl}${ORT_ROUTE}${ORT_MODULE}`,
    wasmMjs: `${siteUrl}/ort/ort-wasm-simd-threaded.asyncify.mjs`,
    wasmBinary: `${siteUrl}/ort/ort-wasm-simd-threaded.asyncify.wasm`,
  };
}

/** Serves onnxruntime-web's ESM build to `page` from node_modules, on the site's own origin. */
export async function routeOrt(page: Page, siteUrl: string): Promise<void> {
  const body = readFileSync(join(ortDir, ORT_MODULE));
  await page.route(bareOrtUrls(siteUrl).ortUrl, (route) =>
    route.fulfill({ status: 200, body, headers: { 'Content-Type': 'text/javascript; charset=utf-8', 'Cross-Origin-Resource-Policy': 'same-origin', 'Cache-Control': 'no-cache' } }),
  );
}
