// Field classes of the run-file format (format "jiangu-run", read by jiangu-run/import-jiangu.ts; see
// field-class.ts). Paths as the reader names them (`results[*].probs[*]`: every entry of every
// result's probs); `.*` stands for any keys below (a notice's parameters, a summary's keys). The
// bounds are RAW_BOUNDS and RUN_IMPORT_LIMITS (import-validate.ts), which say why each holds.
import { modelCheckFields } from './model-check.ts';
import { claim, compared, raw, recomputed, type FieldTable } from './field-class.ts';

const NAME = 'a name: at most RUN_IMPORT_LIMITS.shortChars characters, no invisible or direction character (text-safety.ts)';
const ID = `${NAME}, not empty`;
const TEXT = 'free text of at most RUN_IMPORT_LIMITS.textChars characters';
const DATE = 'an ISO 8601 date-time Date.parse reads, at most 40 characters';
const HASH = 'a sha256: 64 lower-case hex digits';
const BOOL = 'true or false';
const TOKENS = 'an integer from 0 to RAW_BOUNDS.tokens (2^24): no model has that many positions';
const TOKEN_ID = 'an integer from 0 to RAW_BOUNDS.tokenId (2^24): no vocabulary is that large';
const MS = 'a finite number of milliseconds from 0 to RAW_BOUNDS.ms (a week): no item runs longer';
const LETTER = 'one of the item\'s letters (A–D)';
const LETTER_LOG_PROB = 'a finite number from RAW_BOUNDS.tokenLogProb (−2^17, the lowest log softmax of a model whose logits are within fp16\'s range) to 0, one per letter, or none (generate-extract, a failed item)';
/** A stored notice: its code a name, its parameters JSON values, each number within ±RAW_BOUNDS.noticeNumber (1e12) and each text bounded. */
const NOTICE = 'a notice: its code a name, its parameters strings, booleans, null or numbers within ±RAW_BOUNDS.noticeNumber (1e12), or lists of them';
const SUMMARY_VALUE = 'null or a finite number from 0 to RAW_BOUNDS.summaryValue (200,000): a percent or a count of items';
const CLOZE_COUNT = 'per option, an integer from 1 to RUN_IMPORT_LIMITS.textChars (bytes: from its characters to 4 × its characters, UTF-8); replaced by the local option\'s own count when the benchmark is stored here (record/key-check.ts)';

/** The fields every multiple-choice result and rotation has; `at` is `results[*]` or `results[*].rotations[*]`. */
function mcScores(at: string, letterRun: boolean): Record<string, ReturnType<typeof raw> | ReturnType<typeof compared>> {
  return {
    [`${at}.promptHash`]: raw(`${HASH}, or '' for a failed item`),
    [`${at}.tokenCount`]: raw(TOKENS),
    [`${at}.letters[*]`]: raw(letterRun ? 'the item\'s own letters, in order' : '2 to 4 letters A–D, each once'),
    [`${at}.tokenIds[*]`]: raw(`${TOKEN_ID}, one per letter or none`, `${at}.letters[*]`),
    [`${at}.logProbs[*]`]: raw(
      letterRun
        ? LETTER_LOG_PROB
        : `${LETTER_LOG_PROB}; in a cloze run an option's summed log-likelihood: the same bound times the option's tokens (cloze.tokenCounts, else its UTF-8 bytes + 16, and never more than RAW_BOUNDS.contextTokens = 2^17, the largest context), and equal to cloze.logLikelihoods`,
      `${at}.letters[*]`,
    ),
    // The softmax over the letters: every p(gold), calibration chart, Brier score and Compare's Wilcoxon reads it.
    [`${at}.probs[*]`]: compared(`${at}.logProbs[*]`),
    // The highest letter (letter-logits, cloze's acc rule), or the extracted one (generate-extract: raw then).
    [`${at}.prediction`]: compared(`${at}.logProbs[*]`, `${at}.letters[*]`),
    [`${at}.gold`]: raw(`${LETTER} or null (no key); replaced by the local key when the benchmark is stored here (record/key-check.ts)`, `${at}.letters[*]`),
    [`${at}.correct`]: compared(`${at}.prediction`, `${at}.gold`),
    [`${at}.reusedPrefixTokens`]: raw(TOKENS),
    [`${at}.forwardMs`]: raw(MS),
    [`${at}.completedAt`]: raw(DATE),
    [`${at}.failure.code`]: raw(NOTICE),
    [`${at}.failure.params.*`]: raw(NOTICE),
    [`${at}.generated.output`]: raw(TEXT),
    [`${at}.generated.rule`]: raw(`${NAME}, or null`),
    [`${at}.generated.ambiguous`]: raw(BOOL),
  };
}

