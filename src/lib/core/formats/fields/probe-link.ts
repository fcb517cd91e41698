// Field classes of the probe-link format (see field-class.ts), as probe-link.ts reads them and
// probe-link-check.ts checks that they hold together. The page computes every summary it shows (the
// distribution of Min-K%++, its median and mean) from the rounded scores; each file's p is recomputed
// from its t and shard count and the link refused where it differs. Paths are the header's JSON
// fields; `scores` is also the packed codes after the header.
import { compared, raw, type FieldTable } from './field-class.ts';

const NAME = raw('a string of at most 500 characters (SHARE_LIMITS.stringChars), no invisible or direction character');

export const PROBE_LINK_FIELDS: FieldTable = {
  kind: raw('"memorization"'),
  datasetId: raw('one of the catalog\'s datasets'),
  createdAt: raw('an ISO date from 2023-01-01 (PROBE_LINK_BOUNDS.earliest) to a day after the link is read'),
  'environment.backend': raw('"webgpu" or "wasm"'),
  'environment.adapterArchitecture': NAME,
  'environment.modelCommit': raw('40 lower-case hex digits'),
  scores: raw('the header: LINK_SCORE_SIGNATURE exactly; the packed codes: two bytes an item (config.itemCount of them, compared), each a rounded Min-K%++ within ±4096 hundredths (±40.96, link-scores.ts) or −32768 for none'),
  'config.model.source.kind': raw('"hub" or "site"'),
  'config.model.source.id': NAME,
  'config.model.source.revision': NAME,
  'config.model.source.host': raw('an http(s) URL (never contacted: a reproduction loads the hub model)'),
  'config.model.source.name': raw('a site model folder name (isSiteModelName)'),
  'config.model.dtype': raw('one of the dtypes'),
  'config.model.backend': raw('"auto", "webgpu" or "wasm"'),
  'config.layoutVersion': raw('1 to 1,000'),
  'config.templateHash': raw('a sha256; compared with the layout\'s when reproduced'),
  'config.datasetId': compared('datasetId'),
  'config.datasetFiles[*].path': NAME,
  'config.datasetFiles[*].sha256': raw('a sha256; compared with the stored files\' when reproduced (checkSharedData)'),
  'config.tasks[*]': raw('a multiple-choice task of datasetId in the catalog, each once'),
  'config.limitPerTask': raw('null or 1 to 10^9; config.itemCount ≤ limitPerTask × tasks (compared)'),
  'config.itemCount': raw('0 to 100,000 (SHARE_LIMITS.predictions); at most config.limitPerTask × the number of config.tasks[*] (compared); a link of 0 items is shown saying it has none'),
  // The sender's item ids, which the link does not carry: no number shown; a reproduction rebuilds the ids and refuses other ones (link.other-items).
  'config.itemIdsHash': raw('a sha256; compared with the hash of the ids rebuilt here when reproduced'),
  'config.k': raw('a fraction in (0, 1]'),
  'config.contextLimit': raw('1 to 2^24 tokens'),
  'config.appVersion': NAME,
  'files[*].task': raw('one of config.tasks[*], each file once'),
  'files[*].design.itemCount': raw('4 to config.itemCount; the files\' together at most config.itemCount, each at most config.limitPerTask (compared)'),
  'files[*].design.shardCount': raw('2 to ⌊files[*].design.itemCount / 2⌋ (two items a shard)'),
  'files[*].design.permutations': raw('1 to 250 (PROBE_LINK_BOUNDS.permutations, the Evaluate page\'s most)'),
  'files[*].design.seed': raw('0 to 2^32 − 1'),
  'files[*].meanDifference': raw('null (no result) or within ±2^41 nats (PROBE_LINK_BOUNDS.meanDifference)'),
  'files[*].statistic': raw('null with files[*].pValue, or within ±√m · 10^12 (PROBE_LINK_BOUNDS.tPerRootShard), of the sign of files[*].meanDifference (compared)'),
  'files[*].pValue': compared('files[*].statistic', 'files[*].design.shardCount'),
};
