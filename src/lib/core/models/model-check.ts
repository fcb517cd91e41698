// The model check: what Jiangu found in a loaded model and what a 5-shot CMMLU prompt will cost on
// it, as one plain value (stored in the run record, shown by src/ui/models/ModelCheck.svelte). Pure:
// the worker (workers/model-check.ts) gathers the facts, this decides what they mean.
import type { Backend, Dtype } from './model-types.ts';
import type { OnnxScan, OnnxValue } from './onnx-scan.ts';
import type { LetterInContext } from '../protocols/letter-tokens.ts';
import { notice, type Notice } from '../notices/index.ts';

/** The cue CMMLU's and ACLUE's prompts end with; the letters are tokenized right after it. */
export const ANSWER_CUE = '答案是：';

/**
 * Characters in a typical 5-shot CMMLU 古汉语 prompt. Measured once (2026-12-01) from
 * ../shared/data/cmmlu-ancient_chinese with the project's own builder: buildMcPrompt(getProtocol
 * ('cmmlu'), item, the 5 dev items, 5) for each of the 164 test items, length in code points; min
 * 417, median 446, max 640. The benchmark's text cannot ship with the site, so the check tokenizes
 * this many characters of 《论语·学而》 (public domain) instead: classical Chinese of the same kind.
 * Even where a user has CMMLU stored the sample is used: the check runs in the worker at load, away
 * from the page's store, and one fixed text makes every browser's check of a model the same, so
 * two run records' checks can be compared.
 */
export const CMMLU_5SHOT_MEDIAN_CHARS = 446;

/** 《论语·学而》, the opening chapters (public domain), as the stand-in for a CMMLU prompt's text. */
const LUNYU_XUE_ER =
  '子曰：「學而時習之，不亦說乎？有朋自遠方來，不亦樂乎？人不知而不慍，不亦君子乎？」' +
  '有子曰：「其為人也孝弟，而好犯上者，鮮矣；不好犯上，而好作亂者，未之有也。君子務本，本立而道生。孝弟也者，其為仁之本與！」' +
  '子曰：「巧言令色，鮮矣仁！」' +
  '曾子曰：「吾日三省吾身：為人謀而不忠乎？與朋友交而不信乎？傳不習乎？」' +
  '子曰：「道千乘之國：敬事而信，節用而愛人，使民以時。」' +
  '子曰：「弟子入則孝，出則弟，謹而信，汎愛眾，而親仁。行有餘力，則以學文。」' +
  '子夏曰：「賢賢易色；事父母，能竭其力；事君，能致其身；與朋友交，言而有信。雖曰未學，吾必謂之學矣。」' +
  '子曰：「君子不重則不威，學則不固。主忠信，無友不如己者，過則勿憚改。」' +
  '曾子曰：「慎終追遠，民德歸厚矣。」' +
  '子禽問於子貢曰：「夫子至於是邦也，必聞其政，求之與？抑與之與？」子貢曰：「夫子溫、良、恭、儉、讓以得之。夫子之求之也，其諸異乎人之求之與？」' +
  '子曰：「父在，觀其志；父沒，觀其行；三年無改於父之道，可謂孝矣。」';

/** A prompt of `chars` code points: 《论语》 text (repeated if need be), a newline and the answer cue. */
export function sampleCmmluPrompt(chars = CMMLU_5SHOT_MEDIAN_CHARS): string {
  const tail = `\n${ANSWER_CUE}`;
  const body = [...LUNYU_XUE_ER];
  const want = Math.max(0, chars - [...tail].length);
  const out: string[] = [];
  while (out.length < want) out.push(...body.slice(0, want - out.length));
  return out.join('') + tail;
}

export type AttentionKind = 'GroupQueryAttention' | 'MultiHeadAttention' | 'MatMul' | 'unknown';
export type ThinkingFinding = 'off' | 'none' | 'not-off';

/**
 * Which graph gave the logits rows (the worker decides at load, workers/model.worker.ts): `native`,
 * the author's graph declares num_logits_to_keep; `rewritten`, Jiangu rewrote it at load to keep the
 * last row and checked it on a short prompt (`check`: its tokens and the largest log-prob difference
 * between every row and one row); `chunked`, the author's graph as it is, prompts prefilled in chunks,
 * `refusal` saying why (unrecognised head, the check or the session failed, or turned off).
 */
export interface LogitsPath {
  kind: 'native' | 'rewritten' | 'chunked';
  refusal?: Notice;
  check?: { tokens: number; maxAbsDiff: number };
}

