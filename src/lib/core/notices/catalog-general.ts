// Messages that belong to no one area: the fallback for an error nothing classified; and the load
// path's own messages ('load.*': what the worker finds before and while a model's files are read).
import type { ModelWhere } from './catalog-model.ts';

const where = {
  en: (p: ModelWhere) => (p.source === 'hub' ? p.name : `the site's model folder /models/${p.name}/`),
  zh: (p: ModelWhere) => (p.source === 'hub' ? p.name : `本站的模型文件夹 /models/${p.name}/`),
};

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
  /** The ONNX file keeps its weights in a file beside it (external data), and that file is not there. */
  'load.external-data-missing': {
    en: (p: ModelWhere & { file: string }) =>
      `The weights of ${where.en(p)} are kept in a separate file, ${p.file}, and it could not be found. Copy the whole onnx/ folder (the .onnx file needs its .onnx_data beside it), or pick another dtype.`,
    zh: (p: ModelWhere & { file: string }) =>
      `${where.zh(p)} 的权重存放在单独的文件 ${p.file} 中，但找不到这个文件。请复制整个 onnx/ 文件夹（.onnx 文件需要旁边的 .onnx_data），或换一种量化精度。`,
  },
  /** The external data file is there but shorter than, or not what, the ONNX file says it holds. */
  'load.external-data-damaged': {
    en: (p: ModelWhere & { file: string }) =>
      `${p.file} of ${where.en(p)} is incomplete or damaged: it does not hold the weights its .onnx file points to. Download it again, or pick another dtype.`,
    zh: (p: ModelWhere & { file: string }) =>
      `${where.zh(p)} 的 ${p.file} 不完整或已损坏：其中没有 .onnx 文件所指的权重。请重新下载，或换一种量化精度。`,
  },
};
