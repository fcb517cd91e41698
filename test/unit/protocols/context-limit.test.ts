import { describe, expect, it } from 'vitest';
import { modelContextOf, resolveContextLimit } from '../../../src/lib/core/protocols/context-limit.ts';

describe('context limit', () => {
  it('reads the model positions from the usual config.json keys, in order of trust', () => {
    expect(modelContextOf({ max_position_embeddings: 32768, n_positions: 1024 })).toEqual({ tokens: 32768, key: 'max_position_embeddings' });
    expect(modelContextOf({ n_positions: 1024 })).toEqual({ tokens: 1024, key: 'n_positions' });
    expect(modelContextOf({ n_ctx: 512 })).toEqual({ tokens: 512, key: 'n_ctx' });
    expect(modelContextOf({ max_position_embeddings: '2048', hidden_size: 64 })).toBeNull();
    expect(modelContextOf({ max_position_embeddings: 0 })).toBeNull();
  });

  it('applies the smaller of the user limit and the model positions, saying which', () => {
    const model = { tokens: 2048, key: 'max_position_embeddings' };
    expect(resolveContextLimit('user', 1024, model)).toEqual({ tokens: 1024, from: 'user', asked: 'user', modelPositions: 2048 });
    expect(resolveContextLimit('user', 4096, model)).toEqual({ tokens: 2048, from: 'config.max_position_embeddings', asked: 'user', modelPositions: 2048 });
    expect(resolveContextLimit('default', 2048, { tokens: 32768, key: 'max_position_embeddings' })).toEqual({ tokens: 32768, from: 'config.max_position_embeddings', asked: 'default', modelPositions: 32768 });
    expect(resolveContextLimit('default', 2048, null)).toEqual({ tokens: 2048, from: 'default', asked: 'default', modelPositions: null });
    expect(resolveContextLimit('user', 300, null)).toEqual({ tokens: 300, from: 'user', asked: 'user', modelPositions: null });
  });
});
