/**
 * The worker caches how each letter joins a prompt by mergeCheckKey (the prompt's last line). Proved
 * against real tokenizers: the real Qwen3 byte-level BPE and the stories260K SentencePiece BPE (Llama
 * 2's kind, converted from its GGUF): every prompt of a protocol with the same key joins each letter
 * exactly as encoding the whole prompt says, and one key covers a protocol's prompts, so the check
 * runs once per run. Prompts with other endings (English cues, a trailing space, a chat template)
 * are mixed in, so a key that lumps different endings together fails.
 */
import type { PreTrainedTokenizer } from '@huggingface/transformers';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSampleItems } from '../../../scripts/bench/mc-items.ts';
import { buildMcPrompt, getProtocol } from '../../../src/lib/core/protocols/index.ts';
import { letterInContext, type LetterInContext } from '../../../src/lib/core/protocols/letter-tokens.ts';
import { applyChatTemplate, encode } from '../../../workers/loaded-model.ts';
import { mergeCheckKey } from '../../../workers/scoring.ts';
import { loadQwen3Tokenizer } from '../qwen3-tokenizer.ts';
import { loadStories260kTokenizer, storiesPresent } from '../stories260k-tokenizer.ts';

const LETTERS = ['A', 'B', 'C', 'D'];
/** Endings a too coarse key would confuse with `答案是：`: each joins some letter differently somewhere. */
const OTHER_ENDINGS = ['Answer:', 'Answer: ', '答案是', '答案是： ', '选项', '\n', 'A', '答案是：A'];

function prompts(tokenizer: PreTrainedTokenizer, chatTemplate: boolean): string[] {
  const data = loadSampleItems();
  const texts: string[] = [];
  for (const protocolId of ['ancientbench', 'cmmlu', 'aclue'] as const) {
    for (const shots of [0, 5]) {
      for (const item of data.items.slice(0, 9)) {
        const built = buildMcPrompt(getProtocol(protocolId), item, data.exemplars[item.task] ?? [], shots);
        texts.push(built.prompt);
        for (const ending of OTHER_ENDINGS) texts.push(built.prompt.replace(/答案是：$/u, ending));
      }
    }
  }
  return chatTemplate ? texts.map((t) => applyChatTemplate(tokenizer, t)) : texts;
}

/** Groups the prompts by key and checks each letter joins every prompt of a group the same way. */
function checkGroups(tokenizer: PreTrainedTokenizer, texts: readonly string[]): Map<string, number> {
  const enc = (t: string, special: boolean) => encode(tokenizer, t, special);
  const first = new Map<string, LetterInContext[]>();
  const counts = new Map<string, number>();
  for (const text of texts) {
    const ids = enc(text, true);
    const found = LETTERS.map((letter) => letterInContext(enc, text, ids, letter));
    const key = mergeCheckKey(text);
    counts.set(key, (counts.get(key) ?? 0) + 1);
    const seen = first.get(key);
    if (!seen) first.set(key, found);
    else expect(found, `key ${JSON.stringify(key)}, prompt ending ${JSON.stringify(text.slice(-40))}`).toEqual(seen);
  }
  return counts;
}

describe('mergeCheckKey', () => {
  it('is the last line with its break when short, else the last 32 characters', () => {
    expect(mergeCheckKey('题目\nA. 甲\n答案是：')).toBe('\n答案是：');
    expect(mergeCheckKey('题目\n')).toBe('\n');
    expect(mergeCheckKey('答案是：')).toBe('答案是：');
    const long = `题目\n${'之'.repeat(40)}答案是：`;
    expect(mergeCheckKey(long)).toBe(long.slice(-32));
  });

  describe('the real Qwen3 tokenizer (byte-level BPE)', () => {
    let tokenizer: PreTrainedTokenizer;
    beforeAll(async () => {
      tokenizer = await loadQwen3Tokenizer();
    });

    it('groups only prompts that join each letter alike, one group per ending', () => {
      const counts = checkGroups(tokenizer, prompts(tokenizer, false));
      // 54 prompts per ending; '\n' and 'A' give keys of their own, all the rest are last lines.
      expect(counts.get('\n答案是：')).toBe(54);
      expect(counts.size).toBe(OTHER_ENDINGS.length + 1);
    });

    it('holds under the chat template too (the prompt ends with the assistant line)', () => {
      const counts = checkGroups(tokenizer, prompts(tokenizer, true));
      expect(counts.size).toBe(1);
    });
  });

  describe.skipIf(!storiesPresent)('stories260K (SentencePiece BPE with byte fallback)', () => {
    let tokenizer: PreTrainedTokenizer;
    beforeAll(async () => {
      tokenizer = await loadStories260kTokenizer();
    });

    it('groups only prompts that join each letter alike', () => {
      const counts = checkGroups(tokenizer, prompts(tokenizer, false));
      expect(counts.get('\n答案是：')).toBe(54);
    });
  });
});
