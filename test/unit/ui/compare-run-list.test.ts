// The Compare page's run list: an interrupted run is listed as interrupted (the Evaluate page's
// rule), and a run that has not scored all it planned says how many it has.
import { describe, expect, it } from 'vitest';
import { interruptedRunIds, itemsDone, listedStatus } from '../../../src/ui/compare/run-list.ts';

describe('interruptedRunIds', () => {
  const runs = [
    { id: 'left', status: 'running' as const },
    { id: 'live', status: 'running' as const },
    { id: 'paused', status: 'paused' as const },
    { id: 'done', status: 'completed' as const },
  ];

  it('is every run stored as running whose lock no tab holds', () => {
    expect([...interruptedRunIds(runs, new Set(['live']))]).toEqual(['left']);
    // A held lock of a run not stored as running changes nothing.
    expect([...interruptedRunIds(runs, new Set(['live', 'paused']))]).toEqual(['left']);
  });

  it('is none where the browser has no Web Locks to ask', () => {
    expect(interruptedRunIds(runs, null).size).toBe(0);
  });
});

describe('listedStatus', () => {
  it('lists an interrupted running run as interrupted, any other as its status', () => {
    expect(listedStatus('running', true)).toBe('interrupted');
    expect(listedStatus('running', false)).toBe('running');
    expect(listedStatus('paused', false)).toBe('paused');
  });
});

describe('itemsDone', () => {
  it('a paused run: the items with results of those planned', () => {
    expect(itemsDone(3778, 28657)).toEqual({ done: 3778, planned: 28657 });
  });

  it('a complete run, or one not counted yet: the planned count alone', () => {
    expect(itemsDone(28707, 28707)).toEqual({ planned: 28707 });
    expect(itemsDone(undefined, 50)).toEqual({ planned: 50 });
  });
});
