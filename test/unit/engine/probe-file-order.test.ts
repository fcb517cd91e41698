// "Reproduce here" on a memorization link says whether each task file's file-order test matched
// (issue 34, item 4): the same conclusion at the 5% level from the reproduction's shards as the link
// states; another conclusion is said, and a file without a result on one side is not compared.
import { describe, expect, it } from 'vitest';
import { decodeProbeLink } from '../../../src/lib/core/formats/probe-link/probe-link.ts';
import { probeRunSummary } from '../../../src/lib/core/metrics/memorization/index.ts';
import type { ProbeResult } from '../../../src/lib/core/record/probe-run.ts';
import { fileOrderAgreement } from '../../../src/lib/engine/probe-reproduce.ts';
import { madeProbeLink, madeProbeRun } from '../formats/memorization-fixture.ts';

describe('fileOrderAgreement', () => {
  it('matches a reproduction with the same shards, not one whose shards reach the other conclusion, and leaves a file without a result uncompared', async () => {
    const made = await madeProbeRun();
    const shared = await decodeProbeLink(await madeProbeLink(made));
    const same = fileOrderAgreement(shared, made.run, made.results);
    expect(same.map((f) => [f.task, f.matched])).toEqual([['Radical', true], ['Cloze', true]]);
    expect(same[0].here).toEqual({ statistic: shared.files![0].statistic, pValue: shared.files![0].pValue });

    // Radical's shards moved so that the file's order wins (or loses) by far more than its spread: the other conclusion.
    const linkSignificant = shared.files![0].pValue! < 0.05;
    const moved = made.results.map((r, i): ProbeResult => (r.kind === 'shard' && r.task === 'Radical' ? { ...r, canonical: r.canonical + (linkSignificant ? -1 : 1) * (500 + i) } : r));
    const radical = probeRunSummary(made.run, moved).exchangeability[0].result!;
    expect(radical.pValue! < 0.05).toBe(!linkSignificant);
    const other = fileOrderAgreement(shared, made.run, moved);
    expect(other.map((f) => [f.task, f.matched])).toEqual([['Radical', false], ['Cloze', true]]);

    // Cloze's shards not all scored here: no result, nothing to compare.
    const partial = made.results.filter((r) => !(r.kind === 'shard' && r.task === 'Cloze' && r.shard === 1));
    expect(fileOrderAgreement(shared, made.run, partial).map((f) => [f.task, f.matched])).toEqual([['Radical', true], ['Cloze', null]]);
  });
});
