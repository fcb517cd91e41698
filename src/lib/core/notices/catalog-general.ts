// Messages that belong to no one area: the fallback for an error nothing classified.
export const generalNotices = {
  /** Something threw that carries no code: a bug, or a library's own error. Shown with its text. */
  'internal': {
    en: (p: { detail: string }) => `Something went wrong inside Jiangu: ${p.detail}`,
    zh: (p: { detail: string }) => `鉴古内部出错：${p.detail}`,
  },
  /** A run asked for by id is not in this browser's store (deleted in another tab, or never here). */
  'runs.not-stored': {
    en: (p: { runId: string }) => `No run ${p.runId} is stored in this browser.`,
    zh: (p: { runId: string }) => `这个浏览器里没有存储评测记录 ${p.runId}。`,
  },
};
