// The memorization runs' list reads the newest runs along the date index, a page at a time, and
// counts the rest (issue 46, item 3): a backup may restore 10,000 memorization runs, and a list must
// not read them all. Newest first, by the date, as the whole list was before.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { ProbeRunRecord } from '../../../src/lib/core/record/probe-run.ts';
import { createProbeRun, listProbeRuns } from '../../../src/lib/store/probe-runs.ts';
import { freshDb } from './helpers.ts';
import { makeProbeRun } from '../../fixtures/run-records/probe-run.ts';

/** Run `id`, started `minute` minutes into the day. */
const probeRun = (id: string, minute: number): ProbeRunRecord => makeProbeRun(id, new Date(Date.UTC(2026, 11, 1, 0, minute)).toISOString(), ['古音学/test/0', '古音学/test/1']);

describe('the memorization runs listed', () => {
  it('are the newest, newest first, with how many are stored', async () => {
    const db = await freshDb();
    // Stored out of date order: the list follows the dates, not the ids or the order of storing.
    for (const [id, minute] of [['c', 3], ['a', 9], ['e', 1], ['b', 7], ['d', 5]] as const) await createProbeRun(db, probeRun(id, minute));
    expect(await listProbeRuns(db, 2)).toEqual({ runs: [probeRun('a', 9), probeRun('b', 7)], total: 5 });
    const all = await listProbeRuns(db, 100);
    expect(all.runs.map((r) => r.id)).toEqual(['a', 'b', 'd', 'c', 'e']);
    expect(all.total).toBe(5);
    expect(await listProbeRuns(db, 0)).toEqual({ runs: [], total: 5 });
    db.close();
  });
});
