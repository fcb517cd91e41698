// The per-sample reading of lm-eval-harness output: one line of a samples_*.jsonl (or one entry of a
// dumped dict's `samples`) checked and read into a Sample, in either dialect the harness writes
// (numbers and booleans in memory; strings and {gen_args_0: ...} in its samples files). It is apart
// from import-lm-eval.ts, which assembles the run from the samples read here, because the checks on one
// sample (its responses, letters, target and acc) are a subject of their own and are shared by every
// reader of harness files (lm-eval-files.ts too).
import type { OptionLetter } from '../../../benchmarks/types.ts';
import { OPTION_LETTERS } from '../../../protocols/multiple-choice.ts';
import { utf8Length } from '../../../protocols/encode-pair.ts';
import { FieldProblem, RUN_IMPORT_LIMITS, anyObject, fail, failFound, finite, lowestLogLikelihood, parseJson, problem, text, type Obj } from '../../import-validate.ts';
import { readClozeSample, type ClozeSample } from './lm-eval-cloze.ts';

/** One per-sample record, read. */
export interface Sample {
  docId: number;
  /** The samples file it came from, when the caller read several. */
  file?: string;
  /** Where it is (`line 4:` or `samples.x[3]`), for messages. */
  place: string;
  /** The harness's `doc`, as written (checked against the stored item by lm-eval-docs.ts). */
  doc: unknown;
  /** doc_hash, prompt_hash and target_hash as written (strings, or '' where absent): results' task_hashes is made of them. */
  hashes: { doc: string; prompt: string; target: string };
  logLiks: number[];
  /** Null where the doc has no answer (`answer: null`) and the target is "": a predictions-only export (AC-EVAL's test). */
  gold: OptionLetter | null;
  acc: boolean | null;
  prompt: string | null;
  promptHash: string | null;
  /** A cloze task's sample (read with `cloze`): the option texts scored and each one's is_greedy. */
  cloze?: ClozeSample;
}

/** How a task's samples are read: its choices are the letters (`letters`) or the option texts (`cloze`). */
export type SampleForm = 'letters' | 'cloze';

/** `line 4: ` for JSON Lines, `samples.x[3]` for JSON: where a sample's fields are. */
const at = (base: string, field: string): string => (base.endsWith(':') ? `${base} ${field}` : `${base}.${field}`);

/** A number as the harness may write it: a number, or (samples files) its Python repr as a string; in [min, max]. */
function numberLike(value: unknown, path: string, min: number, max: number): number {
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value);
    if (Number.isFinite(n)) return finite(n, path, min, max);
    if (/^-?(inf|nan|infinity)$/i.test(value.trim())) failFound(path, { expected: 'finite', min: null, max: null }, { found: 'other', text: value.trim() });
  }
  return finite(value, path, min, max);
}

function isGreedyFlag(value: unknown): boolean {
  return typeof value === 'boolean' || value === 'True' || value === 'False';
}


/**
 * One choice's response from `filtered_resps[i]` (or `resps[i]`), in any of the shapes the harness
 * writes: its log-likelihood, and is_greedy where it is written (null for a bare number).
 */
function response(value: unknown, path: string): { logLik: number; greedy: boolean | null } {
  let v = value;
  let p = path;
  let greedy: boolean | null = null;
  // resps nests each choice's single response one level deeper: [[loglik, is_greedy]].
  if (Array.isArray(v) && v.length === 1 && Array.isArray(v[0])) {
    v = v[0];
    p = `${p}[0]`;
  }
  if (Array.isArray(v)) {
    if (v.length < 1 || v.length > 2 || Array.isArray(v[0]) || (v.length === 2 && !isGreedyFlag(v[1]))) fail(p, { expected: 'loglik-shape' }, v);
    if (v.length === 2) greedy = v[1] === true || v[1] === 'True';
    v = v[0];
    p = `${p}[0]`;
  } else if (typeof v !== 'number' && typeof v !== 'string') {
    fail(p, { expected: 'loglik-shape' }, v);
  }
  // Unbounded here on purpose: every response is held to its continuation's own bound once the
  // continuation's text is known (lowestLogLikelihood, in readSample and lm-eval-cloze.ts), a refusal
  // that names that bound; nothing reads a response before.
  const n = numberLike(v, p, -Number.MAX_VALUE, Number.MAX_VALUE);
  if (n > 0) fail(p, { expected: 'loglik' }, n);
  return { logLik: n, greedy };
}

