// Messages of the data area: getting benchmark files in ('data.*': parsing, adapting, downloading,
// hash checks) and keeping them ('store.*'), each in English and Chinese.
//
// A data file's problem is a location (file, line or record, field) plus a detail. The details are
// written once below, without the location; `located` puts "file, line N, field "x": " (or
// "file，第 N 行，字段“x”：") in front of each, so every refusal reads the same way in both languages.
import { formatBytes } from '../benchmarks/byte-text.ts';
import { escapeInvisible } from '../text-safety.ts';

/** Where in a data file; `file` '' leaves the location out (a preview that already says where). */
export interface DataWhere {
  file: string;
  line?: number;
  record?: number;
  field?: string;
}

/** The shape a JSON value had, for "expected …, got …" (see json.ts jsonShape). */
export interface JsonShapeParams {
  /** 'null', 'list', 'object', or the typeof of anything else. */
  shape: string;
  /** An object's first keys. */
  keys: readonly string[];
  moreKeys: boolean;
}

const whereEn = (p: DataWhere): string =>
  [
    p.file,
    p.line !== undefined ? `line ${p.line}` : '',
    p.record !== undefined ? `record ${p.record}` : '',
    p.field !== undefined ? `field "${p.field}"` : '',
  ]
    .filter((part) => part !== '')
    .join(', ');
const whereZh = (p: DataWhere): string =>
  [
    p.file,
    p.line !== undefined ? `第 ${p.line} 行` : '',
    p.record !== undefined ? `记录 ${p.record}` : '',
    p.field !== undefined ? `字段“${p.field}”` : '',
  ]
    .filter((part) => part !== '')
    .join('，');

/** A value from a file, quoted: "E" in English, “E” in Chinese (JSON's escapes kept; renderNotice escapes invisible characters). */
const qEn = (value: string) => JSON.stringify(value);
const qZh = (value: string) => `“${JSON.stringify(value).slice(1, -1)}”`;
const namesEn = (names: readonly string[]) => names.map((name) => JSON.stringify(name)).join(', ');
const namesZh = (names: readonly string[]) => names.map((name) => `“${name}”`).join('、');

/** The kinds of name a data file gives (benchmarks/names.ts). */
type NameWhat = 'id' | 'task' | 'file-name';
const NAME_EN: Record<NameWhat, string> = { id: 'id', task: 'task name', 'file-name': 'file name' };
const NAME_ZH: Record<NameWhat, string> = { id: 'ID', task: '任务名', 'file-name': '文件名' };

const shapeEn = (p: JsonShapeParams): string => {
  if (p.shape === 'null') return 'null';
  if (p.shape === 'list') return 'a list';
  if (p.shape === 'object') return p.keys.length === 0 ? 'an empty object' : `an object with keys ${namesEn(p.keys)}${p.moreKeys ? ', …' : ''}`;
  return `a ${p.shape}`;
};
const SHAPES_ZH: Record<string, string> = { null: 'null', list: '列表', string: '字符串', number: '数字', boolean: '布尔值' };
const shapeZh = (p: JsonShapeParams): string => {
  if (p.shape === 'object') return p.keys.length === 0 ? '空对象' : `含键 ${namesZh(p.keys)}${p.moreKeys ? '、…' : ''} 的对象`;
  return SHAPES_ZH[p.shape] ?? p.shape;
};

interface HeaderParams {
  required: readonly string[];
  optional: readonly string[];
}
const expectedHeaderEn = (p: HeaderParams) => `expected ${namesEn(p.required)}${p.optional.length ? ` (optional: ${namesEn(p.optional)})` : ''}`;
const expectedHeaderZh = (p: HeaderParams) => `应为 ${namesZh(p.required)}${p.optional.length ? `（可选：${namesZh(p.optional)}）` : ''}`;

