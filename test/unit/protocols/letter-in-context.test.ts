// The letter scored is the token that follows the answer cue, as CMMLU's code scores
// convert_tokens_to_ids("A"). A Llama-2-style SentencePiece tokenizer (a `▁` prepended to the text)
// encodes "A" alone as `▁A`, which is not what follows `答案是：`; transformers.js loads the
// hand-built tokenizer.json below as it would the hub's.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AutoTokenizer, env, type PreTrainedTokenizer } from '@huggingface/transformers';
import { beforeAll, describe, expect, it } from 'vitest';
import { letterInContext, type EncodeText } from '../../../src/lib/core/protocols/letter-tokens.ts';

const PIECES = ['<unk>', '<s>', '</s>', '▁', 'A', 'B', 'C', 'D', '▁A', '▁B', '▁C', '▁D', '答', '案', '是', '：', '答案', '▁答案'];
const VOCAB = Object.fromEntries(PIECES.map((piece, id) => [piece, id]));
const id = (piece: string): number => VOCAB[piece];

/** A Llama-2-style tokenizer.json: Prepend("▁") + Replace(" ", "▁") normalizer, BPE, BOS added. */
function sentencePieceTokenizer(): object {
  const special = (content: string, tokenId: number) => ({ id: tokenId, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true });
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: [special('<unk>', 0), special('<s>', 1), special('</s>', 2)],
    normalizer: { type: 'Sequence', normalizers: [{ type: 'Prepend', prepend: '▁' }, { type: 'Replace', pattern: { String: ' ' }, content: '▁' }] },
    pre_tokenizer: null,
    post_processor: {
      type: 'TemplateProcessing',
      single: [{ SpecialToken: { id: '<s>', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }],
      pair: [{ SpecialToken: { id: '<s>', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { Sequence: { id: 'B', type_id: 1 } }],
      special_tokens: { '<s>': { id: '<s>', ids: [1], tokens: ['<s>'] } },
    },
    decoder: { type: 'Sequence', decoders: [{ type: 'Replace', pattern: { String: '▁' }, content: ' ' }, { type: 'Fuse' }, { type: 'Strip', content: ' ', start: 1, stop: 0 }] },
    model: {
      type: 'BPE',
      dropout: null,
      unk_token: '<unk>',
      continuing_subword_prefix: null,
      end_of_word_suffix: null,
      fuse_unk: true,
      byte_fallback: false,
      vocab: VOCAB,
      merges: ['▁ A', '▁ B', '▁ C', '▁ D', '答 案', '▁ 答案'],
    },
  };
}

let tokenizer: PreTrainedTokenizer;
let encode: EncodeText;

beforeAll(async () => {
  const root = mkdtempSync(join(tmpdir(), 'jiangu-sp-'));
  mkdirSync(join(root, 'sp-letters'));
  writeFileSync(join(root, 'sp-letters', 'tokenizer.json'), JSON.stringify(sentencePieceTokenizer()));
  writeFileSync(
    join(root, 'sp-letters', 'tokenizer_config.json'),
    JSON.stringify({ tokenizer_class: 'LlamaTokenizer', add_bos_token: true, add_eos_token: false, legacy: false, bos_token: '<s>', eos_token: '</s>', unk_token: '<unk>' }),
  );
  env.localModelPath = `${root}/`;
  env.allowRemoteModels = false;
  tokenizer = await AutoTokenizer.from_pretrained('sp-letters');
  encode = (text, special) => tokenizer.encode(text, { add_special_tokens: special });
});

describe('a ▁-prepending SentencePiece tokenizer', () => {
  it('encodes "A" alone as ▁A, but 答案是：A ends with A', () => {
    expect(encode('A', false)).toEqual([id('▁A')]);
    expect(encode('答案是：A', true)).toEqual([id('<s>'), id('▁答案'), id('是'), id('：'), id('A')]);
  });

  it('the old rule (the letter encoded alone) reads ▁A; the rule in context reads A, for every letter', () => {
    const prompt = '答案是：';
    const promptIds = encode(prompt, true);
    for (const letter of ['A', 'B', 'C', 'D']) {
      const oldRule = encode(letter, false)[0];
      const found = letterInContext(encode, prompt, promptIds, letter);
      expect(oldRule).toBe(id(`▁${letter}`));
      expect(found).toEqual({ tokenId: id(letter), tokenCount: 1, idsInContext: [id(letter)], mergesWithPrompt: false, aloneIds: [id(`▁${letter}`)] });
    }
  });

  it('after a prompt ending in a space the letter merges with it (▁ + A → ▁A): flagged, its token alone', () => {
    const prompt = '答案是： ';
    const promptIds = encode(prompt, true);
    expect(promptIds.at(-1)).toBe(id('▁'));
    const found = letterInContext(encode, prompt, promptIds, 'A');
    expect(found).toMatchObject({ tokenId: id('▁A'), mergesWithPrompt: true });
  });
});

describe('letterInContext on plain encoders', () => {
  it('a letter that becomes two tokens after the prompt reports both', () => {
    const fake: EncodeText = (text) => (text.endsWith('A') ? [...Array.from(text.slice(0, -1), (c) => c.charCodeAt(0)), 900, 17] : Array.from(text, (c) => c.charCodeAt(0)));
    const found = letterInContext(fake, '答：', fake('答：', true), 'A');
    expect(found).toMatchObject({ tokenId: 900, tokenCount: 2, idsInContext: [900, 17], mergesWithPrompt: false });
  });
});
