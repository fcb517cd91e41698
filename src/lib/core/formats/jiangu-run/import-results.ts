// The results of a run file this site exported (format "jiangu-run"): each item's result checked
// against the run it belongs to (its id, task and position, the letters, the prediction against the
// log-probabilities, `probs` against their softmax, `correct` against prediction and gold, a circular
// run's rotations) and rebuilt from the known fields. It is apart from import-jiangu.ts, which reads
// the run's configuration and record and joins the two, because a result's checks are the larger part
// of the format and are about scores, not about how the run was set up.
import { getDataset } from '../../benchmarks/catalog.ts';
import type { DatasetId, GenerationTask, OptionLetter } from '../../benchmarks/types.ts';
import { argmax } from '../../logprobs.ts';
import { derivedProbs } from './derived-scores.ts';
import { OPTION_LOG_PROB_MIN, clozeOf } from './import-cloze.ts';
import { rotatedLetter } from '../../protocols/rotation.ts';
import type { Notice } from '../../notices/index.ts';
import { RAW_BOUNDS, RUN_IMPORT_LIMITS, bool, fail, finite, id, int, isoDate, list, name, oneOf, problem, sha256, storedWarning, text, type FieldReader, type Obj } from '../import-validate.ts';
import type { GenItemResult, McItemResult, McRotationResult, McRunConfig } from '../../record/run.ts';

const { results: MAX_RESULTS, listEntries: MAX_LIST, shortChars: SHORT } = RUN_IMPORT_LIMITS;
const { tokens: MAX_TOKENS, tokenId: MAX_TOKEN_ID, ms: MAX_MS, tokenLogProb: TOKEN_LOG_PROB_MIN } = RAW_BOUNDS;
/** A letter's log-probability is one token's (RAW_BOUNDS.tokenLogProb); a cloze option's sums its tokens', refined per option in clozeOf. */
const LETTER_LOG_PROB_MIN = TOKEN_LOG_PROB_MIN;

// Records (not arrays) so that adding a member to a union fails to compile until it is listed here.
const GENERATION_TASKS: Record<GenerationTask, true> = { classification: true, retrieval: true, ner: true, punctuation: true, translation: true };
const STOPPED_BY: Record<GenItemResult['stoppedBy'], true> = { eos: true, 'max-tokens': true, cancelled: true };
const LETTERS: Record<OptionLetter, true> = { A: true, B: true, C: true, D: true };

/** What every result is checked against. */
export interface RunFacts {
  runId: string;
  position: Map<string, number>;
  tasks: Set<string>;
}

function resultBase(r: FieldReader, o: Obj, path: string, facts: RunFacts) {
  const runId = name(o.runId, `${path}.runId`);
  if (runId !== facts.runId) fail(`${path}.runId`, { expected: 'run-id', runId: facts.runId }, runId);
  const itemId = id(o.itemId, `${path}.itemId`);
  const position = facts.position.get(itemId);
  if (position === undefined) throw problem('import.unknown-item', { path: `${path}.itemId`, itemId });
  const task = id(o.task, `${path}.task`);
  if (!facts.tasks.has(task)) {
    const known = [...facts.tasks];
    fail(`${path}.task`, { expected: 'run-task', tasks: known.slice(0, 10), moreTasks: known.length > 10 }, task);
  }
  const index = int(o.index, `${path}.index`, 0, MAX_RESULTS);
  if (index !== position) fail(`${path}.index`, { expected: 'item-position', position, itemId }, index);
  const promptHash = o.promptHash === '' ? '' : sha256(o.promptHash, `${path}.promptHash`);
  return {
    runId,
    itemId,
    task,
    index,
    prompt: text(o.prompt, `${path}.prompt`),
    promptHash,
    tokenCount: int(o.tokenCount, `${path}.tokenCount`, 0, MAX_TOKENS),
  };
}