/**
 * The target as a letter. `keyless`: the doc says it has no answer (Jiangu's `answer: null`), for
 * which the export's doc_to_target gives "" (no integer can mean "none" to the harness's task
 * constructor): then "" is no gold at all, and the sample is kept unscored.
 */
function goldLetter(value: unknown, path: string, choices: number, keyless: boolean): OptionLetter | null {
  if (keyless && value === '') return null;
  let index: number | null = null;
  if (typeof value === 'number' && Number.isInteger(value)) index = value;
  else if (typeof value === 'string' && /^\s*\d+\s*$/.test(value)) index = Number(value);
  else if (typeof value === 'string' && /^\s*[A-D]\s*$/.test(value)) index = OPTION_LETTERS.indexOf(value.trim() as OptionLetter);
  if (index === null || index < 0 || index >= choices) fail(path, { expected: 'gold-choice', choices, lastLetter: OPTION_LETTERS[choices - 1] }, value);
  return OPTION_LETTERS[index];
}

function accFlag(value: unknown, path: string): boolean | null {
  if (value === undefined) return null;
  if (typeof value === 'boolean') return value;
  // Only 0 and 1 pass the check below; the bound only keeps the refusal's number short.
  const n = numberLike(value, path, -1e9, 1e9);
  if (n !== 0 && n !== 1) fail(path, { expected: 'zero-or-one' }, value);
  return n === 1;
}

/** The prompt (the context of the first request) and the continuations, in the dialects the harness writes. */
function requests(o: Obj): { prompt: string | null; continuations: unknown[] | null; path: (i: number) => string } {
  const args = o.arguments;
  if (Array.isArray(args) && args.every((a) => Array.isArray(a) && typeof a[0] === 'string')) {
    return { prompt: args.length ? (args[0] as string[])[0] : null, continuations: args.map((a) => (a as unknown[])[1]), path: (i) => `arguments[${i}][1]` };
  }
  if (typeof args === 'object' && args !== null && !Array.isArray(args)) {
    const entries = Object.entries(args as Obj).filter(([key]) => /^gen_args_\d+$/.test(key));
    entries.sort(([a], [b]) => Number(a.slice(9)) - Number(b.slice(9)));
    const first = entries[0]?.[1] as Obj | undefined;
    if (first && typeof first.arg_0 === 'string') {
      return { prompt: first.arg_0, continuations: entries.map(([, e]) => (typeof e === 'object' && e !== null ? (e as Obj).arg_1 : undefined)), path: (i) => `arguments.gen_args_${i}.arg_1` };
    }
  }
  if (Array.isArray(o.input) && typeof o.input[0] === 'string') return { prompt: o.input[0], continuations: null, path: () => '' };
  if (typeof o.input === 'string') return { prompt: o.input, continuations: null, path: () => '' };
  return { prompt: null, continuations: null, path: () => '' };
}

