// The run file's field classes (fields/run-file.ts) against real exported files of each scoring kind
// (run-files.ts): every field the files hold has a class, every class is a field the reader knows,
// and changing any field alone is either refused naming it, or leaves every number the pages show
// equal to the untouched file's. The walks' forgeries are among the changes: probs 1 on the gold
// letter beside untouched log-probabilities, cloze probabilities summing to 3.6, log-likelihoods of
// −1e308, a summary of 1e308.
import { describe, expect, it } from 'vitest';
import { parseRunFile } from '../../../src/lib/core/formats/import-record.ts';
import { readJianguRun } from '../../../src/lib/core/formats/jiangu-run/import-jiangu.ts';
import { FieldReader } from '../../../src/lib/core/formats/import-validate.ts';
import { RUN_FILE_FIELDS } from '../../../src/lib/core/formats/fields/run-file.ts';
import { calibration } from '../../../src/lib/core/metrics/calibration.ts';
import { continuousOf } from '../../../src/lib/core/metrics/continuous.ts';
import type { McItemResult } from '../../../src/lib/core/record/run.ts';
import { RUN_FILE_KINDS, runFile, type RunFileKind } from './run-files.ts';
import { RUN_FILE_NAMING, attempt, entryOf, general, mutateAll, pathOf, shown, valueAt, walk, type Json, type Steps } from './mutate.ts';
import type { ImportedRun } from '../../../src/lib/core/formats/import-validate.ts';

const table = RUN_FILE_FIELDS;
const read = (root: Json, name = 'mutated.json') => parseRunFile(JSON.stringify(root), name);
const rootOf = (kind: RunFileKind): Json => JSON.parse(runFile(kind)) as Json;

/** A reader's known fields, as the table names them (the file's top level without `file.`). */
function knownFields(): Set<string> {
  const known = new Set<string>();
  for (const kind of RUN_FILE_KINDS) {
    const r = new FieldReader();
    readJianguRun(rootOf(kind) as Record<string, unknown>, 'x.json', '2026-01-01T00:00:00.000Z', r);
    for (const k of r.known) known.add(k.replace(/^file\./, ''));
  }
  return known;
}

describe('the run file\'s field table', () => {
  it('classes every field of a real exported file of each kind', () => {
    for (const kind of RUN_FILE_KINDS) {
      const { leaves } = walk(rootOf(kind));
      const missing = leaves.map(pathOf).filter((p) => entryOf(table, p) === null);
      expect(missing.map(general), kind).toEqual([]);
    }
  });

  it('names only fields the reader knows, and the reader knows no field it does not name', () => {
    const known = knownFields();
    // A table path without its list positions and `.*` tail is a field an object read by the reader may hold.
    // A notice's code and parameters are read by storedWarning as the notice field's own (its path is the notice's).
    const field = (key: string) => key.replace(/\.\*$/, '').replace(/(\[\*\])+$/, '').replace(/\.(code|params)$/, '').replace(/(\[\*\])+$/, '');
    const unknown = Object.keys(table).filter((key) => !known.has(field(key)));
    expect(unknown).toEqual([]);
    const keys = Object.keys(table);
    const unclassed = [...known].filter((k) => !keys.some((key) => key === k || key.startsWith(`${k}.`) || key.startsWith(`${k}[*]`)));
    expect(unclassed).toEqual([]);
  });
});

/** Lists the shown numbers read directly: forged whole, as the walks forged them. */
function listForgeries(root: Json) {
  return (steps: Steps, list: Json[]): Json[][] => {
    if (!/probs$/.test(general(pathOf(steps))) || list.length === 0) return [];
    const result = valueAt(root, steps.slice(0, -1)) as Record<string, Json>;
    const gold = (result.letters as string[]).indexOf(result.gold as string);
    return [list.map((_, i) => (i === Math.max(gold, 0) ? 1 : 0)), list.map(() => 0.9), list.map(() => 1 / list.length)];
  };
}