/** A stored notice: why an item could not run, why Auto chose WASM (records of versions that store them). */
export function storedNotice(value: unknown, path: string): Notice {
  const read = storedWarning(value, path, SHORT * 20);
  if (typeof read === 'string') fail(path, { expected: 'warning' }, value);
  return read;
}

const MC_RESULT_KEYS = ['runId', 'itemId', 'task', 'index', 'prompt', 'promptHash', 'tokenCount', 'shotsUsed', 'exemplarIds', 'letters', 'tokenIds', 'logProbs', 'probs', 'prediction', 'gold', 'correct', 'reusedPrefixTokens', 'forwardMs', 'completedAt'];

function letterOrNull(value: unknown, path: string, letters: readonly OptionLetter[]): OptionLetter | null {
  if (value === null) return null;
  if (typeof value !== 'string' || !(letters as readonly string[]).includes(value)) fail(path, { expected: 'letter-or-null', letters }, value);
  return value as OptionLetter;
}

export function mcResult(r: FieldReader, value: unknown, path: string, facts: RunFacts, config: McRunConfig): McItemResult {
  const o = r.object(value, path, MC_RESULT_KEYS, ['generated', 'failure', 'rotations', 'cloze']);
  const base = resultBase(r, o, path, facts);
  // An item that could not run has no scores and no prediction, only its reason.
  const failed = o.failure === undefined ? null : storedNotice(o.failure, `${path}.failure`);
  const seen = new Set<string>();
  const letters = list(o.letters, `${path}.letters`, 4, (v, p) => {
    const letter = oneOf(v, p, LETTERS);
    if (seen.has(letter)) throw problem('import.letter-twice', { path: p, letter });
    seen.add(letter);
    return letter;
  });
  if (letters.length < 2) fail(`${path}.letters`, { expected: 'option-letters' }, o.letters);
  const extract = config.scoring === 'generate-extract';
  const sized = <T>(v: unknown, p: string, item: (v: unknown, p: string) => T, mayBeEmpty: boolean): T[] => {
    const values = list(v, p, 4, item);
    if (values.length !== letters.length && !(mayBeEmpty && values.length === 0)) {
      fail(p, { expected: 'per-letter', count: letters.length, orNone: mayBeEmpty }, v);
    }
    return values;
  };
  const tokenIds = sized(o.tokenIds, `${path}.tokenIds`, (v, p) => int(v, p, 0, MAX_TOKEN_ID), true);
  const logProbMin = config.scoring === 'cloze' ? OPTION_LOG_PROB_MIN : LETTER_LOG_PROB_MIN;
  const logProbs = sized(o.logProbs, `${path}.logProbs`, (v, p) => finite(v, p, logProbMin, 0), extract || failed !== null);
  // Derived: the softmax of logProbs over the letters (derived-scores.ts), compared, and stored as recomputed.
  const probs = derivedProbs(sized(o.probs, `${path}.probs`, (v, p) => finite(v, p, 0, 1), extract || failed !== null), logProbs, `${path}.probs`, `${path}.logProbs`);
  const prediction = letterOrNull(o.prediction, `${path}.prediction`, letters);
  if (failed) {
    if (prediction !== null) fail(`${path}.prediction`, { expected: 'one-of', set: ['null'] }, prediction);
    if (o.correct !== null) fail(`${path}.correct`, { expected: 'one-of', set: ['null'] }, o.correct);
  } else if (!extract) {
    const best = letters[argmax(logProbs)];
    if (prediction !== best) fail(`${path}.prediction`, { expected: 'highest-letter', letter: best }, prediction);
  }
  const gold = letterOrNull(o.gold, `${path}.gold`, letters);
  const correct = o.correct === null ? null : bool(o.correct, `${path}.correct`);
  const expected = gold === null || failed ? null : prediction === gold;
  if (correct !== expected) fail(`${path}.correct`, { expected: 'correct-from', correct: expected, prediction, gold }, correct);
  const result: McItemResult = {
    ...base,
    shotsUsed: int(o.shotsUsed, `${path}.shotsUsed`, 0, 1000),
    exemplarIds: list(o.exemplarIds, `${path}.exemplarIds`, 1000, id),
    letters,
    tokenIds,
    logProbs,
    probs,
    prediction,
    gold,
    correct,
    ...scoredAt(o, path),
    ...(failed ? { failure: failed } : {}),
  };
  const generated = generatedOf(r, o, path, extract && !failed);
  if (generated) result.generated = generated;
  const cloze = clozeOf(r, o, path, letters, logProbs, config.scoring === 'cloze' && !failed);
  if (cloze) result.cloze = cloze;
  if (o.rotations !== undefined) {
    // Rotations 1 … n − 1, in order, none after a failed item (its rotations are not asked).
    const max = failed ? 0 : letters.length - 1;
    result.rotations = list(o.rotations, `${path}.rotations`, max, (v, p) => rotationResult(r, v, p, { itemId: base.itemId, letters, gold, extract }));
    result.rotations.forEach((rotation, i) => {
      if (rotation.rotation !== i + 1) fail(`${path}.rotations[${i}].rotation`, { expected: 'rotation-number', rotation: i + 1, itemId: base.itemId }, rotation.rotation);
    });
  }
  return result;
}