/**
 * Where per-position statistics come from (a loaded model asked for them: cloze and memorization
 * runs): `graph`, Jiangu's statistics outputs (stats-rewrite.ts), checked at load against the same
 * pass's whole rows; `worker`, whole logits rows read out and computed in the worker (`refusal` says
 * why). The numbers agree within the check's tolerance either way.
 */
export interface StatisticsPath {
  kind: 'graph' | 'worker';
  refusal?: Notice;
  check?: { tokens: number; maxAbsDiff: number };
}

/**
 * Whether a load asked for the logit lens (lens-rewrite.ts) can show it: `graph`, the lens outputs
 * added and their last layer checked against the model's own logits at load; `unavailable`, why not
 * (`refusal`). The lens sits behind a gate (lens-rewrite.ts), so the session serves every other view as before.
 */
export interface LensPath {
  kind: 'graph' | 'unavailable';
  layers?: number;
  refusal?: Notice;
  check?: { tokens: number; maxProbDiff: number; idMismatches: number };
}

export interface LetterFinding extends LetterInContext {
  letter: string;
}

/** What the worker found out with the loaded tokenizer and files (the rest is in the scan and config). */
export interface ModelCheckFacts {
  /** The ONNX file read, e.g. `onnx/model_q4.onnx`. */
  onnxFile: string;
  scan: OnnxScan | null;
  /** Why the file could not be scanned (English detail), when `scan` is null. */
  scanProblem?: string;
  config: Readonly<Record<string, unknown>>;
  dtype: Dtype;
  backend: Backend;
  /** The WebGPU adapter's shader-f16; null on WASM. */
  shaderF16: boolean | null;
  /** The session's input names (a fallback when the file could not be scanned). */
  inputNames: readonly string[];
  /** External data files as the loader was told of them (config.json or found beside the model). */
  externalData: { files: string[]; how: 'config' | 'detected' } | null;
  /** The worker's rows per prefill pass; null when the graph keeps only the last row. */
  prefillRows: number | null;
  /** Which graph gives the rows; absent from workers before the rewrite (read from the inputs then). */
  logitsPath?: LogitsPath;
  /** Set when the load asked for per-position statistics (cloze and memorization runs). */
  statisticsPath?: StatisticsPath;
  /** The model's positions from config.json; null when it states none. */
  positions: number | null;
  letters: LetterFinding[];
  /** The stand-in prompt and its length in this tokenizer (special tokens included). */
  prompt: { chars: number; tokens: number };
  /** The chat template around a user turn, or null when the tokenizer has none. */
  chatTemplate: { opening: string; closing: string; thinking: ThinkingFinding } | null;
}

export interface ModelCheckGraph {
  producer: string;
  opsets: { domain: string; version: number }[];
  inputs: OnnxValue[];
  outputs: OnnxValue[];
  ops: { domain: string; opType: string; count: number }[];
  nodes: number;
}

export interface ModelCheckMemory {
  /** Tokens of the typical 5-shot prompt in this tokenizer. */
  tokens: number;
  /** The ONNX file and its external data; null when the file could not be read. */
  weightsBytes: number | null;
  /** 2 × layers × kvHeads × headDim × tokens × kvBytes; null when the config lacks a number. */
  kvCacheBytes: number | null;
  layers: number | null;
  kvHeads: number | null;
  headDim: number | null;
  kvBytesPerValue: number;
  /** Rows of logits one forward pass returns: 1 when the graph keeps the last row, else the prefill chunk. */
  rowsPerPass: number;
  passes: number;
  vocab: number | null;
  /** Bytes of one logit as the graph returns it (2 for float16; only the last row is then converted to float32). */
  logitsBytesPerValue: number;
  /** rowsPerPass × vocab × logitsBytesPerValue: the largest tensor one forward pass returns. */
  logitsBlockBytes: number | null;
}

/** The model check as shown and stored. Plain JSON: it crosses postMessage and lives in IndexedDB. */
export interface ModelCheck {
  version: 1;
  onnxFile: string;
  dtype: Dtype;
  backend: Backend;
  /** null when the ONNX file could not be read (see the `check.no-scan` warning). */
  graph: ModelCheckGraph | null;
  inputNames: string[];
  keepsLastRow: boolean;
  /** Which graph gives the logits rows (absent in checks stored before the load-time rewrite). */
  logitsPath?: LogitsPath;
  /** Where per-position statistics came from, when the load asked for them. */
  statisticsPath?: StatisticsPath;
  attention: AttentionKind;
  kvDtype: string | null;
  logitsDtype: string | null;
  /** Files holding the weights beside the ONNX file, with their bytes when the scan saw them. */
  externalData: { file: string; bytes: number | null }[];
  externalHow: 'config' | 'detected' | null;
  answerCue: string;
  letters: LetterFinding[];
  prompt: { chars: number; tokens: number; source: 'lunyu-sample' };
  positions: number | null;
  chatTemplate: { opening: string; closing: string; thinking: ThinkingFinding } | null;
  memory: ModelCheckMemory;
  warnings: Notice[];
}

