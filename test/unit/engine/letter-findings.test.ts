// What a run records and warns about its letters, from the first item the worker scored.
import { describe, expect, it } from 'vitest';
import { letterFindings } from '../../../src/lib/engine/run-scheduler.ts';
import type { CandidateScore, ScoreItemResult } from '../../../src/lib/engine/messages.ts';
import { JianguError, renderNotice } from '../../../src/lib/core/notices/index.ts';

function scored(candidates: Partial<CandidateScore>[]): ScoreItemResult {
  const full = candidates.map((c, i) => ({ text: 'ABCD'[i], tokenId: 10 + i, tokenCount: 1, logProb: -1, mergesWithPrompt: false, ...c }));
  return {
    prompt: 'p',
    prefix: '',
    shotsUsed: 0,
    exemplarIds: [],
    droppedExemplarIds: [],
    overLimit: false,
    score: { inputIds: [1], candidates: full, reusedPrefixTokens: 0, logitsCopied: 0, forwardPasses: 1, text: 'p', forwardMs: 0 },
  };
}

describe('letterFindings', () => {
  it('records the token in context and the letter alone, with no warning when each is one token', () => {
    const found = letterFindings(scored([{ aloneTokenIds: [29909], tokenIdsInContext: [10] }, {}]));
    expect(found.warnings).toEqual([]);
    expect(found.letterTokens[0]).toEqual({ letter: 'A', tokenId: 10, singleToken: true, aloneTokenIds: [29909] });
  });

  it('warns, naming the tokens, when a letter is several tokens after the answer cue', () => {
    const found = letterFindings(scored([{ tokenCount: 2, tokenIdsInContext: [10, 99] }]));
    expect(found.warnings.map((w) => renderNotice(w, 'en'))).toEqual([
      'After the answer cue the letter A is written as 2 tokens [10, 99]; only the first (10) is scored, so its probability is an approximation.',
    ]);
  });

  it('stops the run when two letters are read from one token', () => {
    let error: unknown;
    try {
      letterFindings(scored([{ tokenId: 5 }, { tokenId: 5 }]));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(JianguError);
    expect((error as JianguError).notice).toEqual({ code: 'model.letters-share-token', params: { first: 'A', second: 'B', tokenId: 5 } });
  });
});
