// stories260K's tokenizer (SentencePiece BPE with byte fallback, Llama 2's kind), converted from the
// GGUF in ../shared/models into the fixture folder when it is not there yet, loaded by transformers.js.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { AutoTokenizer, env, type PreTrainedTokenizer } from '@huggingface/transformers';
import { DEFAULT_OUT_ROOT } from '../../scripts/fixtures/generate.ts';
import { generateStories260k, STORIES260K_GGUF } from '../../scripts/fixtures/stories260k.ts';

/** The checkpoint lies in ../shared/models (never committed); CI has it, so there tests must not skip. */
export const storiesPresent = existsSync(STORIES260K_GGUF) || (process.env.CI ?? '') !== '';

export async function loadStories260kTokenizer(): Promise<PreTrainedTokenizer> {
  if (!existsSync(join(DEFAULT_OUT_ROOT, 'stories260k', 'tokenizer.json'))) generateStories260k();
  env.localModelPath = `${DEFAULT_OUT_ROOT}/`;
  env.allowRemoteModels = false;
  return AutoTokenizer.from_pretrained('stories260k');
}
