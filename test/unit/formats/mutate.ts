// The mutation machinery of the field-class tests, for every format (run files, lm-eval files,
// memorization files, links): a file's leaves and lists by path, one change at a time, how a
// refusal's place is matched against the field table (fields/field-class.ts), and the two outcomes a
// change may have: a refusal that names the field changed (or a field the table relates to it), or an
// import whose shown numbers equal the untouched file's (or their recomputation from its raw fields).
import { expect } from 'vitest';
import { RunImportError } from '../../../src/lib/core/formats/import-validate.ts';
import type { FieldClass, FieldTable } from '../../../src/lib/core/formats/fields/index.ts';
import { runSummary } from '../../../src/lib/core/metrics/run-summary.ts';
import { continuousOf } from '../../../src/lib/core/metrics/continuous.ts';
import { calibration } from '../../../src/lib/core/metrics/calibration.ts';
import { CLOZE_RULES, clozePrediction } from '../../../src/lib/core/metrics/cloze-rules.ts';
import { accuracyOverOrders } from '../../../src/lib/core/metrics/circular.ts';
import type { ImportedRun } from '../../../src/lib/core/formats/import-validate.ts';
import type { McItemResult } from '../../../src/lib/core/record/run.ts';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
/** A place in a file: the keys and indices from its root. */
export type Steps = (string | number)[];

/** `results[3].probs[1]` from its steps. */
export const pathOf = (steps: readonly (string | number)[]): string => steps.map((s, i) => (typeof s === 'number' ? `[${s}]` : i === 0 ? s : `.${s}`)).join('');
/** list positions as `[*]`, as the FieldReader writes paths. */
export const general = (path: string): string => path.replace(/\[\d+\]/g, '[*]');

/** Every leaf (scalar) and every list of the file, with its steps. */
export function walk(value: Json, steps: Steps = [], out: { leaves: Steps[]; lists: Steps[] } = { leaves: [], lists: [] }) {
  if (Array.isArray(value)) {
    out.lists.push(steps);
    value.forEach((v, i) => walk(v, [...steps, i], out));
  } else if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) walk(v, [...steps, k], out);
  } else out.leaves.push(steps);
  return out;
}

/** The table's entry for a path: itself, or a `.*` entry above it. `gen`: how the format writes a path generally. */
export function entryOf(table: FieldTable, path: string, gen: (path: string) => string = general): string | null {
  const g = gen(path);
  if (Object.hasOwn(table, g)) return g;
  for (const key of Object.keys(table)) if (key.endsWith('.*') && (g.startsWith(key.slice(0, -1)) || g === key.slice(0, -2))) return key;
  return null;
}

/**
 * The table's entry covering a path (the link and memorization tables name a field once for what is
 * under it): the path's own entry (as entryOf finds it), its list's, or the nearest field's above it.
 */
export function classOf(table: FieldTable, path: string): { key: string; field: FieldClass } | null {
  let p = general(path);
  for (;;) {
    const key = entryOf(table, p) ?? (Object.hasOwn(table, `${p}[*]`) ? `${p}[*]` : null);
    if (key !== null) return { key, field: table[key] };
    const cut = Math.max(p.lastIndexOf('.'), p.lastIndexOf('['));
    if (cut <= 0) return null;
    p = p.slice(0, cut);
  }
}

/** Every leaf (number, string, boolean, null, empty list or object) with its steps; of a list of numbers or strings only its first and last entries, which stand for the rest. */
export function sampledLeaves(value: unknown, at: Steps = []): Steps[] {
  if (Array.isArray(value)) {
    if (value.length === 0) return [at];
    const objects = value.some((v) => typeof v === 'object' && v !== null);
    const picked = objects ? value.map((_, i) => i) : value.length === 1 ? [0] : [0, value.length - 1];
    return picked.flatMap((i) => sampledLeaves(value[i], [...at, i]));
  }
  if (typeof value === 'object' && value !== null) {
    const keys = Object.keys(value);
    if (keys.length === 0) return [at];
    return keys.flatMap((k) => sampledLeaves((value as Record<string, unknown>)[k], [...at, k]));
  }
  return [at];
}

