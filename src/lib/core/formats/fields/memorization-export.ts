// Field classes of the memorization-export format (see field-class.ts), as its reader
// (formats/memorization-run/import-memorization.ts) checks them. The file holds no derived number the
// page shows: Min-K% Prob, Min-K%++, their distributions, each file's t, p and Holm-adjusted p are
// recomputed from results[*].logprob/mean/std and the shards' log-likelihoods whenever shown
// (probeRunSummary). What is derived in the file is bookkeeping, compared and refused where it differs.
// A path covers the fields under it (a notice's code and parameters, a model check's rows).
import { modelCheckFields } from './model-check.ts';
import { compared, raw, type FieldTable } from './field-class.ts';

const NOTICE = raw('a notice: code a name, parameters of JSON kinds, each number within ±1e12 (RAW_BOUNDS.noticeNumber), each string bounded');
const DATE = raw('an ISO date from 2023-01-01 (before any release of the libraries Jiangu runs on) to a day after the import (MEMORIZATION_BOUNDS.earliest)');
const NAME = raw('a name: bounded, no invisible or direction character (text-safety.ts)');

export const MEMORIZATION_EXPORT_FIELDS: FieldTable = {
  format: raw('"jiangu-memorization-run"'),
  formatVersion: raw('1'),
  'run.id': NAME,
  'run.createdAt': DATE,
  'run.updatedAt': raw('an ISO date, not before run.createdAt, within the bounds of run.createdAt'),
  'run.datasetId': compared('run.config.datasetId'),
  'run.status': raw('one of the run statuses; "completed" only with every item\'s and shard\'s result (compared with the results\' count); "running" is imported as paused'),
  'run.warnings': NOTICE,
  'run.error': NOTICE,
  'run.environment': raw('the run file\'s environment (fields/run-file.ts): backend, threads, versions, each bounded'),
  'run.contextLimit': raw('tokens 1 to 2^24 (RAW_BOUNDS.tokens), from and asked of their sets, modelPositions 1 to 10^9 or null'),
  // Descriptive only (model-check-read.ts): a check of another shape is dropped; its numbers are bounded.
  ...modelCheckFields('run.modelCheck'),
  'run.label': raw('the user\'s label: a name of at most RUN_LABEL_MAX characters (record/run-label.ts)'),
  'run.origin.kind': raw('"jiangu-file" or "lm-eval"'),
  'run.origin.fileName': NAME,
  'run.origin.importedAt': DATE,
  'run.origin.originalRunId': NAME,
  'run.config.kind': raw('"memorization"'),
  'run.config.model': raw('a site model folder or a hub id (names), a dtype and a backend of their sets'),
  'run.config.layoutVersion': raw('1: the one text layout (probe-text.ts LAYOUT_VERSION)'),
  'run.config.templateHash': compared('run.config.layoutVersion'),
  'run.config.datasetId': raw('one of the catalog\'s datasets'),
  'run.config.datasetFiles[*].path': NAME,
  'run.config.datasetFiles[*].sha256': raw('64 lower-case hex digits'),
  'run.config.tasks[*]': raw('a multiple-choice task of run.config.datasetId in the catalog, each once'),
  'run.config.limitPerTask': raw('null or 1 to 10^9; run.config.itemIds has at most limitPerTask × tasks entries'),
  'run.config.itemIds[*]': raw('a non-empty name, each once, at most 200,000 (RUN_IMPORT_LIMITS.results)'),
  'run.config.k': raw('a fraction in (0, 1] (checkK)'),
  'run.config.contextLimit': raw('1 to 2^24 tokens (RAW_BOUNDS.tokens)'),
  'run.config.exchangeability[*].task': raw('one of run.config.tasks[*], each file once'),
  'run.config.exchangeability[*].itemIds[*]': compared('run.config.itemIds[*]'),
  'run.config.exchangeability[*].design.itemCount': compared('run.config.exchangeability[*].itemIds[*]'),
  'run.config.exchangeability[*].design.shardCount': raw('2 to ⌊itemCount / 2⌋: two items a shard at least (exchangeability-plan.ts)'),
  'run.config.exchangeability[*].design.permutations': raw('1 to 250, the Evaluate page\'s most (MEMORIZATION_BOUNDS.permutationsMax)'),
  'run.config.exchangeability[*].design.seed': raw('0 to 2^32 − 1 (mulberry32\'s seed)'),
  'run.config.appVersion': NAME,
  'results[*].kind': raw('"item" or "shard"'),
  'results[*].runId': compared('run.id'),
  'results[*].itemId': compared('run.config.itemIds[*]', 'results[*].task', 'results[*].shard'),
  'results[*].task': raw('one of run.config.tasks (a shard: of the tested files); an item in a tested file: that file\'s task (compared)'),
  'results[*].index': compared('run.config.itemIds[*]', 'run.config.exchangeability[*].design.shardCount'),
  'results[*].text': raw('any text up to 1,000,000 characters (RUN_IMPORT_LIMITS.textChars)'),
  'results[*].textHash': compared('results[*].text'),
  'results[*].tokenCount': raw('0 to the context limit the run applied (run.contextLimit.tokens) for a scored item; 2 to 2^24 for a shard; results[*].logprob has tokenCount − 1 entries (compared)'),
  'results[*].logprob[*]': raw('log p of a token, nats: −131,072 (RAW_BOUNDS.tokenLogProb, a logit gap) to 0.001 (float32 round-off above 0); results[*].tokenCount − 1 of them (compared), none for a failed item'),
  'results[*].mean[*]': raw('μ = −entropy, nats: −17 (−ln 2^24, the largest vocabulary) to 0.001; as many as logprob (compared)'),
  'results[*].std[*]': raw('σ of log p: 0 to 20 (below ln(vocabulary) + 2); as many as logprob (compared)'),
  'results[*].forwardMs': raw('0 to a week of milliseconds (RAW_BOUNDS.ms)'),
  'results[*].completedAt': DATE,
  'results[*].failure': NOTICE,
  'results[*].shard': raw('0 to run.config.exchangeability[*].design.shardCount − 1'),
  'results[*].canonical': raw('a sum of tokenCount log p\'s: tokenCount × [−131,072, 0.001]'),
  'results[*].permuted[*]': raw('as canonical; run.config.exchangeability[*].design.permutations of them (compared); entries of one order repeated in the plan (run.config.exchangeability[*].design.seed draws it) equal (compared: the scheduler scores an order once)'),
};
