/**
 * The lm-evaluation-harness split of a (context, continuation) pair (TemplateLM._encode_pair), on a
 * toy tokenizer where every case is worked by hand, and on the real tokenizers for every cloze
 * prompt of ACLUE, CMMLU 古汉语 and AC-EVAL at 0 and 5 shots: the real Qwen3 byte-level BPE and
 * stories260K's SentencePiece (Llama 2's kind, with its BOS).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PreTrainedTokenizer } from '@huggingface/transformers';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_OUT_ROOT } from '../../../scripts/fixtures/generate.ts';
import { adaptDataset } from '../../../src/lib/core/benchmarks/adapters/index.ts';
import type { DatasetId, MultipleChoiceItem } from '../../../src/lib/core/benchmarks/types.ts';
import { buildClozePrompt, encodePair, protocolForDataset, pythonLength, utf8Length } from '../../../src/lib/core/protocols/index.ts';
import { encode } from '../../../workers/loaded-model.ts';
import { describeWithSharedData, readCatalogFiles } from '../benchmarks/shared-data.ts';
import { loadQwen3Tokenizer } from '../qwen3-tokenizer.ts';
import { loadStories260kTokenizer, storiesPresent } from '../stories260k-tokenizer.ts';

/** Greedy longest match over a fixed vocabulary: "ab" is one token, so a context ending in "a" merges with "b…". */
function toyEncode(text: string): number[] {
  const vocab = ['ab', 'a', 'b', 'c', ' ', ' c', '：'];
  const ids: number[] = [];
  for (let i = 0; i < text.length; ) {
    const hit = vocab.map((piece, id) => ({ piece, id })).filter(({ piece }) => text.startsWith(piece, i)).sort((x, y) => y.piece.length - x.piece.length)[0];
    if (!hit) throw new Error(`no token for ${text[i]}`);
    ids.push(hit.id);
    i += hit.piece.length;
  }
  return ids;
}

describe('encodePair (toy tokenizer)', () => {
  it('continuation = the whole\'s tokens after the context\'s count', () => {
    // "c：" = [c, ：]; "c：ab" = [c, ：, ab]
    expect(encodePair(toyEncode, 'c：', 'ab')).toEqual({ context: 'c：', continuation: 'ab', contextIds: [3, 6], continuationIds: [0], contextIsPrefix: true });
  });

  it('moves the context\'s trailing whitespace to the continuation', () => {
    // "a " → context "a", continuation " c": whole "a c" = [a, ' c'] → continuation [' c'].
    const pair = encodePair(toyEncode, 'a ', 'c');
    expect(pair.context).toBe('a');
    expect(pair.continuation).toBe(' c');
    expect(pair.contextIds).toEqual([1]);
    expect(pair.continuationIds).toEqual([5]);
  });

  it('Python\'s whitespace, not JavaScript\'s: U+3000 moves, U+FEFF stays', () => {
    expect(encodePair((t) => [...t].map((ch) => ch.codePointAt(0)!), '答\u3000', '甲').continuation).toBe('\u3000甲');
    expect(encodePair((t) => [...t].map((ch) => ch.codePointAt(0)!), '答\ufeff', '甲').continuation).toBe('甲');
    expect(encodePair((t) => [...t].map((ch) => ch.codePointAt(0)!), '答\x1f', '甲').continuation).toBe('\x1f甲');
  });

  it('a merge across the boundary: the harness keeps the whole\'s tail, so the context is not its prefix', () => {
    // context "a" = [a]; whole "ab" = [ab]: the continuation is [] after one token, which the harness
    // would score as nothing; Jiangu reports it (contextIsPrefix false) and the caller refuses it.
    const pair = encodePair(toyEncode, 'a', 'b');
    expect(pair.contextIds).toEqual([1]);
    expect(pair.continuationIds).toEqual([]);
    expect(pair.contextIsPrefix).toBe(false);
  });

  it('refuses an empty context (the harness asserts the same)', () => {
    expect(() => encodePair(toyEncode, '', 'a')).toThrow(/empty/u);
  });

  it('counts characters as Python does (code points) and UTF-8 bytes', () => {
    expect(pythonLength('𠀀之')).toBe(2);
    expect('𠀀之'.length).toBe(3);
    expect(utf8Length('𠀀之')).toBe(7);
    expect(utf8Length('A之')).toBe(4);
  });
});

/**
 * Every test item's pairs, or with `perTask` only the first that many test items of each task. The
 * full check (every prompt, both tokenizers, 0 and 5 shots) takes about four minutes of CPU, too much
 * for CI's budget: CI checks every prompt of CMMLU 古汉语 and every 0-shot prompt with Qwen3, and the
 * first PER_TASK items of each task otherwise; JIANGU_FULL_TOKENIZER_CHECK=1 checks them all.
 */
function clozePairs(items: readonly MultipleChoiceItem[], datasetId: DatasetId, shots: number, perTask = Infinity): { context: string; continuation: string }[] {
  const protocol = protocolForDataset(datasetId);
  const dev = new Map<string, MultipleChoiceItem[]>();
  for (const item of items) if (item.split === 'dev' && item.answer !== null) dev.set(item.task, [...(dev.get(item.task) ?? []), item]);
  const pairs: { context: string; continuation: string }[] = [];
  const taken = new Map<string, number>();
  for (const item of items) {
    if (item.split === 'dev') continue;
    if ((taken.get(item.task) ?? 0) >= perTask) continue;
    taken.set(item.task, (taken.get(item.task) ?? 0) + 1);
    const built = buildClozePrompt(protocol, item, dev.get(item.task) ?? [], Math.min(shots, protocol.maxShots));
    for (const continuation of built.continuations) pairs.push({ context: built.context, continuation });
    for (const continuation of built.continuations) pairs.push({ context: built.domainContext, continuation });
  }
  return pairs;
}

