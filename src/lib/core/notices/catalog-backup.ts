// Refusals of a backup file as a whole (lib/data/backup.ts, core/formats/backup/): each entry's own
// refusals are the run file's (catalog-import.ts), named by the entry's run id.
import { zhPlace } from './catalog-import-fields.ts';

/** A count as a reader writes it: 10,001 (en), 10,001 (zh). */
const grouped = (n: number) => n.toLocaleString('en');

const WHAT = {
  runs: { en: (n: number) => (n === 1 ? 'scoring run' : 'scoring runs'), zh: '次评测' },
  memorizationRuns: { en: (n: number) => (n === 1 ? 'memorization run' : 'memorization runs'), zh: '次记忆测试' },
};

export const backupRefusals = {
  /** `key`: the list that holds too many entries (`runs` or `memorizationRuns`). */
  'import.backup-too-many-entries': {
    en: (p: { key: 'runs' | 'memorizationRuns'; count: number; max: number }) =>
      `${p.key}: the backup holds ${grouped(p.count)} ${WHAT[p.key].en(p.count)}; a backup may hold at most ${grouped(p.max)} of each kind. Nothing was stored.`,
    zh: (p: { key: 'runs' | 'memorizationRuns'; count: number; max: number }) =>
      `${zhPlace(p.key)}：备份中有 ${grouped(p.count)} ${WHAT[p.key].zh}；每种最多 ${grouped(p.max)} 个。未存储任何内容。`,
  },
  /** An entry larger than a run file may be (RUN_IMPORT_LIMITS.bytes): the run file's limit holds through a backup too. */
  'import.backup-entry-too-large': {
    en: (p: { path: string; mib: string; limitMib: number }) => `${p.path}: this run is ${p.mib} MiB as a run file; the most a run file may be is ${p.limitMib} MiB, in a backup as on its own.`,
    zh: (p: { path: string; mib: string; limitMib: number }) => `${zhPlace(p.path)}：这次评测作为评测记录文件有 ${p.mib} MiB；评测记录文件最多 ${p.limitMib} MiB，在备份中也一样。`,
  },
};