const positiveInt = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : null);

function attentionOf(scan: OnnxScan | null): AttentionKind {
  if (!scan) return 'unknown';
  const has = (op: string) => scan.ops.some((o) => o.opType === op);
  if (has('GroupQueryAttention')) return 'GroupQueryAttention';
  if (has('MultiHeadAttention') || has('Attention')) return 'MultiHeadAttention';
  return has('MatMul') && has('Softmax') ? 'MatMul' : 'unknown';
}

/** Bytes per value of a KV cache or logits element type. */
function bytesOf(elemType: string | null): number {
  if (elemType === 'float16' || elemType === 'bfloat16') return 2;
  if (elemType === 'float64') return 8;
  return 4;
}

function memoryOf(facts: ModelCheckFacts, keepsLastRow: boolean, pastKey: OnnxValue | undefined, logits: OnnxValue | undefined, kvDtype: string | null): ModelCheckMemory {
  const c = facts.config;
  const scan = facts.scan;
  const tokens = facts.prompt.tokens;
  // The graph's own shapes come first: they are what runs; config.json is the fallback.
  const pastLayers = scan ? scan.inputs.filter((i) => /^past_key_values\.\d+\.key$/.test(i.name)).length : 0;
  const layers = pastLayers > 0 ? pastLayers : (positiveInt(c.num_hidden_layers) ?? positiveInt(c.n_layer) ?? positiveInt(c.num_layers));
  const heads = positiveInt(c.num_attention_heads) ?? positiveInt(c.n_head);
  const graphKvHeads = pastKey && typeof pastKey.dims[1] === 'number' ? pastKey.dims[1] : null;
  const graphHeadDim = pastKey && typeof pastKey.dims[3] === 'number' ? pastKey.dims[3] : null;
  const kvHeads = graphKvHeads ?? positiveInt(c.num_key_value_heads) ?? heads;
  const hidden = positiveInt(c.hidden_size) ?? positiveInt(c.n_embd);
  const headDim = graphHeadDim ?? positiveInt(c.head_dim) ?? (hidden !== null && heads !== null ? hidden / heads : null);
  const kvBytesPerValue = bytesOf(kvDtype);
  const kvCacheBytes = layers !== null && kvHeads !== null && headDim !== null ? 2 * layers * kvHeads * headDim * tokens * kvBytesPerValue : null;
  const lastDim = logits?.dims[logits.dims.length - 1];
  const vocab = typeof lastDim === 'number' ? lastDim : positiveInt(c.vocab_size);
  // A prompt shorter than a chunk is one pass of that many rows.
  const rowsPerPass = keepsLastRow ? 1 : Math.max(1, Math.min(facts.prefillRows ?? tokens, tokens));
  const passes = keepsLastRow ? 1 : Math.ceil(tokens / rowsPerPass);
  const externalBytes = scan ? scan.externalData.reduce((sum, e) => sum + e.bytes, 0) : 0;
  return {
    tokens,
    weightsBytes: scan ? scan.fileBytes + externalBytes : null,
    kvCacheBytes,
    layers,
    kvHeads,
    headDim,
    kvBytesPerValue,
    rowsPerPass,
    passes,
    vocab,
    logitsBytesPerValue: bytesOf(logits?.elemType ?? null),
    logitsBlockBytes: vocab !== null ? rowsPerPass * vocab * bytesOf(logits?.elemType ?? null) : null,
  };
}

function letterWarnings(letters: readonly LetterFinding[]): Notice[] {
  const warnings: Notice[] = [];
  for (const l of letters) {
    if (l.mergesWithPrompt) warnings.push(notice('check.letter-merges', { letter: l.letter, cue: ANSWER_CUE }));
    else if (l.tokenCount !== 1) warnings.push(notice('check.letter-not-one-token', { letter: l.letter, ids: l.idsInContext.join(', '), cue: ANSWER_CUE }));
  }
  const byId = new Map<number, string[]>();
  for (const l of letters) if (l.tokenId !== null) byId.set(l.tokenId, [...(byId.get(l.tokenId) ?? []), l.letter]);
  for (const [tokenId, same] of byId) if (same.length > 1) warnings.push(notice('check.letters-share-token', { letters: same, tokenId }));
  return warnings;
}