/**
 * Every pair: a nonempty continuation, and the context's own tokens a prefix of the whole's, except
 * where the tokenizer joins the cue's last character to the option's first (Qwen's pre-tokenizer
 * keeps a run of punctuation together, and BPE merges `：“` into one token): there the whole's
 * tokens differ from the context's only in its last token, the option starts with punctuation, and
 * the harness (and Jiangu) score the context's own tokens followed by the whole's tail. Returns how
 * many pairs joined so.
 */
function checkAll(tokenizer: PreTrainedTokenizer, pairs: readonly { context: string; continuation: string }[]): { checked: number; joined: number; firstJoined: string[] } {
  const known = new Map<string, number[]>();
  const enc = (text: string) => {
    const hit = known.get(text);
    if (hit) return hit;
    const ids = encode(tokenizer, text, true);
    if (known.size > 64) known.clear();
    known.set(text, ids);
    return ids;
  };
  let checked = 0;
  let joined = 0;
  const firstJoined = new Set<string>();
  for (const { context, continuation } of pairs) {
    const pair = encodePair(enc, context, continuation);
    const where = `context ending ${JSON.stringify(context.slice(-12))} + ${JSON.stringify(continuation)}`;
    if (pair.continuationIds.length === 0) throw new Error(`${where}: empty continuation`);
    if (!pair.contextIsPrefix) {
      const whole = enc(pair.context + pair.continuation);
      const last = pair.contextIds.length - 1;
      if (whole.slice(0, last).some((id, i) => id !== pair.contextIds[i]) || !/^\p{P}/u.test(continuation)) {
        throw new Error(`${where}: the context's tokens are not a prefix of the whole's, and not only at the boundary`);
      }
      joined++;
      firstJoined.add([...continuation][0]);
    }
    checked++;
  }
  return { checked, joined, firstJoined: [...firstJoined].sort() };
}

const DATASETS = ['aclue', 'cmmlu-ancient', 'ac-eval'] as const;
/** Pairs (item contexts only: the bare cue never joins) where Qwen3 joins the cue to the option, the same at 0 and 5 shots. */
const QWEN_JOINED: Record<(typeof DATASETS)[number], number> = { aclue: 376, 'cmmlu-ancient': 22, 'ac-eval': 276 };
const FULL = process.env.JIANGU_FULL_TOKENIZER_CHECK === '1';
const PER_TASK = 12;
/** Items per task a case checks: all, or PER_TASK (see clozePairs). */
const perTaskFor = (id: DatasetId, shots: number, qwen: boolean) => (FULL || id === 'cmmlu-ancient' || (qwen && shots === 0) ? Infinity : PER_TASK);

describeWithSharedData('encodePair on every cloze prompt of the shared benchmarks', (root) => {
  const items = new Map<DatasetId, MultipleChoiceItem[]>();
  beforeAll(() => {
    for (const id of DATASETS) items.set(id, adaptDataset(id, readCatalogFiles(root, id)).items.filter((i): i is MultipleChoiceItem => i.kind === 'multiple-choice'));
  });

  describe('the real Qwen3 tokenizer', () => {
    let tokenizer: PreTrainedTokenizer;
    beforeAll(async () => {
      tokenizer = await loadQwen3Tokenizer();
    });
    for (const id of DATASETS) {
      for (const shots of [0, 5]) {
        it(`${id}, ${shots}-shot`, () => {
          const perTask = perTaskFor(id, shots, true);
          const pairs = clozePairs(items.get(id)!, id, shots, perTask);
          const outcome = checkAll(tokenizer, pairs);
          expect(outcome.checked).toBe(pairs.length);
          if (perTask === Infinity) expect(outcome.joined).toBe(QWEN_JOINED[id]);
          else expect(outcome.joined).toBeLessThanOrEqual(QWEN_JOINED[id]);
          expect(outcome.firstJoined.every((ch) => /^\p{P}$/u.test(ch))).toBe(true);
        }, 300_000);
      }
    }
  });

  describe.skipIf(!storiesPresent)('stories260K SentencePiece (with BOS)', () => {
    let tokenizer: PreTrainedTokenizer;
    beforeAll(async () => {
      tokenizer = await loadStories260kTokenizer();
      // The harness's tok_encode adds the tokenizer's BOS; so does encode(…, true).
      expect(encode(tokenizer, '答', true)[0]).toBe(JSON.parse(readFileSync(join(DEFAULT_OUT_ROOT, 'stories260k', 'config.json'), 'utf8')).bos_token_id);
    });
    for (const id of DATASETS) {
      for (const shots of [0, 5]) {
        it(`${id}, ${shots}-shot`, () => {
          const pairs = clozePairs(items.get(id)!, id, shots, perTaskFor(id, shots, false));
          const outcome = checkAll(tokenizer, pairs);
          expect(outcome.checked).toBe(pairs.length);
          // SentencePiece has no pre-tokenizer that joins punctuation: the context is always a prefix.
          expect(outcome.joined).toBe(0);
        }, 300_000);
      }
    }
  });
});