const plural = (n: number, word: string) => (n === 1 ? word : `${word}s`);
const mib = (bytes: number) => {
  const m = bytes / (1024 * 1024);
  return Number.isInteger(m) ? String(m) : m.toFixed(1);
};
/** A size in MiB; with its bytes too where MiB alone would not show it is over `limit` (64 MiB and a byte). */
const size = (bytes: number, limit: number, lang: 'en' | 'zh') => {
  const m = mib(bytes);
  if (Number(m) > limit / (1024 * 1024)) return `${m} MiB`;
  return lang === 'en' ? `${m} MiB (${bytes} bytes)` : `${m} MiB（${bytes} 字节）`;
};

/** The problem in a data file, without its location. */
const dataDetails = {
  // In MiB (a size in raw bytes, "999292929 bytes", reads as noise): the file was not read.
  'data.file-too-large': {
    en: (p: { bytes: number; limit: number }) => `the file is ${size(p.bytes, p.limit, 'en')}, over the ${mib(p.limit)} MiB limit for one file`,
    zh: (p: { bytes: number; limit: number }) => `文件有 ${size(p.bytes, p.limit, 'zh')}，超过了单个文件 ${mib(p.limit)} MiB 的上限`,
  },
  'data.file-unreadable': {
    en: (p: { reason: string }) => `the browser could not read the file (${p.reason}); check that it is still there and not locked, or copy it somewhere else and choose it again`,
    zh: (p: { reason: string }) => `浏览器无法读取这个文件（${p.reason}）；请确认文件仍在原处且未被占用，或把它复制到别处后重新选择`,
  },
  'data.not-utf8': {
    en: (p: { offset: number }) => `not valid UTF-8 (first bad byte at offset ${p.offset}); save the file as UTF-8 and import it again`,
    zh: (p: { offset: number }) => `不是有效的 UTF-8（第一个错误字节在偏移 ${p.offset} 处）；请把文件另存为 UTF-8 后再导入`,
  },
  'data.empty-file': { en: () => 'the file is empty', zh: () => '文件是空的' },
  'data.malformed-csv': {
    en: (p: { reason: string }) => `malformed CSV: ${p.reason}`,
    zh: (p: { reason: string }) => `CSV 格式有误：${p.reason}`,
  },
  'data.header-only': { en: () => 'the file has a header but no rows', zh: () => '文件只有表头，没有数据行' },
  'data.field-count': {
    en: (p: { columns: readonly string[]; got: number }) => `expected ${p.columns.length} fields (${namesEn(p.columns)}), got ${p.got}`,
    zh: (p: { columns: readonly string[]; got: number }) => `应有 ${p.columns.length} 个字段（${namesZh(p.columns)}），实有 ${p.got} 个`,
  },
  'data.column-twice': {
    en: (p: HeaderParams) => `column appears twice in the header; ${expectedHeaderEn(p)}`,
    zh: (p: HeaderParams) => `这一列在表头中出现了两次；${expectedHeaderZh(p)}`,
  },
  'data.wrong-header': {
    en: (p: HeaderParams & { missing: readonly string[]; unexpected: readonly string[] }) => {
      const problems: string[] = [];
      if (p.missing.length > 0) problems.push(`missing ${plural(p.missing.length, 'column')} ${namesEn(p.missing)}`);
      if (p.unexpected.length > 0) problems.push(`unexpected ${plural(p.unexpected.length, 'column')} ${namesEn(p.unexpected)}`);
      return `wrong header: ${problems.join('; ')}; ${expectedHeaderEn(p)}`;
    },
    zh: (p: HeaderParams & { missing: readonly string[]; unexpected: readonly string[] }) => {
      const problems: string[] = [];
      if (p.missing.length > 0) problems.push(`缺少列 ${namesZh(p.missing)}`);
      if (p.unexpected.length > 0) problems.push(`多出列 ${namesZh(p.unexpected)}`);
      return `表头不对：${problems.join('；')}；${expectedHeaderZh(p)}`;
    },
  },
  'data.cmmlu-layout': {
    en: (p: { example: string }) =>
      `this is CMMLU's and ACLUE's layout (Question, A, B, C, D, Answer; one task per file), and the file name names no AncientBench task: ` +
      `rename the file after its task (for example "${p.example}.csv" or "通假字.csv"), or add a "task" column and rename the columns to task, question, A, B, C, D, answer`,
    zh: (p: { example: string }) =>
      `这是 CMMLU 和 ACLUE 的格式（Question、A、B、C、D、Answer，每个文件一个任务），但文件名不是 AncientBench 的任务名：` +
      `请把文件改名为它的任务名（例如“${p.example}.csv”或“通假字.csv”），或者加一列“task”，并把各列改名为 task、question、A、B、C、D、answer`,
  },
  'data.invalid-json': {
    en: (p: { reason: string }) => `not valid JSON (${p.reason})`,
    zh: (p: { reason: string }) => `不是有效的 JSON（${p.reason}）`,
  },
  'data.not-a-json-list': {
    en: (p: JsonShapeParams) => `expected a JSON list of records at the top level, got ${shapeEn(p)}`,
    zh: (p: JsonShapeParams) => `顶层应为由记录组成的 JSON 列表，实为${shapeZh(p)}`,
  },
  'data.empty-json-list': { en: () => 'the JSON list is empty', zh: () => 'JSON 列表是空的' },
  'data.c3-one-file': { en: () => 'C3Bench is one JSON file; choose exactly one', zh: () => 'C3Bench 是一个 JSON 文件；请只选一个' },
  'data.c3-no-text-field': {
    en: () => 'no field looks like the classical text; choose which field fills the role "text"',
    zh: () => '没有哪个字段像是文言文原文；请选择由哪个字段担任“text”（原文）',
  },
  'data.c3-choose-text': {
    en: () => 'choose the field that holds the classical text (role "text")',
    zh: () => '请选择装有文言文原文的字段（“text”）',
  },
  'data.c3-field-unused': {
    en: (p: { role: string }) => `mapped to role "${p.role}", but no record has this field`,
    zh: (p: { role: string }) => `被指定为“${p.role}”，但没有哪条记录有这个字段`,
  },
  'data.c3-text-missing': {
    en: () => 'missing: every record needs its classical text (role "text")',
    zh: () => '缺失：每条记录都需要文言文原文（“text”）',
  },
  'data.c3-only-punctuation': { en: () => 'the text is nothing but punctuation', zh: () => '原文只有标点' },
  'data.c3-expected-source': {
    en: (p: JsonShapeParams) => `expected a string or a list of strings (book, chapter, …), got ${shapeEn(p)}`,
    zh: (p: JsonShapeParams) => `应为字符串或字符串列表（书名、篇名……），实为${shapeZh(p)}`,
  },
  'data.c3-expected-entity': {
    en: (p: JsonShapeParams & { textKeys: readonly string[] }) => `expected entities as strings or objects with one of ${p.textKeys.join(', ')}, got ${shapeEn(p)} in the list`,
    zh: (p: JsonShapeParams & { textKeys: readonly string[] }) => `实体应为字符串，或带有 ${p.textKeys.join('、')} 之一的对象，列表中却有${shapeZh(p)}`,
  },
  'data.c3-expected-entities': {
    en: (p: JsonShapeParams) => `expected a list of entities or a string, got ${shapeEn(p)}`,
    zh: (p: JsonShapeParams) => `应为实体列表或字符串，实为${shapeZh(p)}`,
  },
  'data.not-in-catalog': {
    en: (p: { count: number; dataset: string }) => `not one of the ${p.count} files of ${p.dataset} in the catalog`,
    zh: (p: { count: number; dataset: string }) => `不在目录中 ${p.dataset} 的 ${p.count} 个文件之列`,
  },
  'data.given-twice': { en: () => 'given twice', zh: () => '给了两次' },
  'data.catalog-files-missing': {
    en: (p: { dataset: string; count: number; missing: number }) => `missing: ${p.dataset} needs all ${p.count} catalog files (${p.missing} missing)`,
    zh: (p: { dataset: string; count: number; missing: number }) => `缺失：${p.dataset} 需要目录中全部 ${p.count} 个文件（缺 ${p.missing} 个）`,
  },
  'data.not-dataset-file': {
    en: (p: { title: string; count: number }) => `not one of the ${p.title} files: expected data/dev/<task>.csv or data/test/<task>.csv for one of its ${p.count} tasks`,
    zh: (p: { title: string; count: number }) => `不是 ${p.title} 的文件：应为其 ${p.count} 个任务之一的 data/dev/<任务>.csv 或 data/test/<任务>.csv`,
  },
  'data.expected-object': {
    en: (p: JsonShapeParams) => `expected an object, got ${shapeEn(p)}`,
    zh: (p: JsonShapeParams) => `应为对象，实为${shapeZh(p)}`,
  },
  'data.expected-string': {
    en: (p: JsonShapeParams) => `expected a string, got ${shapeEn(p)}`,
    zh: (p: JsonShapeParams) => `应为字符串，实为${shapeZh(p)}`,
  },
  'data.not-an-object': { en: () => 'expected an object', zh: () => '应为对象' },
  'data.missing-or-not-string': { en: () => 'missing or not a string', zh: () => '缺失或不是字符串' },
  'data.id-missing': { en: () => 'missing or not a number or string', zh: () => '缺失，或既不是数字也不是字符串' },
  'data.missing': { en: () => 'missing', zh: () => '缺失' },
  'data.wenmind-one-file': {
    en: (p: { path: string }) => `expected exactly one file, ${p.path}`,
    zh: (p: { path: string }) => `应正好是一个文件：${p.path}`,
  },
  'data.wenmind-no-options': {
    en: (p: { id: string; question: string }) => `item id ${p.id}: cannot find its options (expected "A、… B、… C、…" at the end of the question): ${qEn(p.question)}`,
    zh: (p: { id: string; question: string }) => `题目 ${p.id}：找不到选项（题干末尾应有“A、… B、… C、…”）：${qZh(p.question)}`,
  },
  'data.wenmind-no-instruction': {
    en: (p: { id: string; instruction: string }) => `item id ${p.id}: expected the instruction ${qEn(p.instruction)} then the text on the next line`,
    zh: (p: { id: string; instruction: string }) => `题目 ${p.id}：应先是指令${qZh(p.instruction)}，下一行是原文`,
  },
  'data.wenmind-topic': {
    en: (p: { id: string; labels: readonly string[]; got: string }) => `item id ${p.id}: expected one of ${p.labels.join('、')}, got ${qEn(p.got)}`,
    zh: (p: { id: string; labels: readonly string[]; got: string }) => `题目 ${p.id}：应为 ${p.labels.join('、')} 之一，实为${qZh(p.got)}`,
  },
  'data.wenmind-no-entities': {
    en: (p: { id: string }) => `item id ${p.id}: no entities in the answer`,
    zh: (p: { id: string }) => `题目 ${p.id}：答案中没有实体`,
  },
  'data.duplicate-id': {
    en: (p: { id: string; firstFile: string; firstLine?: number; firstRecord?: number }) =>
      `duplicate id ${JSON.stringify(p.id)} (first used at ${whereEn({ file: p.firstFile, line: p.firstLine, record: p.firstRecord })})`,
    zh: (p: { id: string; firstFile: string; firstLine?: number; firstRecord?: number }) =>
      `ID ${qZh(p.id)} 重复（第一次用在 ${whereZh({ file: p.firstFile, line: p.firstLine, record: p.firstRecord })}）`,
  },
  'data.no-file': { en: () => 'choose at least one AncientBench file', zh: () => '请至少选择一个 AncientBench 文件' },
  'data.unknown-task': {
    en: (p: { got: string; names: readonly string[] }) => `unknown task ${qEn(p.got)}; expected one of ${p.names.join(', ')}`,
    zh: (p: { got: string; names: readonly string[] }) => `未知任务${qZh(p.got)}；应为以下之一：${p.names.join('、')}`,
  },
  'data.bad-split': {
    en: (p: { got: string }) => `expected "dev" or "test" (or empty for test), got ${qEn(p.got)}`,
    zh: (p: { got: string }) => `应为“dev”或“test”（留空即 test），实为${qZh(p.got)}`,
  },
  'data.unexpected-key': {
    en: (p: { keys: readonly string[] }) => `unexpected key; expected ${p.keys.join(', ')}`,
    zh: (p: { keys: readonly string[] }) => `多余的键；应为 ${p.keys.join('、')}`,
  },
  'data.option-gap': { en: () => 'option is empty but a later option is not', zh: () => '这个选项是空的，但后面的选项不空' },
  'data.too-few-options': { en: () => 'needs at least two options', zh: () => '至少需要两个选项' },
  'data.not-a-letter': {
    en: (p: { got: string }) => `expected a letter A–D, got ${qEn(p.got)}`,
    zh: (p: { got: string }) => `应为字母 A–D，实为${qZh(p.got)}`,
  },
  'data.answer-beyond-options': {
    en: (p: { letter: string; count: number; last: string }) => `answer ${p.letter} but the item has only ${p.count} options (A–${p.last})`,
    zh: (p: { letter: string; count: number; last: string }) => `答案是 ${p.letter}，但这道题只有 ${p.count} 个选项（A–${p.last}）`,
  },
  'data.empty-question': { en: () => 'the question is empty', zh: () => '题干是空的' },
  // The id rule (text-safety.ts nameProblem), the run importer's too: `value` is shown escaped.
  'data.name-invisible': {
    en: (p: { what: NameWhat; value: string; codePoint: string; position: number }) =>
      `the ${NAME_EN[p.what]} ${qEn(p.value)} holds the invisible or direction character ${p.codePoint} at position ${p.position}, which hides or reorders what is shown; remove it and import the file again`,
    zh: (p: { what: NameWhat; value: string; codePoint: string; position: number }) =>
      `${NAME_ZH[p.what]}${qZh(p.value)}在位置 ${p.position}（从 0 起）含不可见字符或文字方向字符 ${p.codePoint}，会让显示的文字与实际不同；请删去后重新导入`,
  },
  'data.name-too-long': {
    en: (p: { what: NameWhat; value: string; max: number; length: number }) => `the ${NAME_EN[p.what]} ${qEn(p.value)} is ${p.length} characters long; at most ${p.max} are allowed`,
    zh: (p: { what: NameWhat; value: string; max: number; length: number }) => `${NAME_ZH[p.what]}${qZh(p.value)}有 ${p.length} 个字符，最多只能有 ${p.max} 个`,
  },
  /** `codePoints`: `U+200B`, …; `option`: the letter when the field holds several options (WenMind's question). */
  'data.only-invisible': {
    en: (p: { codePoints: readonly string[]; option: string | null }) =>
      `${p.option ? `option ${p.option} ` : ''}holds nothing but invisible characters (${p.codePoints.join(', ')}): it is empty once they are removed`,
    zh: (p: { codePoints: readonly string[]; option: string | null }) =>
      `${p.option ? `选项 ${p.option} ` : ''}只含不可见字符（${p.codePoints.join('、')}）：去掉它们就是空的`,
  },
};