/** What the facts mean: the graph's shape, the memory a 5-shot prompt needs, and what to warn about. */
export function buildModelCheck(facts: ModelCheckFacts): ModelCheck {
  const scan = facts.scan;
  const inputNames = scan ? scan.inputs.map((i) => i.name) : [...facts.inputNames];
  // The scan reads the author's file: a graph rewritten at load keeps the last row all the same.
  const keepsLastRow = facts.logitsPath ? facts.logitsPath.kind !== 'chunked' : inputNames.includes('num_logits_to_keep');
  const pastKey = scan?.inputs.find((i) => /^past_key_values\.\d+\.key$/.test(i.name));
  const logits = scan?.outputs.find((o) => o.name === 'logits');
  const kvDtype = pastKey?.elemType ?? null;
  const logitsDtype = logits?.elemType ?? null;
  const memory = memoryOf(facts, keepsLastRow, pastKey, logits, kvDtype);

  const scanned = new Map((scan?.externalData ?? []).map((e) => [`onnx/${e.location}`, e.bytes]));
  const externalFiles = [...new Set([...scanned.keys(), ...(facts.externalData?.files ?? [])])].sort();

  const warnings: Notice[] = [];
  if (!scan) warnings.push(notice('check.no-scan', { file: facts.onnxFile, reason: facts.scanProblem ?? 'unknown' }));
  if (!keepsLastRow && memory.logitsBlockBytes !== null) {
    // The chunk is the worker's limit; a prompt shorter than it is one pass of its own rows.
    warnings.push(notice('check.chunked-prefill', { rows: facts.prefillRows ?? memory.rowsPerPass, passes: memory.passes, tokens: memory.tokens, blockBytes: memory.logitsBlockBytes }));
  }
  // Why the graph was not rewritten, in the model's own words (catalog-model.ts).
  if (facts.logitsPath?.kind === 'chunked' && facts.logitsPath.refusal) warnings.push(facts.logitsPath.refusal);
  if (facts.statisticsPath?.kind === 'worker' && facts.statisticsPath.refusal) warnings.push(facts.statisticsPath.refusal);
  warnings.push(...letterWarnings(facts.letters));
  if (facts.chatTemplate?.thinking === 'not-off') warnings.push(notice('check.thinking-not-off'));
  const float16 = facts.dtype === 'fp16' || facts.dtype === 'q4f16' || kvDtype === 'float16' || logitsDtype === 'float16';
  if (float16 && facts.backend === 'webgpu' && facts.shaderF16 === false) warnings.push(notice('check.no-shader-f16', { dtype: facts.dtype }));
  if (facts.positions !== null && memory.tokens > facts.positions) {
    warnings.push(notice('check.over-positions', { tokens: memory.tokens, positions: facts.positions, chars: facts.prompt.chars }));
  }
  const tokensPerChar = facts.prompt.chars > 0 ? facts.prompt.tokens / facts.prompt.chars : 0;
  // Two tokens a character is past what any tokenizer with CJK in its vocabulary spends.
  if (tokensPerChar >= 2) warnings.push(notice('check.many-tokens-per-char', { tokensPerChar: Math.round(tokensPerChar * 10) / 10 }));

  return {
    version: 1,
    onnxFile: facts.onnxFile,
    dtype: facts.dtype,
    backend: facts.backend,
    graph: scan
      ? { producer: [scan.producer, scan.producerVersion].filter(Boolean).join(' '), opsets: scan.opsets, inputs: scan.inputs, outputs: scan.outputs, ops: scan.ops, nodes: scan.ops.reduce((n, o) => n + o.count, 0) }
      : null,
    inputNames,
    keepsLastRow,
    ...(facts.logitsPath ? { logitsPath: facts.logitsPath } : {}),
    ...(facts.statisticsPath ? { statisticsPath: facts.statisticsPath } : {}),
    attention: attentionOf(scan),
    kvDtype,
    logitsDtype,
    externalData: externalFiles.map((file) => ({ file, bytes: scanned.get(file) ?? null })),
    externalHow: facts.externalData?.how ?? null,
    answerCue: ANSWER_CUE,
    letters: facts.letters,
    prompt: { ...facts.prompt, source: 'lunyu-sample' },
    positions: facts.positions,
    chatTemplate: facts.chatTemplate,
    memory,
    warnings,
  };
}

// A stored check read back (its shape and the bounds of its numbers): model-check-read.ts.