/** A generate-extract answer (`generated`), required where `expected`, refused in a letter-logits run. */
function generatedOf(r: FieldReader, o: Obj, path: string, expected: boolean): McItemResult['generated'] | null {
  if (expected) {
    const p = `${path}.generated`;
    const g = r.object(o.generated, p, ['output', 'rule', 'ambiguous']);
    return { output: text(g.output, `${p}.output`), rule: g.rule === null ? null : name(g.rule, `${p}.rule`), ambiguous: bool(g.ambiguous, `${p}.ambiguous`) };
  }
  if (o.generated !== undefined) throw problem('import.generated-in-letter-run', { path: `${path}.generated` });
  return null;
}

const ROTATION_KEYS = ['rotation', 'promptHash', 'tokenCount', 'letters', 'tokenIds', 'logProbs', 'probs', 'prediction', 'gold', 'correct', 'reusedPrefixTokens', 'forwardMs', 'completedAt'];

/**
 * One rotation of an item (McRotationResult): the item's letters, its gold moved by the rotation,
 * the prediction the highest letter (letter-logits), `correct` from prediction and gold.
 */
function rotationResult(r: FieldReader, value: unknown, path: string, item: { itemId: string; letters: OptionLetter[]; gold: OptionLetter | null; extract: boolean }): McRotationResult {
  const o = r.object(value, path, ROTATION_KEYS, ['generated', 'failure']);
  const n = item.letters.length;
  const rotation = int(o.rotation, `${path}.rotation`, 1, n - 1);
  const failed = o.failure === undefined ? null : storedNotice(o.failure, `${path}.failure`);
  const letters = list(o.letters, `${path}.letters`, 4, (v, p) => oneOf(v, p, LETTERS));
  if (letters.join('') !== item.letters.join('')) fail(`${path}.letters`, { expected: 'same-as', value: item.letters.join(','), sameAs: 'the item\'s letters' }, o.letters);
  const sized = <T>(v: unknown, p: string, each: (v: unknown, p: string) => T, mayBeEmpty: boolean): T[] => {
    const values = list(v, p, 4, each);
    if (values.length !== n && !(mayBeEmpty && values.length === 0)) fail(p, { expected: 'per-letter', count: n, orNone: mayBeEmpty }, v);
    return values;
  };
  const tokenIds = sized(o.tokenIds, `${path}.tokenIds`, (v, p) => int(v, p, 0, MAX_TOKEN_ID), true);
  // Rotations are asked of letter runs only (a circular cloze run cannot be made): one token each.
  const logProbs = sized(o.logProbs, `${path}.logProbs`, (v, p) => finite(v, p, LETTER_LOG_PROB_MIN, 0), item.extract || failed !== null);
  const probs = derivedProbs(sized(o.probs, `${path}.probs`, (v, p) => finite(v, p, 0, 1), item.extract || failed !== null), logProbs, `${path}.probs`, `${path}.logProbs`);
  const prediction = letterOrNull(o.prediction, `${path}.prediction`, letters);
  if (failed) {
    if (prediction !== null) fail(`${path}.prediction`, { expected: 'one-of', set: ['null'] }, prediction);
  } else if (!item.extract) {
    const best = letters[argmax(logProbs)];
    if (prediction !== best) fail(`${path}.prediction`, { expected: 'highest-letter', letter: best }, prediction);
  }
  const gold = letterOrNull(o.gold, `${path}.gold`, letters);
  const moved = rotatedLetter(item.gold, rotation, n);
  if (gold !== moved) fail(`${path}.gold`, { expected: 'rotated-gold', gold: moved, rotation }, o.gold);
  const correct = o.correct === null ? null : bool(o.correct, `${path}.correct`);
  const expected = gold === null || failed ? null : prediction === gold;
  if (correct !== expected) fail(`${path}.correct`, { expected: 'correct-from', correct: expected, prediction, gold }, correct);
  const generated = generatedOf(r, o, path, item.extract && !failed);
  return {
    rotation,
    promptHash: o.promptHash === '' ? '' : sha256(o.promptHash, `${path}.promptHash`),
    tokenCount: int(o.tokenCount, `${path}.tokenCount`, 0, MAX_TOKENS),
    letters,
    tokenIds,
    logProbs,
    probs,
    prediction,
    ...(generated ? { generated } : {}),
    gold,
    correct,
    ...scoredAt(o, path),
    ...(failed ? { failure: failed } : {}),
  };
}