export type DataDetails = typeof dataDetails;
export type DataDetailCode = keyof DataDetails;
/** `[]` for a detail without parameters, `[params]` otherwise. */
export type DataDetailArgs<C extends DataDetailCode> = Parameters<DataDetails[C]['en']>;

type Located<T> = {
  [K in keyof T]: T[K] extends { en: (...args: infer A) => string } ? { en: (p: (A extends [infer P] ? P : unknown) & DataWhere) => string; zh: (p: (A extends [infer P] ? P : unknown) & DataWhere) => string } : never;
};

/** The detail alone, in `language` (what DataError.detail holds, in English). */
export function renderDataDetail(code: DataDetailCode, params: object, language: 'en' | 'zh'): string {
  // Escaped as renderNotice escapes a whole notice (see there).
  return escapeInvisible((dataDetails[code][language] as (p: object) => string)(params), { keepLineBreaks: true });
}

function located(details: DataDetails): Located<DataDetails> {
  const out: Record<string, unknown> = {};
  for (const [code, text] of Object.entries(details)) {
    const t = text as { en: (p: object) => string; zh: (p: object) => string };
    out[code] = {
      en: (p: DataWhere) => (whereEn(p) ? `${whereEn(p)}: ${t.en(p)}` : t.en(p)),
      zh: (p: DataWhere) => (whereZh(p) ? `${whereZh(p)}：${t.zh(p)}` : t.zh(p)),
    };
  }
  return out as Located<DataDetails>;
}