/** Every leaf path, no sampling, empty lists and objects included (the completeness tests). */
export const allPaths = (value: unknown): string[] => everyLeaf(value).map(pathOf);

function everyLeaf(value: unknown, at: Steps = []): Steps[] {
  if (Array.isArray(value)) return value.length === 0 ? [at] : value.flatMap((v, i) => everyLeaf(v, [...at, i]));
  if (typeof value === 'object' && value !== null) {
    const keys = Object.keys(value);
    return keys.length === 0 ? [at] : keys.flatMap((k) => everyLeaf((value as Record<string, unknown>)[k], [...at, k]));
  }
  return [at];
}

/** A deep copy of `root` with the leaf at `steps` set to `value` (removed when undefined: a list's entry spliced out). */
export function mutated<T>(root: T, steps: readonly (string | number)[], value: unknown): T {
  const copy = structuredClone(root) as Record<string | number, unknown>;
  let at = copy;
  for (const step of steps.slice(0, -1)) at = at[step] as Record<string | number, unknown>;
  const last = steps[steps.length - 1];
  if (value === undefined) {
    if (Array.isArray(at)) at.splice(last as number, 1);
    else delete at[last];
  } else at[last] = value;
  return copy as T;
}

export const withChange = (root: Json, steps: Steps, change: (old: Json) => Json | undefined): Json => mutated(root, steps, change(valueAt(root, steps)));

/** What the pages show of a run, through the functions they use: summary, p(gold) and its kin, calibration, cloze rules, orders. */
export function shown({ run, results }: ImportedRun): unknown {
  // What the file's own summary claimed is shown beside the recomputation (RunPage): it counts too.
  const out: Record<string, unknown> = { summary: runSummary(run, results), stated: run.origin?.storedSummary ?? null, mismatches: run.origin?.summaryMismatches ?? [] };
  if (run.config.kind !== 'multiple-choice') return out;
  const mc = results as McItemResult[];
  out.continuous = mc.map(continuousOf);
  const scored = mc.filter((r) => r.probs.length > 0);
  out.calibration = scored.length
    ? calibration(scored.map((r) => ({ probs: r.probs, predicted: r.prediction === null ? null : r.letters.indexOf(r.prediction), correct: r.correct, gold: r.gold === null ? null : r.letters.indexOf(r.gold) })))
    : null;
  out.cloze = mc.map((r) => (r.cloze ? CLOZE_RULES.map((rule) => clozePrediction(r.cloze!, rule)) : null));
  out.overOrders = [...accuracyOverOrders(mc)];
  // PriDe reads the rotations' probabilities.
  out.rotations = mc.map((r) => r.rotations?.map((x) => [x.probs, x.prediction, x.correct]) ?? null);
  return out;
}

/** How a format's refusals name places, as table paths (concrete), and its paths in general. */
export interface Naming {
  /** The refusal's place as a concrete path of the table's form, or null when it names none. */
  at: (error: RunImportError) => string | null;
  general: (path: string) => string;
}

/** Pathless refusals of a run file and the field they are about. */
const PATHLESS: Record<string, string> = { 'import.format-version': 'formatVersion' };

export const RUN_FILE_NAMING: Naming = {
  at: (error) => {
    const params = error.refusal.params as Record<string, unknown>;
    return typeof params.path === 'string' ? params.path : (PATHLESS[error.refusal.code] ?? null);
  },
  general,
};

/**
 * Whether a refusal at `at` (a concrete path, or null when it names none) names the changed field
 * `changed`: its path is the field, a field under it, the list or object it is in (below the top
 * level, or the top-level field itself when the format names its refusals so), or a field the table
 * relates to it (derived from it, checked against it, or whose check names it), either way; or the
 * refusal's parameters quote the field's place (`same-as results[0].logProbs[1]`).
 */
