// Field classes of the lm-eval format (see field-class.ts): what lm-evaluation-harness writes, read by
// lm-eval/import/*. Paths: a results_<date>.json (or the dict simple_evaluate returns, dumped) from
// its top level; `<task>` stands for a harness task name; a line of samples_<task>_<date>.jsonl is
// `samples.<task>[*]`, as the same record is in a dumped dict; `.*` stands for any keys below.
// The harness writes much the import does not read: those fields are listed as raw with "not read"
// (nothing of them is stored or shown). The bounds are RAW_BOUNDS (import-validate.ts).
import { claim, compared, raw, recomputed, type FieldTable } from './field-class.ts';

const NOT_READ = 'not read: nothing of it is stored or shown';
const NOT_READ_BESIDE_FILTERED = 'not read where the sample has filtered_resps';
const SHORT = 'a name, cut to RUN_IMPORT_LIMITS.shortChars characters without invisible characters (lm-eval import shortName)';
const S = 'samples.<task>[*]';
const LOGLIK =
  'a finite log-likelihood (a number, or its Python repr as a string), ≤ 0 and at least lowestLogLikelihood(the continuation\'s UTF-8 bytes) = RAW_BOUNDS.tokenLogProb × min(bytes + 16, RAW_BOUNDS.contextTokens = 2^17): one token\'s lowest times the most tokens the continuation can be, never more than the largest context; 2 to 4 per sample';

