// The site itself, apart from data, models and runs: why there is no service worker (so no offline
// copy of the site and no isolation headers on hosts that do not send them).
export const siteNotices = {
  /** The browser has no service workers although the page is a secure context (disabled, or a private mode that turns them off). */
  'site.sw-unsupported': {
    en: () =>
      'This browser does not run service workers here, so the site is not kept for offline use and works only while its host is reachable. Data and models already stored still work.',
    zh: () => '此浏览器在这里不运行 Service Worker，因此网站不会保存以供离线使用，只有在能连上主机时才能打开。已存储的数据和模型仍可使用。',
  },
  /** Served over plain http from a host that is not this machine: browsers allow service workers only on https or localhost. */
  'site.sw-insecure': {
    en: (p: { origin: string }) =>
      `${p.origin} is not a secure origin (https, or http on localhost), so the browser keeps no offline copy of the site and cannot make it cross-origin isolated: ORT's wasm runs on one thread. Serve the site over https to get both.`,
    zh: (p: { origin: string }) =>
      `${p.origin} 不是安全来源（https，或 localhost 上的 http），因此浏览器不会保存网站的离线副本，也无法使其跨源隔离：ORT 的 wasm 只能单线程运行。请通过 https 提供网站以获得这两项功能。`,
  },
  /** register() failed: the worker script is missing (a partial upload) or threw while installing. */
  'site.sw-failed': {
    en: (p: { detail: string }) =>
      `The site's service worker could not be installed (${p.detail}), so the site is not kept for offline use. Check that sw.js was deployed beside index.html; the site works online meanwhile.`,
    zh: (p: { detail: string }) =>
      `无法安装网站的 Service Worker（${p.detail}），因此网站不会保存以供离线使用。请检查 sw.js 是否与 index.html 一同部署；在此期间网站可在线使用。`,
  },
};
