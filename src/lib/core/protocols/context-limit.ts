// The context limit a run's prompts are held to. A model cannot attend past the positions it was
// built for (a RoPE table of fixed length: position 2048 of a 2048-position model is out of range),
// so the model's own number, read from its config.json, is the ceiling; a user may ask for less.
import type { RunContextLimit } from '../record/run.ts';
import { DEFAULT_CONTEXT_LIMIT } from './build-prompt.ts';

/** What a model's config says about its positions: the number and the key it came from. */
export interface ModelContext {
  tokens: number;
  /** The config.json key, e.g. `max_position_embeddings`. */
  key: string;
}

/** config.json keys that state a model's positions, in the order they are trusted (llama/qwen, gpt2, others). */
export const CONTEXT_KEYS = ['max_position_embeddings', 'n_positions', 'max_sequence_length', 'seq_length', 'n_ctx', 'max_seq_len'] as const;

/** The model's positions from its config.json, or null when no usual key states a positive whole number. */
export function modelContextOf(config: Readonly<Record<string, unknown>>): ModelContext | null {
  for (const key of CONTEXT_KEYS) {
    const value = config[key];
    if (typeof value === 'number' && Number.isInteger(value) && value > 0) return { tokens: value, key };
  }
  return null;
}

/**
 * The applied limit: the smaller of the user's (when `asked` is 'user') and the model's; without a
 * user limit, the model's; with neither known, the default 2048 (the CMMLU and ACLUE codes' max_length).
 */
export function resolveContextLimit(asked: 'user' | 'default', askedTokens: number, model: ModelContext | null): RunContextLimit {
  const modelPositions = model?.tokens ?? null;
  if (asked === 'user' && (model === null || askedTokens <= model.tokens)) return { tokens: askedTokens, from: 'user', asked, modelPositions };
  if (model) return { tokens: model.tokens, from: `config.${model.key}`, asked, modelPositions };
  return { tokens: DEFAULT_CONTEXT_LIMIT, from: 'default', asked, modelPositions };
}

/**
 * What a page may say a recorded limit came from. `from: 'default'` is also what a run holds from
 * its creation until its model loads (run-setup.ts), and what a run whose model never loaded keeps;
 * only once config.json was read (`modelLoaded`: the run's environment is recorded, in the same update
 * as the applied limit) does `default` mean the config states no positions. `unread` says nothing of the file.
 */
export function limitSourceOf(limit: RunContextLimit, modelLoaded: boolean): 'user' | 'config' | 'default' | 'unread' {
  if (limit.from === 'user') return 'user';
  if (limit.from === 'default') return modelLoaded ? 'default' : 'unread';
  return 'config';
}
