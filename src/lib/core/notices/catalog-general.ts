// Messages that belong to no one area: the fallback for an error nothing classified.
export const generalNotices = {
  /** Something threw that carries no code: a bug, or a library's own error. Shown with its text. */
  'internal': {
    en: (p: { detail: string }) => `Something went wrong inside Jiangu: ${p.detail}`,
    zh: (p: { detail: string }) => `鉴古内部出错：${p.detail}`,
  },
};