export function namesField(table: FieldTable, at: string | null, changed: string, how: { general?: (path: string) => string; params?: Record<string, unknown> } = {}): boolean {
  const gen = how.general ?? general;
  const strip = (p: string) => gen(p).replace(/(\[\*\])+$/, '');
  const mine = strip(changed);
  if (at !== null) {
    const theirs = strip(at);
    if (theirs === mine || at === changed) return true;
    if (at.startsWith(`${changed}.`) || at.startsWith(`${changed}[`)) return true;
    if (mine.startsWith(`${theirs}.`) && theirs.includes('.')) return true;
    if (changed.startsWith(`${at}.`) || changed.startsWith(`${at}[`)) return true;
    const related = (key: string | null) => {
      if (!key) return [];
      const e = table[key];
      return (e.class === 'derived' ? e.from : (e.against ?? [])).map(strip);
    };
    const near = (p: string) => entryOf(table, p, gen) ?? entryOf(table, `${p}[0]`, gen) ?? classOf(table, p)?.key ?? null;
    // The refusal's field, or for a list of objects (a result's rotations) the fields of its entries.
    const entries = [near(at), ...Object.keys(table).filter((key) => key.startsWith(`${gen(at)}[*].`))];
    const changedEntry = near(changed);
    if (changedEntry) {
      const mentions = (p: string) => mine === p || mine.startsWith(`${p}.`) || mine.startsWith(`${p}[`);
      for (const entry of entries) {
        if (!entry) continue;
        if (related(entry).some(mentions) || related(entry).includes(strip(changedEntry)) || related(changedEntry).includes(strip(entry))) return true;
        const e = table[entry];
        if (e.class === 'raw' && e.check.includes(changedEntry)) return true;
      }
    }
  }
  return Object.values(how.params ?? {}).some((v) => typeof v === 'string' && v.includes(changed.replace(/\[\d+\]$/, '')));
}

export interface Outcome {
  refused: RunImportError | null;
  imported: ImportedRun | null;
}

export async function attempt(read: () => Promise<ImportedRun>): Promise<Outcome> {
  try {
    return { refused: null, imported: await read() };
  } catch (error) {
    expect(error, String(error)).toBeInstanceOf(RunImportError);
    return { refused: error as RunImportError, imported: null };
  }
}

/** Out of any range a model can produce: every numeric field a reader reads must refuse these, naming itself. */
export const OUT_OF_RANGE: readonly number[] = [1e308, -1e308, -1.79e308];

/** Wrong kinds and forged values of a leaf. */
export function forgeries(old: Json): Json[] {
  if (typeof old === 'number') return ['NaN', 'Infinity', '7', true, old === 0 ? 1 : 0, old + 0.25, 1 - old, null];
  if (typeof old === 'string') return [42, '', 'Z', `${old}\u202e`];
  if (typeof old === 'boolean') return [!old, 'true', 0];
  return [0.5, 'A', true, 1e308];
}

/** The hostile values the link and memorization tests try on one leaf: removed, off by a little, out of any range, of another kind. */
export function mutationsOf(value: unknown): { name: string; value: unknown }[] {
  const out: { name: string; value: unknown }[] = [{ name: 'removed', value: undefined }];
  if (typeof value === 'number') {
    out.push({ name: '+1', value: value + 1 }, ...OUT_OF_RANGE.map((v) => ({ name: `out of range ${v}`, value: v })), { name: 'negated', value: -value - 0.5 }, { name: 'string', value: String(value) });
  } else if (typeof value === 'string') {
    out.push({ name: 'other text', value: `${value}x` }, { name: 'date 9999', value: '9999-12-31T00:00:00.000Z' }, { name: 'number', value: 7 });
    // A hash is only changed by another hash: anything else fails its form before it is compared.
    if (/^[0-9a-f]{64}$/.test(value)) out.push({ name: 'another hash', value: `${value[0] === '0' ? '1' : '0'}${value.slice(1)}` });
  } else if (typeof value === 'boolean') {
    out.push({ name: 'flipped', value: !value });
  } else if (value === null) {
    out.push({ name: 'number', value: 1 }, { name: 'text', value: 'x' });
  } else if (Array.isArray(value)) {
    out.push({ name: 'one entry', value: [1] });
  } else {
    out.push({ name: 'a number', value: 2 });
  }
  return out;
}

export const valueAt = (root: Json, steps: Steps): Json => steps.reduce<Json>((at, s) => (at as Record<string | number, Json>)[s], root);