const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;
const count = (n: number, language: 'en' | 'zh') => n.toLocaleString(language === 'en' ? 'en' : 'zh-CN');
/** How far a download got, in MB ("12.3 MB of 45.6 MB"); in bytes below 0.1 MB or where both would print the same MB, so a
 *  download one byte short still reads as short. */
const progress = (loaded: number, total: number | null, language: 'en' | 'zh') => {
  const unit = language === 'en' ? 'bytes' : '字节';
  const of = language === 'en' ? ' of ' : ' / ';
  const inBytes = loaded < 1e5 || (total !== null && mb(loaded) === mb(total));
  if (inBytes) return `${count(loaded, language)}${total !== null ? `${of}${count(total, language)}` : ''} ${unit}`;
  return `${mb(loaded)}${total !== null ? `${of}${mb(total)}` : ''}`;
};
const day = (iso: string, language: 'en' | 'zh') => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : new Intl.DateTimeFormat(language === 'en' ? 'en' : 'zh-CN', { dateStyle: 'medium' }).format(date);
};

/** One problem of DatasetValidationError, as store/errors.ts encodes it (JSON, to stay a plain parameter). */
type ValidationProblem = ['foreign', string, string, number, string] | ['duplicate', string, string, number, string, number];
const validationEn = (dataset: string, raw: string): string => {
  const p = JSON.parse(raw) as ValidationProblem;
  return p[0] === 'foreign'
    ? `item ${p[1]} (${p[2]}, line ${p[3]}) belongs to dataset ${p[4]}, not ${dataset}`
    : `item id ${p[1]} appears twice (${p[2]} line ${p[3]} and ${p[4]} line ${p[5]})`;
};
const validationZh = (dataset: string, raw: string): string => {
  const p = JSON.parse(raw) as ValidationProblem;
  return p[0] === 'foreign'
    ? `题目 ${p[1]}（${p[2]}，第 ${p[3]} 行）属于数据集 ${p[4]}，不属于 ${dataset}`
    : `题目 ID ${p[1]} 出现了两次（${p[2]} 第 ${p[3]} 行和 ${p[4]} 第 ${p[5]} 行）`;
};

