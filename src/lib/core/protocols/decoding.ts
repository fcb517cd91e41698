// The options every generation passes to transformers.js's generate(). transformers.js merges the
// model's generation_config.json under the caller's options, and the hub's instruction models set
// do_sample, temperature, top_k, top_p and a repetition_penalty there; so a "greedy" call that names
// only do_sample:false still penalises repeats. Every option that changes which token is picked is
// named here, so greedy is plain argmax and sampling is exactly the paper's, whatever the model ships.
// The object is plain JSON: the run records it as the decoding actually used.

export interface SamplingChoice {
  topK: number;
  topP: number;
  temperature?: number;
}

export interface DecodingOptions {
  do_sample: boolean;
  num_beams: 1;
  temperature: number;
  top_k: number;
  top_p: number;
  repetition_penalty: 1;
  no_repeat_ngram_size: 0;
  min_length: 0;
  min_new_tokens: null;
  bad_words_ids: null;
  suppress_tokens: null;
  begin_suppress_tokens: null;
  forced_bos_token_id: null;
  forced_eos_token_id: null;
  guidance_scale: null;
}

/** The options that are the same in every run: no beams, no penalties, nothing suppressed or forced. */
export const FIXED_DECODING = {
  num_beams: 1,
  repetition_penalty: 1,
  no_repeat_ngram_size: 0,
  min_length: 0,
  min_new_tokens: null,
  bad_words_ids: null,
  suppress_tokens: null,
  begin_suppress_tokens: null,
  forced_bos_token_id: null,
  forced_eos_token_id: null,
  guidance_scale: null,
} as const satisfies Omit<DecodingOptions, 'do_sample' | 'temperature' | 'top_k' | 'top_p'>;

/** generate() options for greedy decoding (no `sampling`) or the given seeded sampling. */
export function decodingOptions(sampling?: SamplingChoice): DecodingOptions {
  return {
    ...FIXED_DECODING,
    do_sample: sampling !== undefined,
    // Read only when sampling; fixed anyway so the record says one thing.
    temperature: sampling?.temperature ?? 1,
    top_k: sampling?.topK ?? 0,
    top_p: sampling?.topP ?? 1,
  };
}