const GEN_RESULT_KEYS = ['runId', 'itemId', 'task', 'generationTask', 'index', 'prompt', 'promptHash', 'tokenCount', 'output', 'outputTokenIds', 'stoppedBy', 'references', 'ms', 'completedAt'];

export function genResult(r: FieldReader, value: unknown, path: string, facts: RunFacts, datasetId: DatasetId): GenItemResult {
  const o = r.object(value, path, GEN_RESULT_KEYS, ['failure']);
  const base = resultBase(r, o, path, facts);
  const generationTask = oneOf(o.generationTask, `${path}.generationTask`, GENERATION_TASKS);
  const known = getDataset(datasetId).tasks.find((t) => t.key === base.task)?.generationTask;
  if (known !== undefined && known !== generationTask) fail(`${path}.generationTask`, { expected: 'generation-task-of', generationTask: known, datasetId, task: base.task }, generationTask);
  const references = list(o.references, `${path}.references`, MAX_LIST, (v, p) => text(v, p));
  if (references.length === 0) fail(`${path}.references`, { expected: 'references' }, o.references);
  return {
    ...base,
    generationTask,
    output: text(o.output, `${path}.output`),
    outputTokenIds: list(o.outputTokenIds, `${path}.outputTokenIds`, MAX_RESULTS, (v, p) => int(v, p, 0, MAX_TOKEN_ID)),
    stoppedBy: oneOf(o.stoppedBy, `${path}.stoppedBy`, STOPPED_BY),
    references,
    ms: finite(o.ms, `${path}.ms`, 0, MAX_MS),
    completedAt: isoDate(o.completedAt, `${path}.completedAt`),
    ...(o.failure === undefined ? {} : { failure: storedNotice(o.failure, `${path}.failure`) }),
  };
}

/** How an item or rotation was scored, read alike for both: the prefix it reused, its time and when. */
function scoredAt(o: Obj, path: string): { reusedPrefixTokens: number; forwardMs: number; completedAt: string } {
  return {
    reusedPrefixTokens: int(o.reusedPrefixTokens, `${path}.reusedPrefixTokens`, 0, MAX_TOKENS),
    forwardMs: finite(o.forwardMs, `${path}.forwardMs`, 0, MAX_MS),
    completedAt: isoDate(o.completedAt, `${path}.completedAt`),
  };
}
