// Errors and warnings are values: a code and its parameters (which file, which item, what was
// expected), never a finished sentence. The sentence is made where it is shown, in the reader's
// language, from the catalog (catalog.ts), so a message stored in a run record, sent by the model
// worker or thrown deep in an adapter reads in 中文 or English alike. Parameters are plain JSON
// (they cross postMessage and are stored in IndexedDB).

/** A parameter value: what a sentence may quote. */
export type NoticeParam = string | number | boolean | null | readonly string[] | readonly number[];
export type NoticeParams = Readonly<Record<string, NoticeParam>>;

/** One catalog entry: the same message in both interface languages. */
export interface NoticeText<P> {
  en: (params: P) => string;
  zh: (params: P) => string;
}

/** An area's messages, keyed by code (`area.what-happened`). */
// `never` accepts every parameter type, so each entry keeps its own precise one.
export type NoticeTexts = Record<string, NoticeText<never>>;

/** A message as a value: what is stored, sent between threads, and rendered by the page. */
export interface Notice {
  code: string;
  params: NoticeParams;
}

/** Whether `value` has the shape of a Notice (for values read back from storage or a worker). */
export function isNotice(value: unknown): value is Notice {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.code === 'string' && typeof v.params === 'object' && v.params !== null && !Array.isArray(v.params);
}