export const RUN_FILE_FIELDS: FieldTable = {
  format: raw('"jiangu-run"'),
  formatVersion: raw('1'),
  // What the file says its run scored: kept as its claim, compared key by key with runSummary of the
  // results (origin.summaryMismatches, listed on the run page); no number of the run is read from it.
  'summary.*': claim(SUMMARY_VALUE, 'results[*]'),

  'run.id': raw(ID),
  'run.createdAt': raw(DATE),
  'run.updatedAt': raw(DATE),
  'run.datasetId': raw('one of the catalog\'s datasets, and run.config.datasetId', 'run.config.datasetId'),
  'run.status': raw('one of the run statuses (a running run is stored as cancelled)'),
  'run.label': raw('the user\'s label: a name of at most RUN_LABEL_MAX characters'),
  'run.warnings[*]': raw(`a sentence of at most 20 × shortChars characters, or ${NOTICE}`),
  'run.warnings[*].code': raw(NOTICE),
  'run.warnings[*].params.*': raw(NOTICE),
  'run.error': raw('a sentence, or a notice'),
  'run.error.code': raw(NOTICE),
  'run.error.params.*': raw(NOTICE),
  // Descriptive only (model-check-read.ts): a check whose shape this version cannot read is dropped; its numbers are bounded.
  ...modelCheckFields('run.modelCheck'),

  'run.config.kind': raw('"multiple-choice" or "generation"'),
  'run.config.model.source.kind': raw('"hub" or "site"'),
  'run.config.model.source.id': raw(ID),
  'run.config.model.source.revision': raw(NAME),
  'run.config.model.source.host': raw(NAME),
  'run.config.model.source.name': raw(ID),
  'run.config.model.dtype': raw('one of the ONNX dtypes'),
  'run.config.model.backend': raw('auto, webgpu or wasm'),
  'run.config.protocolId': raw('the protocol of run.config.datasetId'),
  'run.config.protocolVersion': raw('an integer from 0 to 10^9'),
  'run.config.templateHash': raw(`${HASH} (or "lm-eval" in a run imported from the harness)`),
  'run.config.scoring': raw('letter-logits, generate-extract or cloze (never cloze with circular)'),
  'run.config.shots': raw('an integer from 0 to 1,000'),
  'run.config.contextLimit': raw(TOKENS),
  'run.config.prefixReuse': raw(BOOL),
  'run.config.chatTemplate': raw(BOOL),
  'run.config.datasetId': raw('one of the catalog\'s datasets'),
  'run.config.datasetFiles[*].path': raw(ID),
  'run.config.datasetFiles[*].sha256': raw(HASH),
  'run.config.tasks[*]': raw(`${ID}, each once`),
  'run.config.limitPerTask': raw('null or an integer from 0 to RUN_IMPORT_LIMITS.results'),
  'run.config.itemIds[*]': raw(`${ID}, each once, at most RUN_IMPORT_LIMITS.results`),
  'run.config.appVersion': raw(NAME),
  'run.config.thinking': raw('"off"'),
  'run.config.maxNewTokens': raw('an integer from 1 to RAW_BOUNDS.tokens'),
  'run.config.circular': raw(BOOL),
  'run.config.pride.share': raw('a finite number in (0, 1]'),
  'run.config.pride.seed': raw('an integer from 0 to 2^32 − 1'),
  // The items the seed draws at the share from the run's items: drawn again and compared.
  'run.config.pride.estimationItemIds[*]': compared('run.config.pride.seed', 'run.config.pride.share', 'run.config.itemIds[*]'),
  // The sample (issue 36; absent in older files): its sizes must give the items listed, and where this
  // browser holds the benchmark's files the seed's draw and order must give exactly run.config.itemIds
  // (data/run-sample-check.ts): a forged seed is refused, not shown as the sample it claims.
  'run.config.sampling.draw': raw('"random" or "first"'),
  'run.config.sampling.seed': raw('an integer from 0 to 2^32 − 1; its draw over the stored benchmark is compared with run.config.itemIds', 'run.config.itemIds[*]'),
  'run.config.sampling.order': raw('"shuffled" or "file"', 'run.config.itemIds[*]'),
  'run.config.sampling.block': raw('an integer from 1 to RUN_IMPORT_LIMITS.results', 'run.config.itemIds[*]'),
  'run.config.sampling.growth': raw('a finite number from 1 to 64', 'run.config.itemIds[*]'),
  'run.config.sampling.maxBlock': raw('an integer from 1 to RUN_IMPORT_LIMITS.results', 'run.config.itemIds[*]'),
  'run.config.sampling.population.*': raw('per task of run.config.tasks (no other key) an integer from 0 to RUN_IMPORT_LIMITS.results, Σ min(limitPerTask, N) = the number of run.config.itemIds; compared with the stored tasks\' sizes', 'run.config.itemIds[*]', 'run.config.limitPerTask', 'run.config.tasks[*]'),
  'run.config.stopRule.kind': raw('"precision" or "sign-settled"'),
  'run.config.stopRule.alpha': raw('a finite number strictly between 0 and 1'),
  'run.config.stopRule.halfWidth': raw('a finite number in (0, 1] (precision only)'),
  'run.config.stopRule.baselineRunId': raw(`${ID} (sign-settled only): the maker's run id, shown, never looked up`),
  'run.config.decoding.kind': raw('"greedy" or "sample"'),
  'run.config.decoding.topK': raw('an integer from 1 to RAW_BOUNDS.tokenId'),
  'run.config.decoding.topP': raw('a finite number from 0 to 1'),
  'run.config.decoding.seed': raw('an integer from 0 to 2^53 − 1'),

  'run.environment.backendInfo.backend': raw('webgpu or wasm'),
  'run.environment.backendInfo.wasmThreads': raw('an integer from 0 to 1,024'),
  'run.environment.backendInfo.crossOriginIsolated': raw(BOOL),
  'run.environment.backendInfo.adapter.vendor': raw(NAME),
  'run.environment.backendInfo.adapter.architecture': raw(NAME),
  'run.environment.backendInfo.adapter.device': raw(NAME),
  'run.environment.backendInfo.adapter.description': raw(NAME),
  'run.environment.backendInfo.adapter.isFallbackAdapter': raw(BOOL),
  'run.environment.backendInfo.adapter.shaderF16': raw(BOOL),
  'run.environment.backendInfo.fallbackReason': raw('text of at most 4 × shortChars characters'),
  'run.environment.backendInfo.fallbackNotice.code': raw(NOTICE),
  'run.environment.backendInfo.fallbackNotice.params.*': raw(NOTICE),
  'run.environment.modelInputNames[*]': raw(NAME),
  'run.environment.transformersVersion': raw(NAME),
  'run.environment.ortVersion': raw(NAME),
  'run.environment.userAgent': raw(NAME),
  'run.environment.resolvedRevision.commit': raw('40 lower-case hex digits, or null'),
  'run.environment.resolvedRevision.how': raw('pinned, response-header, hub-api or null'),
  'run.environment.resolvedRevision.note': raw('text of at most 4 × shortChars characters'),
  'run.environment.prefillRows': raw('null or an integer from 1 to 2^24'),
  'run.environment.logitsPath.kind': raw('native, rewritten or chunked'),
  'run.environment.logitsPath.refusal.code': raw(NOTICE),
  'run.environment.logitsPath.refusal.params.*': raw(NOTICE),
  'run.environment.logitsPath.check.tokens': raw('an integer from 1 to RAW_BOUNDS.tokens'),
  'run.environment.logitsPath.check.maxAbsDiff': raw('a finite number from 0 to RAW_BOUNDS.logProbGap (2^18): two logits within fp16\'s range differ by less'),
  'run.environment.statisticsPath.kind': raw('graph or worker'),
  'run.environment.statisticsPath.refusal.code': raw(NOTICE),
  'run.environment.statisticsPath.refusal.params.*': raw(NOTICE),
  'run.environment.statisticsPath.check.tokens': raw('an integer from 1 to RAW_BOUNDS.tokens'),
  'run.environment.statisticsPath.check.maxAbsDiff': raw('a finite number from 0 to RAW_BOUNDS.logProbGap'),

  'run.check.itemIds[*]': raw(ID),
  'run.check.tolerance': raw('a finite number from 0 to RAW_BOUNDS.logProbGap'),
  'run.check.maxLogProbDiff': raw('a finite number from 0 to RAW_BOUNDS.logProbGap: two per-token log-probabilities differ by less'),
  'run.check.mismatchedPredictions[*]': raw(ID),
  'run.check.passed': raw(BOOL),
  'run.check.overridden': raw(BOOL),
  'run.letterTokens[*].letter': raw(ID),
  'run.letterTokens[*].tokenId': raw(TOKEN_ID),
  'run.letterTokens[*].singleToken': raw(BOOL),
  'run.letterTokens[*].aloneTokenIds[*]': raw(`${TOKEN_ID}, at most 16`),
  'run.contextLimit.tokens': raw('an integer from 1 to RAW_BOUNDS.tokens'),
  'run.contextLimit.from': raw('user, default or config.<key>'),
  'run.contextLimit.asked': raw('user or default'),
  'run.contextLimit.modelPositions': raw('null or an integer from 1 to RAW_BOUNDS.tokens'),
  'run.decodingOptions.do_sample': raw(BOOL),
  'run.decodingOptions.temperature': raw('a finite number from 0 to 100 (it divides the logits; above, every token is as likely)'),
  'run.decodingOptions.top_k': raw('an integer from 0 to RAW_BOUNDS.tokenId'),
  'run.decodingOptions.top_p': raw('a finite number from 0 to 1'),
  // The options this version always writes with one value (FIXED_DECODING): any other is refused.
  'run.decodingOptions.bad_words_ids': raw('FIXED_DECODING\'s value'),
  'run.decodingOptions.begin_suppress_tokens': raw('FIXED_DECODING\'s value'),
  'run.decodingOptions.forced_bos_token_id': raw('FIXED_DECODING\'s value'),
  'run.decodingOptions.forced_eos_token_id': raw('FIXED_DECODING\'s value'),
  'run.decodingOptions.guidance_scale': raw('FIXED_DECODING\'s value'),
  'run.decodingOptions.min_length': raw('FIXED_DECODING\'s value'),
  'run.decodingOptions.min_new_tokens': raw('FIXED_DECODING\'s value'),
  'run.decodingOptions.no_repeat_ngram_size': raw('FIXED_DECODING\'s value'),
  'run.decodingOptions.num_beams': raw('FIXED_DECODING\'s value'),
  'run.decodingOptions.repetition_penalty': raw('FIXED_DECODING\'s value'),
  'run.decodingOptions.suppress_tokens': raw('FIXED_DECODING\'s value'),

  // An earlier import's origin: its kind, file and date are said in a warning; its summary and
  // mismatches are dropped (this import compares the file's own summary again).
  'run.origin.kind': raw('jiangu-file or lm-eval'),
  'run.origin.fileName': raw(NAME),
  'run.origin.importedAt': raw(DATE),
  'run.origin.originalRunId': raw(`${NAME}, or null`),
  'run.origin.storedSummary.*': recomputed('summary.*', 'results[*]'),
  'run.origin.summaryMismatches[*].key': recomputed('summary.*', 'results[*]'),
  'run.origin.summaryMismatches[*].stored': recomputed('summary.*'),
  'run.origin.summaryMismatches[*].recomputed': recomputed('results[*]'),
  'run.origin.harnessTasks[*].name': raw(ID),
  'run.origin.harnessTasks[*].version': raw(`${NAME}, a finite number from 0 to RAW_BOUNDS.harnessNumber (10^9), or null`),
  'run.origin.harnessBackend.model': raw(NAME),
  'run.origin.harnessBackend.device': raw(`${NAME}, or null`),
  'run.origin.harnessLimit': raw('a finite number from 0 to RAW_BOUNDS.harnessNumber (10^9): a share below 1 or a count of docs'),

  // Every result: its run, item and place are checked against the run; a run may hold fewer results than items (a partial run).
  'results[*].runId': raw('run.id', 'run.id'),
  'results[*].itemId': raw('one of run.config.itemIds, once', 'run.config.itemIds[*]'),
  'results[*].task': raw('one of run.config.tasks', 'run.config.tasks[*]'),
  'results[*].index': raw('the item\'s position in run.config.itemIds', 'run.config.itemIds[*]'),
  'results[*].prompt': raw(TEXT),
  'results[*].shotsUsed': raw('an integer from 0 to 1,000'),
  'results[*].exemplarIds[*]': raw(`${ID}, at most 1,000`),
  ...mcScores('results[*]', false),
  'results[*].cloze.logLikelihoods[*]': raw(
    'per option, a finite number from RAW_BOUNDS.tokenLogProb × its tokens (cloze.tokenCounts, else its UTF-8 bytes + 16, at most RAW_BOUNDS.contextTokens) to 0, equal to the result\'s logProbs (every rule, p(gold), log p(gold) and bits per byte is computed from them)',
    'results[*].letters[*]',
    'results[*].logProbs[*]',
    'results[*].cloze.tokenCounts[*]',
    'results[*].cloze.byteCounts[*]',
  ),
  'results[*].cloze.tokenCounts[*]': raw('per option, an integer from 1 to RAW_BOUNDS.contextTokens (2^17 = 131,072, above every preset\'s positions): an option is scored inside one context'),
  'results[*].cloze.charCounts[*]': raw(CLOZE_COUNT),
  'results[*].cloze.byteCounts[*]': raw(CLOZE_COUNT),
  'results[*].cloze.isGreedy[*]': raw(`per option, ${BOOL}`),
  'results[*].cloze.unconditional[*]': raw('per option, within the same bound as its logLikelihoods'),
  'results[*].cloze.contextTokens': raw(TOKENS),
  'results[*].cloze.contextIsPrefix[*]': raw(`per option, ${BOOL}`),
  // A run paused within an item has fewer rotations than it asks (run-rotations.ts missingRotations): their count is raw.
  'results[*].rotations[*].rotation': raw('1, 2, … in order, below the item\'s letter count', 'results[*].letters[*]'),
  ...mcScores('results[*].rotations[*]', true),
  // The item's gold moved by the rotation: compared.
  'results[*].rotations[*].gold': compared('results[*].gold', 'results[*].rotations[*].rotation'),

  // Generation results.
  'results[*].generationTask': raw('how the dataset scores the task'),
  'results[*].output': raw(TEXT),
  'results[*].outputTokenIds[*]': raw(`${TOKEN_ID}, at most RUN_IMPORT_LIMITS.results`),
  'results[*].stoppedBy': raw('eos, max-tokens or cancelled'),
  'results[*].references[*]': raw(`${TEXT}, at least one`),
  'results[*].ms': raw(MS),
};
