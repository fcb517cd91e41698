// What the first scored item of a run says about the letter tokens (the letters as the model reads
// them after the answer cue): warnings for the run record, or a refusal when two letters share a token.
import type { LetterToken } from '../core/record/run.ts';
import { jianguError, notice, type Notice } from '../core/notices/index.ts';
import type { ScoreItemResult } from './messages.ts';

/**
 * What the first scored item says about the letter tokens, as warnings a reader should see. The
 * tokens are the letters as they follow the answer cue (the worker reads them in context).
 * @throws JianguError when two letters are read from one token: no prediction could tell them apart.
 */
export function letterFindings(scored: ScoreItemResult): { letterTokens: LetterToken[]; warnings: Notice[] } {
  const warnings: Notice[] = [];
  const seen = new Map<number, string>();
  const letterTokens = scored.score.candidates.map((c) => {
    const earlier = seen.get(c.tokenId);
    if (earlier !== undefined) throw jianguError('model.letters-share-token', { first: earlier, second: c.text, tokenId: c.tokenId });
    seen.set(c.tokenId, c.text);
    if (c.mergesWithPrompt) warnings.push(notice('run.letter-merges', { letter: c.text, tokenId: c.tokenId }));
    else if (c.tokenCount !== 1) {
      // Without the ids in context (an older worker), say how many there are.
      const ids = c.tokenIdsInContext ?? [c.tokenId];
      warnings.push(notice('model.letter-several-tokens-in-context', { letter: c.text, tokenIds: ids.map(String), tokenId: c.tokenId }));
    }
    return { letter: c.text, tokenId: c.tokenId, singleToken: c.tokenCount === 1, ...(c.aloneTokenIds ? { aloneTokenIds: c.aloneTokenIds } : {}) };
  });
  return { letterTokens, warnings };
}
