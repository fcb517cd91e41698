// The memorization file's mutation walk, for every door it comes in by (memorization-mutation.test.ts:
// the file's reader; backup-mutation.test.ts: a backup's import): each leaf changed once, each change
// refused naming the field (or a field the table relates to it), or read with the table calling the
// field raw and the page's numbers (probeRunSummary) equal to their recomputation from the changed
// file's raw fields, never through the reader.
import { expect } from 'vitest';
import { MEMORIZATION_EXPORT_FIELDS } from '../../../src/lib/core/formats/fields/memorization-export.ts';
import type { Refusal } from '../../../src/lib/core/formats/import-validate.ts';
import type { Obj } from '../../../src/lib/core/formats/import-validate.ts';
import { exchangeabilityTest, memorizationScoresOf, probeRunSummary } from '../../../src/lib/core/metrics/memorization/index.ts';
import type { ProbeResult, ProbeRunRecord, ProbeShardResult } from '../../../src/lib/core/record/probe-run.ts';
import { classOf, mutated, mutationsOf, namesField, pathOf, sampledLeaves } from './mutate.ts';

export type ProbeRead = { run: ProbeRunRecord; results: ProbeResult[] };

/** Where a refusal points: its path (the reader names the root's fields `file.<field>`), or the field its code is about. */
export function refusedPath(refusal: Refusal): string {
  const p = refusal.params as { path?: string | null };
  if (typeof p.path === 'string') return p.path.replace(/^file\./, '');
  if (refusal.code === 'import.format-version') return 'formatVersion';
  if (refusal.code === 'import.too-many-results') return 'results';
  return `(${refusal.code})`;
}

/** The page's numbers, recomputed here from the raw fields as the file has them (not through the reader). */
export function fromRawFields(root: ProbeRead) {
  const { config } = root.run;
  const items = root.results
    .filter((r) => r.kind === 'item' && !r.failure)
    .map((r) => (r.kind === 'item' ? memorizationScoresOf(r.itemId, r.task, r.logprob.map((logprob, j) => ({ logprob, mean: r.mean[j], std: r.std[j] })), config.k) : null));
  const files = (config.exchangeability ?? []).map((f) => {
    const shards = root.results.filter((r): r is ProbeShardResult => r.kind === 'shard' && r.task === f.task).sort((a, b) => a.shard - b.shard);
    return shards.length === f.design.shardCount ? exchangeabilityTest(f.design, shards) : null;
  });
  return { items, files };
}

/** What the page shows of a memorization run. */
export function shownProbe(run: ProbeRunRecord, results: readonly ProbeResult[]) {
  const s = probeRunSummary(run, results);
  return { items: s.items, files: s.exchangeability.map((f) => f.result) };
}

/**
 * Walks `root`'s leaves through `read`, which returns what was read or throws an error carrying the
 * refusal (`refusalOf` gives it, or null for an error that is no refusal: rethrown). Returns the
 * changes that broke the rule, how many were tried, and those read.
 */
export async function mutateMemorizationFile(root: Obj, read: (bad: Obj) => Promise<ProbeRead>, refusalOf: (error: unknown) => Refusal | null): Promise<{ wrong: string[]; tried: number; accepted: string[] }> {
  const accepted: string[] = [];
  const wrong: string[] = [];
  let tried = 0;
  for (const parts of sampledLeaves(root)) {
    const path = pathOf(parts);
    const original = parts.reduce<unknown>((v, p) => (v as Record<string | number, unknown>)[p], root);
    for (const mutation of mutationsOf(original)) {
      const bad = mutated(root, parts, mutation.value);
      tried++;
      let got: ProbeRead;
      try {
        got = await read(bad);
      } catch (e) {
        const refusal = refusalOf(e);
        if (!refusal) throw new Error(`${path} ${mutation.name}: threw ${String(e)}`);
        const at = refusedPath(refusal);
        if (!namesField(MEMORIZATION_EXPORT_FIELDS, at, path)) wrong.push(`${path} ${mutation.name}: refused at ${at} (${String((e as Error).message)})`);
        continue;
      }
      const entry = classOf(MEMORIZATION_EXPORT_FIELDS, path);
      // A derived field's value must never be taken from a file: a changed one is refused.
      if (entry?.field.class !== 'raw') wrong.push(`${path} ${mutation.name}: accepted, but the table says ${entry?.field.class ?? 'nothing'}`);
      expect(shownProbe(got.run, got.results), `${path} ${mutation.name}`).toEqual(fromRawFields(bad as unknown as ProbeRead));
      accepted.push(`${path} ${mutation.name}`);
    }
  }
  return { wrong, tried, accepted };
}