describe.each(RUN_FILE_KINDS)('a %s run file changed one field at a time', (kind) => {
  it('is refused naming the field, or shows the numbers of the untouched file', async () => {
    const root = rootOf(kind);
    const { failures, refused, harmless } = await mutateAll({
      root,
      table,
      naming: RUN_FILE_NAMING,
      place: pathOf,
      read: (next) => read(next),
      shown: (imported) => shown(imported as ImportedRun),
      // A run may hold results for fewer items than it lists, and an item fewer rotations than it
      // asks (a partial run): those lists are raw in length.
      rawLength: (place) => place === 'results' || /^results\[\d+\]\.rotations$/.test(place),
      listForgeries: listForgeries(root),
    });
    expect(failures).toEqual([]);
    expect(refused).toBeGreaterThan(100);
    expect(harmless).toBeGreaterThan(0);
  }, 120_000);
});

describe('the walks\' forgeries', () => {
  it('letter probs 1 on the gold letter beside untouched logProbs are refused, naming the entry and the softmax', async () => {
    const root = rootOf('letter-logits') as unknown as { results: McItemResult[] };
    const r = root.results[0];
    r.probs = r.letters.map((l) => (l === r.gold ? 1 : 0));
    const outcome = await attempt(() => read(root as unknown as Json, 'forged.json'));
    expect(outcome.refused?.refusal.code).toBe('import.field-wrong');
    expect(outcome.refused?.refusal.params).toMatchObject({ path: 'results[0].probs[0]', expected: 'softmax-of', of: 'results[0].logProbs' });
  });

  it('cloze probabilities summing to 3.6 are refused at the border (the run page never sees them)', async () => {
    const root = rootOf('cloze') as unknown as { results: McItemResult[] };
    root.results[0].probs = root.results[0].probs.map(() => 0.9);
    const outcome = await attempt(() => read(root as unknown as Json, 'forged.json'));
    expect(outcome.refused?.refusal.params).toMatchObject({ path: 'results[0].probs[0]', expected: 'softmax-of' });
  });

  it('log-likelihoods of −1e308 and a summary of 1e308 are refused naming the field', async () => {
    const cloze = rootOf('cloze') as unknown as { results: McItemResult[] };
    cloze.results[0].logProbs[0] = -1e308;
    cloze.results[0].cloze!.logLikelihoods[0] = -1e308;
    expect((await attempt(() => read(cloze as unknown as Json))).refused?.refusal.params).toMatchObject({ path: 'results[0].logProbs[0]', expected: 'finite' });
    // Within the loose bound of any option but below what its own tokens can sum to.
    const deep = rootOf('cloze') as unknown as { results: McItemResult[] };
    // Option D, the least likely (the prediction stays A), has one token: it cannot sum below one token's bound.
    deep.results[0].logProbs[3] = -1e7;
    deep.results[0].cloze!.logLikelihoods[3] = -1e7;
    deep.results[0].probs = deep.results[0].logProbs.map((_, i, all) => Math.exp(all[i] - Math.max(...all)) / all.reduce((s, x) => s + Math.exp(x - Math.max(...all)), 0));
    expect((await attempt(() => read(deep as unknown as Json))).refused?.refusal.params).toMatchObject({ path: 'results[0].cloze.logLikelihoods[3]', expected: 'finite', min: -131072 });
    const summary = rootOf('letter-logits') as unknown as { summary: Record<string, number> };
    summary.summary.overall = 1e308;
    expect((await attempt(() => read(summary as unknown as Json))).refused?.refusal.params).toMatchObject({ path: 'summary.overall', expected: 'finite', max: 200_000 });
  });

  it('an untouched file shows exactly what the run made by the project\'s code shows', async () => {
    for (const kind of ['letter-logits', 'cloze'] as const) {
      const imported = await read(rootOf(kind));
      const results = imported.results as McItemResult[];
      const original = (JSON.parse(runFile(kind)) as { results: McItemResult[] }).results;
      expect(results.map(continuousOf)).toEqual(original.map(continuousOf));
      const input = (rs: McItemResult[]) => rs.filter((r) => r.probs.length > 0).map((r) => ({ probs: r.probs, predicted: r.letters.indexOf(r.prediction!), correct: r.correct, gold: r.letters.indexOf(r.gold!) }));
      expect(calibration(input(results))).toEqual(calibration(input(original)));
    }
  });
});