function readSample(value: unknown, base: string, form: SampleForm): Sample {
  const o = anyObject(value, base.endsWith(':') ? base.slice(0, -1) : base);
  let docId: number | null = null;
  if (typeof o.doc_id === 'number' && Number.isInteger(o.doc_id)) docId = o.doc_id;
  else if (typeof o.doc_id === 'string' && /^\d+$/.test(o.doc_id)) docId = Number(o.doc_id);
  // No task has RUN_IMPORT_LIMITS.results docs: an index past it names no item.
  if (docId === null || docId < 0 || docId >= RUN_IMPORT_LIMITS.results) fail(at(base, 'doc_id'), { expected: 'doc-index' }, o.doc_id);

  const field = o.filtered_resps !== undefined ? 'filtered_resps' : 'resps';
  const responses = o[field];
  if (!Array.isArray(responses)) fail(at(base, field), { expected: 'responses' }, responses);
  if (responses.length < 2 || responses.length > 4) fail(at(base, field), { expected: 'two-to-four-choices' }, responses);
  const read = responses.map((r, i) => response(r, at(base, `${field}[${i}]`)));
  const logLiks = read.map((r) => r.logLik);

  const { prompt, continuations, path } = requests(o);
  if (continuations) {
    if (continuations.length !== logLiks.length) throw problem('import.request-count', { path: at(base, 'arguments'), requests: continuations.length, responses: logLiks.length, field });
    // A cloze task's continuations are its option texts, checked against the doc by readClozeSample.
    if (form === 'letters') {
      continuations.forEach((c, i) => {
        if (typeof c !== 'string' || c.trim() !== OPTION_LETTERS[i]) fail(at(base, path(i)), { expected: 'choice-letter', choice: ` ${OPTION_LETTERS[i]}` }, c);
      });
    }
  }
  if (prompt !== null) text(prompt, at(base, 'arguments (prompt)'));
  // A letter's continuation (" A") is a token or two: its log-likelihood is at least a few tokens'
  // lowest (RAW_BOUNDS.tokenLogProb). A cloze option's bound is its text's (lm-eval-cloze.ts).
  if (form === 'letters') {
    logLiks.forEach((ll, i) => {
      const continuation = continuations?.[i];
      finite(ll, at(base, `${field}[${i}]`), lowestLogLikelihood(typeof continuation === 'string' ? utf8Length(continuation) : 2), 0);
    });
  }
  const promptHash = typeof o.prompt_hash === 'string' && /^[0-9a-f]{64}$/.test(o.prompt_hash) ? o.prompt_hash : null;
  const hashText = (v: unknown): string => (typeof v === 'string' ? v : '');
  const gold = goldLetter(o.target, at(base, 'target'), logLiks.length, typeof o.doc === 'object' && o.doc !== null && (o.doc as Obj).answer === null);
  const acc = accFlag(o.acc, at(base, 'acc'));
  // A letter task's acc_norm and acc_bytes are not compared (its choices are letters): still only 0 or 1.
  const accNorm = accFlag(o.acc_norm, at(base, 'acc_norm'));
  const accBytes = accFlag(o.acc_bytes, at(base, 'acc_bytes'));
  const cloze =
    form === 'cloze'
      ? readClozeSample({
          base,
          doc: o.doc,
          docId,
          logLiks,
          greedy: read.map((r) => r.greedy),
          responses,
          responsePath: (i) => at(base, `${field}[${i}]`),
          gold,
          continuations,
          continuationPath: (i) => at(base, path(i)),
          stated: { acc, acc_norm: accNorm, acc_bytes: accBytes },
        })
      : undefined;
  return {
    docId,
    place: base.replace(/:$/, ''),
    doc: o.doc,
    hashes: { doc: hashText(o.doc_hash), prompt: hashText(o.prompt_hash), target: hashText(o.target_hash) },
    logLiks,
    gold,
    acc,
    prompt,
    promptHash,
    ...(cloze ? { cloze } : {}),
  };
}

/** `form`: how the task asks its choices (a cloze task Jiangu exported: `cloze`). */
export function readTaskSamples(list: readonly unknown[], pathOf: (i: number) => string, form: SampleForm = 'letters'): Sample[] {
  const seen = new Map<number, number>();
  return list.map((value, i) => {
    const sample = readSample(value, pathOf(i), form);
    const first = seen.get(sample.docId);
    if (first !== undefined) throw problem('import.doc-twice', { path: at(pathOf(i), 'doc_id'), docId: sample.docId, first: pathOf(first).replace(/:$/, '') });
    seen.set(sample.docId, i);
    return sample;
  });
}

/**
 * The samples of one samples_*.jsonl. The harness ends every line with a newline, so a last line
 * that does not parse and has none is a file cut short (a copy or download that stopped), said as such.
 */
export function readSamplesLines(source: string, form: SampleForm = 'letters'): Sample[] {
  const lines = source.split('\n');
  const records: { value: unknown; line: number }[] = [];
  for (const [i, raw] of lines.entries()) {
    const line = raw.trim();
    if (line === '') continue;
    if (records.length >= RUN_IMPORT_LIMITS.results) throw problem('import.too-many-lines', { max: RUN_IMPORT_LIMITS.results });
    try {
      records.push({ value: parseJson(line), line: i + 1 });
    } catch (error) {
      if (error instanceof FieldProblem) {
        if (i === lines.length - 1 && !source.endsWith('\n')) throw problem('import.lm-eval-truncated-line', { path: `line ${i + 1}`, samples: records.length });
        throw new FieldProblem({ ...error.refusal, params: { ...error.refusal.params, path: `line ${i + 1}` } });
      }
      throw error;
    }
  }
  return readTaskSamples(
    records.map((r) => r.value),
    (i) => `line ${records[i].line}:`,
    form,
  );
}
