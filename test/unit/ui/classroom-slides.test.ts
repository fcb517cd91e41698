// Classroom mode teaches the stored item's own answer, whatever a (possibly forged) run file claims.
import { describe, expect, it } from 'vitest';
import type { MultipleChoiceItem } from '../../../src/lib/core/benchmarks/types.ts';
import { answerFromLink, answerFromRun } from '../../../src/ui/classroom/classroom-slides.ts';
import { isSiteModelName } from '../../../src/lib/core/models/model-names.ts';

const item = { id: 'x', kind: 'multiple-choice', datasetId: 'aclue', task: 't', split: 'test', question: 'q', options: ['a', 'b', 'c', 'd'], answer: 'B' } as unknown as MultipleChoiceItem;

describe('classroom answers', () => {
  it("reveals and scores the item's answer, not the run's stored gold, and keeps the claim to say so", () => {
    const forged = answerFromRun(item, { letters: ['A', 'B', 'C', 'D'], probs: [0.7, 0.1, 0.1, 0.1], prediction: 'A', gold: 'A' });
    expect(forged.gold).toBe('B');
    expect(forged.claimedGold).toBe('A');
    const honest = answerFromRun(item, { letters: ['A', 'B', 'C', 'D'], probs: [0.1, 0.7, 0.1, 0.1], prediction: 'B', gold: 'B' });
    expect(honest).toEqual({ letters: ['A', 'B', 'C', 'D'], probs: [0.1, 0.7, 0.1, 0.1], prediction: 'B', gold: 'B' });
    // A key that is not released here stays not released, whatever the file says.
    expect(answerFromRun({ ...item, answer: null }, { letters: [], probs: [], prediction: 'C', gold: 'C' })).toMatchObject({ gold: null, claimedGold: 'C' });
  });

  it("gives a link's letter with the item's own answer", () => {
    expect(answerFromLink(item, 'D')).toEqual({ letters: ['A', 'B', 'C', 'D'], probs: [], prediction: 'D', gold: 'B' });
  });
});

describe('site model names', () => {
  it('accepts one plain path segment and refuses .., slashes and odd names', () => {
    for (const name of ['jiangu-tiny', 'Qwen3-0.6B', 'model_q4.v2']) expect(isSiteModelName(name), name).toBe(true);
    for (const name of ['..', '../x', 'a/b', 'a\\b', '.hidden', 'a..b', '', 'a b', 'x'.repeat(200), '%2e%2e']) expect(isSiteModelName(name), name).toBe(false);
  });
});
