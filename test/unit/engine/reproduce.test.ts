import { describe, expect, it } from 'vitest';
import { agreementWith } from '../../../src/lib/engine/reproduce.ts';
import type { McItemResult, McRunRecord } from '../../../src/lib/core/record/run.ts';
import type { SharedMcRun } from '../../../src/lib/core/record/share-link.ts';

describe('agreementWith', () => {
  it('compares item by item in run order, leaving out items the link had no result for', () => {
    const run = { config: { itemIds: ['a', 'b', 'c', 'd'] } } as unknown as McRunRecord;
    const shared = { predictions: ['A', 'B', null, 'D'], unscored: [2] } as unknown as SharedMcRun;
    const results = [
      { itemId: 'a', prediction: 'A' },
      { itemId: 'b', prediction: 'C' },
      { itemId: 'c', prediction: 'A' },
      { itemId: 'd', prediction: 'D' },
    ] as McItemResult[];
    expect(agreementWith(shared, run, results)).toEqual({ compared: 3, same: 2, differentIds: ['b'] });
  });

  it('counts a generated answer with no letter as a prediction of its own (null equals null)', () => {
    const run = { config: { itemIds: ['a', 'b'] } } as unknown as McRunRecord;
    const shared = { predictions: [null, 'B'], unscored: [] } as unknown as SharedMcRun;
    const results = [{ itemId: 'a', prediction: null }, { itemId: 'b', prediction: 'B' }] as McItemResult[];
    expect(agreementWith(shared, run, results)).toEqual({ compared: 2, same: 2, differentIds: [] });
  });
});