export const LM_EVAL_FIELDS: FieldTable = {
  // Per-sample records: what the run's results are made of.
  [`${S}.doc_id`]: raw('an integer (or its string) from 0 to RUN_IMPORT_LIMITS.results − 1, once per task: no task has more documents'),
  [`${S}.doc.*`]: raw('the item as the harness saw it: checked against the stored item (lm-eval-docs.ts) and its doc_hash; a Jiangu doc\'s jiangu_id and jiangu_rotation name the item and its order, and in a sampled run\'s export jiangu_index its place in its task, from which the sample is drawn again (lm-eval-sample.ts)'),
  [`${S}.doc_hash`]: raw('sha256 of the doc as Python writes it, compared with the doc (lm-eval-files.ts checkDocHashes)', `${S}.doc.*`),
  [`${S}.prompt_hash`]: raw('sha256 of the prompt; compared with the recomputation, a disagreement said in a warning (import.prompt-hash-disagrees)', `${S}.arguments.*`),
  [`${S}.target_hash`]: raw('sha256 of the target as written; enters task_hashes'),
  [`${S}.target`]: raw('the gold choice: an index below the choice count (or its string) or a letter; "" for a doc without a key'),
  [`${S}.arguments.*`]: raw(
    'the requests: the prompt (free text of at most RUN_IMPORT_LIMITS.textChars) and each choice\'s continuation, " A" … " D" or the doc\'s option text (cloze), one per response',
    `${S}.filtered_resps[*]`,
  ),
  [`${S}.arguments[*][*]`]: raw('the requests as [context, continuation] (a dict dumped by hand): as arguments.*', `${S}.filtered_resps[*]`),
  // Every harness version that writes filtered_resps reads the scores from it: resps is read only without it.
  [`${S}.resps[*][*]`]: raw(`${NOT_READ_BESIDE_FILTERED}; else ${LOGLIK}`),
  [`${S}.resps[*][*][*]`]: raw(`${NOT_READ_BESIDE_FILTERED}; else ${LOGLIK}, or is_greedy`),
  [`${S}.filtered_resps[*]`]: raw(LOGLIK),
  [`${S}.filtered_resps[*][*]`]: raw(`${LOGLIK}; or is_greedy, True or False`),
  // The harness's per-sample scores: recomputed from the log-likelihoods (the prediction is their
  // argmax, `correct` from it and the target); a letter sample's acc that disagrees is said in a
  // warning (import.acc-disagrees), a cloze sample's acc, acc_norm or acc_bytes is refused.
  [`${S}.acc`]: compared(`${S}.filtered_resps[*]`, `${S}.target`),
  // A letter task's: 0 or 1, not compared (its choices are letters); a cloze task's: compared.
  [`${S}.acc_norm`]: compared(`${S}.filtered_resps[*]`, `${S}.target`, `${S}.doc.*`),
  [`${S}.acc_bytes`]: compared(`${S}.filtered_resps[*]`, `${S}.target`, `${S}.doc.*`),
  [`${S}.exact_match`]: recomputed(`${S}.filtered_resps[*]`, `${S}.doc.*`),
  [`${S}.filter`]: raw(NOT_READ),
  [`${S}.metrics[*]`]: raw(NOT_READ),

  // What the results file says of the run, read leniently (a field of another version is not a reason to refuse).
  'config.model': raw(`${SHORT}: the harness's --model, shown as what ran it`),
  'config.device': raw(SHORT),
  'config.model_args': raw('pretrained, revision, dtype and max_length (an integer from 1 to RAW_BOUNDS.tokens) are read; the rest not'),
  'config.model_sha': raw('40 lower-case hex digits, else not read'),
  'config.model_revision': raw(SHORT),
  'config.model_dtype': raw('a dtype name; one this site has no name for is said in a warning'),
  'config.limit': raw('--limit: a finite number from 0 to RAW_BOUNDS.harnessNumber (10^9); as items per task only an integer up to RUN_IMPORT_LIMITS.results'),
  'config.*': raw(NOT_READ),
  'configs.<task>.*': raw(
    'the task\'s configuration: num_fewshot (an integer from 0 to 1,000, else unstated), fewshot_split and fewshot_config.sampler (exemplar ids), metadata.jiangu (lm-eval-jiangu-tasks.ts: its protocol, template hash, data hashes and shots checked; a sampled run\'s export: its sampling, each field in range, drawn again over the docs\' jiangu_index and recorded only when the docs are that sample); the rest not read',
  ),
  'n-shot.<task>': raw('an integer from 0 to 1,000 (a string of one, or absent: unstated, said in a warning)'),
  'versions.<task>': raw(`${SHORT}, or a finite number from 0 to RAW_BOUNDS.harnessNumber (10^9)`),
  // Checked against the samples: the count written, and sha256 of every sample's three hashes.
  'n-samples.<task>.effective': compared(`${S}.doc_id`),
  'n-samples.<task>.original': compared(`${S}.doc_id`),
  'n-samples.*': raw('integers from 0 to RUN_IMPORT_LIMITS.results: counts of docs'),
  'task_hashes.<task>': compared(`${S}.doc_hash`, `${S}.prompt_hash`, `${S}.target_hash`),
  // What the harness says each task scored: kept as its claim beside the recomputation from the samples.
  'results.<task>.acc,none': claim('a finite number from 0 to 1 (or its string), else refused naming it', `${S}.filtered_resps[*]`, `${S}.target`),
  'results.<task>.*': raw(NOT_READ),
  'groups.*': raw(NOT_READ),
  'group_subtasks.*': raw(NOT_READ),
  'higher_is_better.*': raw(NOT_READ),
  date: raw('Unix seconds from 0 to 253,402,300,800 (year 9999); absent or of another kind: the import\'s own time'),
  lm_eval_version: raw(SHORT),
  chat_template: raw('a string: whether a chat template was applied'),
  model_name: raw(SHORT),
  max_length: raw('an integer from 1 to RAW_BOUNDS.tokens: the context the harness truncated to'),
  system_instruction: raw(`${SHORT}, said in a warning`),
  chat_template_sha: raw(NOT_READ),
  system_instruction_sha: raw(NOT_READ),
  eot_token_id: raw(NOT_READ),
  fewshot_as_multiturn: raw(NOT_READ),
  git_hash: raw(NOT_READ),
  upper_git_hash: raw(NOT_READ),
  model_name_sanitized: raw(NOT_READ),
  model_source: raw(NOT_READ),
  pretty_env_info: raw(NOT_READ),
  'tokenizer_bos_token[*]': raw(NOT_READ),
  'tokenizer_eos_token[*]': raw(NOT_READ),
  'tokenizer_pad_token[*]': raw(NOT_READ),
  total_evaluation_time_seconds: raw(NOT_READ),
  transformers_version: raw(NOT_READ),
};
