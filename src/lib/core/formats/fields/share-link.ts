// Field classes of the share-link format (see field-class.ts): a scoring run's link (#/shared/…), as
// share-link.ts, share-validate.ts, share-rotations.ts and share-check.ts read and check it. The
// summary is the sharer's numbers: each in its range (a percent, a count of the link's items) and
// shown marked unchecked until the stored benchmark recomputes it from the link's letters (SharedPage
// compares the two and names a difference); its item count is compared with the letters here.
// `predictions` is the packed letters after the header.
import { compared, raw, type FieldTable } from './field-class.ts';

const NAME = raw('a string of at most 500 characters (SHARE_LIMITS.stringChars), no invisible or direction character');
const PERCENT = raw('null or a percent, 0 to 100 (share-check.ts)');

export const SHARE_LINK_FIELDS: FieldTable = {
  kind: raw('"multiple-choice" or "generation"'),
  datasetId: compared('config.datasetId'),
  createdAt: raw('an ISO date from 2023-01-01 to a day after the link is read (SHARE_LINK_BOUNDS.earliest)'),
  'environment.backend': raw('"webgpu" or "wasm"'),
  'environment.adapterArchitecture': NAME,
  'environment.modelCommit': raw('40 lower-case hex digits'),
  'summary.overall': PERCENT,
  'summary.pooled': PERCENT,
  'summary.items': compared('n', 'predictions'),
  'summary.failed': raw('an integer from 0 to config.itemCount'),
  // task:<key>, group:<key>, shots:fewer, shots:fewest: the only other keys a run summary has.
  summary: raw('keys task:<one of config.tasks[*]> and group:<a group of the benchmark> (percents, 0 to 100), shots:fewer (0 to config.itemCount), shots:fewest (0 to config.shots); no other key'),
  'config.kind': raw('the link\'s kind'),
  'config.model.source.kind': raw('"hub" or "site"'),
  'config.model.source.id': NAME,
  'config.model.source.revision': NAME,
  'config.model.source.host': raw('an http(s) URL, contacted only once the user agrees'),
  'config.model.source.name': raw('a site model folder name (isSiteModelName)'),
  'config.model.dtype': raw('one of the dtypes'),
  'config.model.backend': raw('"auto", "webgpu" or "wasm"'),
  'config.protocolId': compared('config.datasetId'),
  'config.protocolVersion': raw('0 to 10^9; compared with this version\'s when reproduced'),
  'config.templateHash': raw('a sha256; compared with the protocol\'s when reproduced'),
  'config.chatTemplate': raw('true or false'),
  'config.datasetId': raw('one of the catalog\'s datasets'),
  'config.datasetFiles[*].path': NAME,
  'config.datasetFiles[*].sha256': raw('a sha256; compared with the stored files\' when reproduced'),
  'config.tasks[*]': raw('a task of config.datasetId of the link\'s kind in the catalog, each once'),
  'config.limitPerTask': raw('null or 0 to 10^9'),
  'config.itemCount': raw('0 to 100,000 (SHARE_LIMITS.predictions); with config.sampling, Σ min(limitPerTask, N) of its population', 'config.sampling.population'),
  'config.itemIdsHash': raw('a sha256; compared with the hash of the ids rebuilt here when reproduced'),
  'config.appVersion': NAME,
  'config.thinking': raw('"off"'),
  'config.scoring': raw('"letter-logits", "generate-extract" or "cloze" (cloze: neither circular nor PriDe)'),
  'config.shots': raw('0 to 1,000'),
  'config.contextLimit': raw('0 to 10^9'),
  'config.prefixReuse': raw('true or false'),
  'config.maxNewTokens': raw('1 to 10^9'),
  'config.circular': raw('true or false'),
  'config.pride.share': raw('a fraction in (0, 1]'),
  'config.pride.seed': raw('−2^31 to 2^32 − 1'),
  'config.pride.estimationCount': raw('0 to config.itemCount'),
  'config.pride.estimationIdsHash': raw('a sha256; compared with the set the draw rebuilds when reproduced'),
  // The sample (issue 36), absent in older links: rebuilt here from the tasks' items and compared by itemIdsHash (shared-items.ts).
  'config.sampling.draw': raw('"random" or "first"'),
  'config.sampling.seed': raw('0 to 2^32 − 1; the items it draws here are compared with config.itemIdsHash when the link is opened'),
  'config.sampling.order': raw('"shuffled" or "file"'),
  'config.sampling.block': raw('1 to 10^9'),
  'config.sampling.growth': raw('1 to 64'),
  'config.sampling.maxBlock': raw('1 to 10^9'),
  'config.sampling.population': raw('one size (0 to 10^9) per task of config.tasks and no other key, giving config.itemCount (Σ min(limitPerTask, N)); compared with the stored tasks\' sizes when opened', 'config.itemCount', 'config.limitPerTask', 'config.tasks'),
  'config.stopRule.kind': raw('"precision" or "sign-settled"'),
  'config.stopRule.alpha': raw('a number strictly between 0 and 1'),
  'config.stopRule.halfWidth': raw('a share in (0, 1] (precision only)'),
  'config.stopRule.baselineRunId': raw('a string (sign-settled only): the sharer\'s run id, shown, never looked up'),
  'config.decoding': raw('greedy, or sample with topK 1 to 10^9, topP 0 to 1, seed 0 to 2^53 − 1'),
  n: raw('0 to config.itemCount: the letters carried'),
  gaps: raw('true or false; the packed bytes\' length is compared with it (one plane or two)'),
  predictions: raw('2-bit letters, ceil(n/4) bytes a plane (compared with n and gaps), statuses 0 to 2 (3 refused)'),
  rotations: raw('slots 1 to 3n, gaps true or false; the rotation planes\' sizes compared with them (share-rotations.ts)'),
  rotationsOmitted: raw('true, or absent; never with rotations'),
  outputsHash: raw('a sha256 of the outputs, which the link does not carry; compared with a reproduction\'s'),
  outputCount: raw('0 to config.itemCount'),
};