interface StoreFullParams {
  dataset: string;
  title: string;
  needed: number;
  /** Stored datasets to suggest deleting, biggest first: ids, titles and approximate sizes, index by index. */
  ids: readonly string[];
  titles: readonly string[];
  sizes: readonly number[];
}

interface SaveFailedParams {
  dataset: string;
  /** The item whose write failed, or null when it cannot be told. */
  item: string | null;
  itemFile: string | null;
  itemLine: number | null;
  /** The value cannot be stored (DataCloneError). */
  clone: boolean;
  cause: string;
}

export const dataNotices = {
  ...located(dataDetails),
  'data.problems': {
    en: (p: { file: string; count: number; shown: number }) =>
      `${p.file} has ${p.count} problems${p.count > p.shown ? ` (the first ${p.shown} are listed)` : ''}; nothing was stored. Fix them and import the file again.`,
    zh: (p: { file: string; count: number; shown: number }) =>
      `${p.file} 有 ${p.count} 处问题${p.count > p.shown ? `（下面列出前 ${p.shown} 处）` : ''}；没有存储任何内容。请全部改正后再导入。`,
  },
  'data.download-cancelled': {
    en: (p: { url: string }) => `Download of ${p.url} was cancelled.`,
    zh: (p: { url: string }) => `已取消下载 ${p.url}。`,
  },
  'data.unreachable': {
    en: (p: { url: string; reason: string }) => `Could not reach ${p.url} (${p.reason}). Check the connection or set a data mirror.`,
    zh: (p: { url: string; reason: string }) => `无法连接 ${p.url}（${p.reason}）。请检查网络，或设置数据镜像。`,
  },
  'data.http-status': {
    en: (p: { url: string; status: number; statusText: string }) => `${`${p.url} answered ${p.status} ${p.statusText}`.trim()}.`,
    zh: (p: { url: string; status: number; statusText: string }) => `${p.url} 返回了 ${`${p.status} ${p.statusText}`.trim()}。`,
  },
  'data.download-too-large': {
    en: (p: { url: string; bytes: number | null; limit: number }) =>
      p.bytes === null ? `${p.url} is over the ${mb(p.limit)} limit for one file.` : `${p.url} is ${mb(p.bytes)}, over the ${mb(p.limit)} limit for one file.`,
    zh: (p: { url: string; bytes: number | null; limit: number }) =>
      p.bytes === null ? `${p.url} 超过了单个文件 ${mb(p.limit)} 的上限。` : `${p.url} 有 ${mb(p.bytes)}，超过了单个文件 ${mb(p.limit)} 的上限。`,
  },
  'data.download-broke-off': {
    en: (p: { url: string; loaded: number; total: number | null; reason: string }) =>
      `The download of ${p.url} broke off after ${progress(p.loaded, p.total, 'en')} (${p.reason}).`,
    zh: (p: { url: string; loaded: number; total: number | null; reason: string }) =>
      `${p.url} 下载到 ${progress(p.loaded, p.total, 'zh')} 时中断了（${p.reason}）。`,
  },
  'data.download-ended-early': {
    en: (p: { url: string; loaded: number; total: number }) => `The download of ${p.url} ended after ${progress(p.loaded, p.total, 'en')}.`,
    zh: (p: { url: string; loaded: number; total: number }) => `${p.url} 只下载了 ${progress(p.loaded, p.total, 'zh')} 就结束了。`,
  },
  'data.hash-mismatch': {
    en: (p: { file: string; expected: string; actual: string }) =>
      `${p.file} is not the pinned file: its sha256 is ${p.actual}, expected ${p.expected}. Nothing was stored; check the mirror or try again.`,
    zh: (p: { file: string; expected: string; actual: string }) =>
      `${p.file} 不是固定版本的文件：它的 sha256 是 ${p.actual}，应为 ${p.expected}。没有存储任何内容；请检查镜像或重试。`,
  },
  'data.no-public-files': {
    en: (p: { title: string }) => `${p.title} has no public files: import your own file instead.`,
    zh: (p: { title: string }) => `${p.title} 没有公开的文件：请改为导入你自己的文件。`,
  },
  'data.unknown-dataset': {
    en: (p: { id: string }) => `unknown dataset id "${p.id}"`,
    zh: (p: { id: string }) => `未知的数据集 ID“${p.id}”`,
  },
  'data.no-repository': {
    en: (p: { id: string }) => `dataset "${p.id}" has no public repository to download from`,
    zh: (p: { id: string }) => `数据集“${p.id}”没有可供下载的公开仓库`,
  },
  'data.import-worker-failed': {
    en: (p: { detail: string }) => `The import stopped in its background worker (${p.detail}); nothing was stored. Reload the page and try again.`,
    zh: (p: { detail: string }) => `导入在后台线程中停止了（${p.detail}）；没有存储任何内容。请刷新页面后重试。`,
  },
  'store.dataset-not-stored': {
    en: (p: { dataset: string }) => `Dataset ${p.dataset} is not stored in this browser. Download or import it first.`,
    zh: (p: { dataset: string }) => `这个浏览器里没有存储数据集 ${p.dataset}。请先下载或导入。`,
  },
  'store.dataset-invalid': {
    en: (p: { dataset: string; problems: readonly string[] }) =>
      `Dataset ${p.dataset} was not saved: ${p.problems.slice(0, 5).map((raw) => validationEn(p.dataset, raw)).join('; ')}${p.problems.length > 5 ? `; and ${p.problems.length - 5} more` : ''}. Nothing was written.`,
    zh: (p: { dataset: string; problems: readonly string[] }) =>
      `数据集 ${p.dataset} 没有保存：${p.problems.slice(0, 5).map((raw) => validationZh(p.dataset, raw)).join('；')}${p.problems.length > 5 ? `；另有 ${p.problems.length - 5} 处` : ''}。没有写入任何内容。`,
  },
  'store.save-failed': {
    en: (p: SaveFailedParams) =>
      `Dataset ${p.dataset} was not saved: ${p.item !== null ? `item ${p.item} (${p.itemFile}, line ${p.itemLine}) could not be stored` : 'the write was aborted'}` +
      `${p.clone ? ' (it holds a value that cannot be stored, such as a function)' : ''}: ${p.cause}. The stored data is unchanged.`,
    zh: (p: SaveFailedParams) =>
      `数据集 ${p.dataset} 没有保存：${p.item !== null ? `题目 ${p.item}（${p.itemFile}，第 ${p.itemLine} 行）无法存储` : '写入被中止了'}` +
      `${p.clone ? '（其中有无法存储的值，例如函数）' : ''}：${p.cause}。已存储的数据没有改变。`,
  },
  'store.full': {
    en: (p: StoreFullParams) =>
      `Not enough browser storage to save ${p.title} (${p.dataset}): it needs about ${formatBytes(p.needed)} (approximate: its JSON size as UTF-16). ` +
      (p.ids.length
        ? `Delete a stored dataset to make room: ${p.ids.map((id, i) => `${p.titles[i]} (${id}, about ${formatBytes(p.sizes[i])}${id === p.dataset ? ', an older import of this one' : ''})`).join(', ')}.`
        : 'No datasets are stored to delete: free space in the browser (other sites’ data) or use a profile with more room.') +
      ' Nothing was saved; the stored data is unchanged.',
    zh: (p: StoreFullParams) =>
      `浏览器存储空间不足，无法保存 ${p.title}（${p.dataset}）：大约需要 ${formatBytes(p.needed)}（估计值：按 UTF-16 计的 JSON 大小）。` +
      (p.ids.length
        ? `请删除一个已存储的数据集来腾出空间：${p.ids.map((id, i) => `${p.titles[i]}（${id}，约 ${formatBytes(p.sizes[i])}${id === p.dataset ? '，是它以前的一次导入' : ''}）`).join('、')}。`
        : '没有可删除的数据集：请在浏览器中清理空间（其他网站的数据），或换一个空间更大的配置文件。') +
      '没有保存任何内容；已存储的数据没有改变。',
  },
  'store.dataset-replaced': {
    en: (p: { title: string; by: string; on: string }) =>
      `This run's questions are no longer stored: its ${p.title} data was replaced by ${p.by} on ${day(p.on, 'en')}. Import the file the run used again to see them.`,
    zh: (p: { title: string; by: string; on: string }) =>
      `这次评测的题目已不在本浏览器中：它用的 ${p.title} 数据已于 ${day(p.on, 'zh')} 被 ${p.by} 替换。请重新导入评测当时用的文件后再查看。`,
  },
  'store.items-not-stored': {
    en: (p: { title: string; missing: number; total: number }) => `${count(p.missing, 'en')} of this run's ${count(p.total, 'en')} items are not in the stored ${p.title}.`,
    zh: (p: { title: string; missing: number; total: number }) => `这次评测的 ${count(p.total, 'zh')} 道题中，有 ${count(p.missing, 'zh')} 道不在已存储的 ${p.title} 里。`,
  },
};