/**
 * Changes every leaf and list of `root` one at a time and reads each: a change must be refused naming
 * the field (`mustRefuse`), or refused naming it or read showing what the untouched file shows. A
 * raw field (or a claim) changed within its kind may change what is shown: only wrong kinds and
 * out-of-range values are tried on those. Returns the failures, and how many were refused and harmless.
 */
export async function mutateAll(options: {
  root: Json;
  table: FieldTable;
  naming: Naming;
  /** The table path of a concrete place in `root`. */
  place: (steps: Steps) => string;
  read: (root: Json) => Promise<unknown>;
  shown: (read: unknown) => unknown;
  /** Lists whose length is raw (a partial run), left unchanged in length. */
  rawLength?: (place: string) => boolean;
  /** Extra whole-list forgeries of a list. */
  listForgeries?: (steps: Steps, list: Json[]) => Json[][];
}): Promise<{ failures: string[]; refused: number; harmless: number }> {
  const { root, table, naming, place } = options;
  const untouched = options.shown(await options.read(root));
  const { leaves, lists } = walk(root);
  const failures: string[] = [];
  let refused = 0;
  let harmless = 0;
  const check = async (changed: string, value: unknown, mustRefuse: boolean, next: Json) => {
    let outcome: unknown;
    try {
      outcome = await options.read(next);
    } catch (error) {
      if (!(error instanceof RunImportError)) failures.push(`${changed} = ${JSON.stringify(value)}: ${String(error)}`);
      else if (namesField(table, naming.at(error), changed, { general: naming.general, params: error.refusal.params as Record<string, unknown> })) refused++;
      else failures.push(`${changed} = ${JSON.stringify(value)}: refused without naming it: ${error.message}`);
      return;
    }
    if (mustRefuse) return void failures.push(`${changed} = ${JSON.stringify(value)}: imported`);
    let now: unknown;
    try {
      now = options.shown(outcome);
    } catch (error) {
      return void failures.push(`${changed} = ${JSON.stringify(value)}: imported, and the page's numbers throw: ${String(error)}`);
    }
    if (JSON.stringify(now) === JSON.stringify(untouched)) harmless++;
    else failures.push(`${changed} = ${JSON.stringify(value)}: imported with other numbers shown`);
  };
  for (const steps of leaves) {
    const changed = place(steps);
    const key = entryOf(table, changed, naming.general);
    if (key === null) {
      failures.push(`${changed}: no entry in the table`);
      continue;
    }
    const entry = table[key];
    const old = valueAt(root, steps);
    // A raw wildcard entry is read as a whole (a notice's parameters, a doc): its leaves need not
    // refuse, nor fields the import does not read. A claim (a summary the file states) is shown: it must.
    const strict = entry.class === 'derived' || (!key.endsWith('.*') && !entry.check.startsWith('not read'));
    for (const value of OUT_OF_RANGE) await check(changed, value, strict && (typeof old === 'number' || (typeof old === 'string' && old.trim() !== '' && Number.isFinite(Number(old)))), withChange(root, steps, () => value));
    const asRaw = entry.class === 'raw' || entry.how === 'claim';
    for (const value of forgeries(old)) {
      // Within a raw field's kind: the same type, null (not stated), a number as the harness writes it ("7").
      if (asRaw && (typeof value === typeof old || value === null || (typeof old === 'number' && value === '7') || (old === null && typeof value === 'number'))) continue;
      await check(changed, value, false, withChange(root, steps, () => value));
    }
  }
  for (const steps of lists) {
    const changed = place(steps);
    const list = valueAt(root, steps) as Json[];
    if (!options.rawLength?.(changed) && list.length > 0) {
      await check(changed, 'one more', false, withChange(root, steps, () => [...list, list[list.length - 1]]));
      await check(changed, 'one fewer', false, withChange(root, steps, () => list.slice(0, -1)));
    }
    const key = entryOf(table, `${changed}[0]`, naming.general);
    for (const forged of options.listForgeries?.(steps, list) ?? []) await check(changed, forged, key !== null && table[key].class === 'derived', withChange(root, steps, () => forged));
  }
  return { failures, refused, harmless };
}
