// The six datasets: where each comes from (repository and pinned commit), its license and whom to
// credit, the files to download with their pinned hashes, and its tasks. Download URLs are built
// here and nowhere else.
import {
  AC_EVAL_GROUPS,
  AC_EVAL_TASKS,
  ACLUE_GROUPS,
  ACLUE_TASKS,
  ANCIENTBENCH_GROUPS,
  ANCIENTBENCH_TASKS,
  C3BENCH_TASKS,
  CMMLU_ANCIENT_TASKS,
  WENMIND_GROUPS,
  WENMIND_TASKS,
  type TaskGroup,
  type TaskInfo,
} from './catalog-tasks.ts';
import { AC_EVAL_FILES, ACLUE_FILES, CMMLU_ANCIENT_FILES, WENMIND_FILES, type PinnedFile } from './catalog-files.ts';
import { jianguError } from '../notices/index.ts';
import type { DatasetId } from './types.ts';

export type { TaskGroup, TaskInfo } from './catalog-tasks.ts';

export interface CatalogFile {
  /** Path inside the upstream repository at the pinned commit. */
  path: string;
  /** Null where the file could not be inspected (C3Bench): the caller records the hash of the first download. */
  sha256: string | null;
  bytes: number | null;
}

export interface Attribution {
  authors: string;
  paper: string;
  url: string;
}

export type GroupKind = 'category' | 'supercategory' | 'competency' | 'domain';

export interface DatasetInfo {
  id: DatasetId;
  title: string;
  /** GitHub owner/name; null where the data is not public (AncientBench: the user's own file only). */
  repository: string | null;
  commit: string | null;
  /** The licence line as stored with the data (English). */
  license: string;
  /** The licence line in each interface language: a licence's name stays as it is, a sentence is translated. */
  licenseText: { en: string; zh: string };
  attribution: Attribution;
  /**
   * The folder that holds this dataset in a mirror laid out like the shared data folder. Not always
   * the id: CMMLU's folder is `cmmlu-ancient_chinese` (only that subject was copied) while its id is
   * `cmmlu-ancient`.
   */
  mirrorFolder: string;
  /** `catalog`: downloadable from the pinned commit; `import`: from a file the user supplies. */
  origins: readonly ('catalog' | 'import')[];
  /** What a catalog download fetches; empty for import-only datasets. */
  files: readonly CatalogFile[];
  /** What the groups are called; null when tasks are not grouped. */
  groupKind: GroupKind | null;
  groups: readonly TaskGroup[];
  tasks: readonly TaskInfo[];
  /** False for AC-EVAL: its test answers are not released, so test runs give predictions only. */
  testAnswers: boolean;
}

const pinned = (files: readonly PinnedFile[]): CatalogFile[] => files.map(([path, sha256, bytes]) => ({ path, sha256, bytes }));
const CC_BY_NC_SA = 'CC BY-NC-SA 4.0';
const CC_BY_NC_SA_TEXT = { en: CC_BY_NC_SA, zh: CC_BY_NC_SA };

export const DATASETS: readonly DatasetInfo[] = [
  {
    id: 'aclue',
    title: 'ACLUE',
    repository: 'isen-zhang/ACLUE',
    commit: 'c05ab433d9b0709a77dfc2aeebdf1f0d0c615153',
    license: CC_BY_NC_SA,
    licenseText: CC_BY_NC_SA_TEXT,
    attribution: {
      authors: 'Yixuan Zhang, Haonan Li',
      paper: 'Can Large Language Model Comprehend Ancient Chinese? A Preliminary Test on ACLUE (ALP 2023, arXiv:2310.09550)',
      url: 'https://github.com/isen-zhang/ACLUE',
    },
    mirrorFolder: 'aclue',
    origins: ['catalog'],
    files: pinned(ACLUE_FILES),
    groupKind: 'category',
    groups: ACLUE_GROUPS,
    tasks: ACLUE_TASKS,
    testAnswers: true,
  },
  {
    id: 'cmmlu-ancient',
    title: 'CMMLU 古汉语 (ancient_chinese)',
    repository: 'haonan-li/CMMLU',
    commit: 'd6e7b716d8ac694f38969a6c0407437d1fded799',
    license: CC_BY_NC_SA,
    licenseText: CC_BY_NC_SA_TEXT,
    attribution: {
      authors: 'Haonan Li, Yixuan Zhang, Fajri Koto, Yifei Yang, Hai Zhao, Yeyun Gong, Nan Duan, Timothy Baldwin',
      paper: 'CMMLU: Measuring Massive Multitask Language Understanding in Chinese (Findings of ACL 2024, arXiv:2306.09212)',
      url: 'https://github.com/haonan-li/CMMLU',
    },
    mirrorFolder: 'cmmlu-ancient_chinese',
    origins: ['catalog'],
    files: pinned(CMMLU_ANCIENT_FILES),
    groupKind: null,
    groups: [],
    tasks: CMMLU_ANCIENT_TASKS,
    testAnswers: true,
  },
  {
    id: 'ac-eval',
    title: 'AC-EVAL',
    repository: 'yuting-wei/AC-EVAL',
    commit: '4a8be8fa84dbd77e2148aa4894c078a067cc1a7b',
    license: CC_BY_NC_SA,
    licenseText: CC_BY_NC_SA_TEXT,
    attribution: {
      authors: 'Yuting Wei, Yuanxing Xu, Xinru Wei, Simin Yang, Yangfu Zhu, Yuqing Li, Di Liu, Bin Wu',
      paper: 'AC-EVAL: Evaluating Ancient Chinese Language Understanding in Large Language Models (Findings of EMNLP 2024, arXiv:2403.06574)',
      url: 'https://github.com/yuting-wei/AC-EVAL',
    },
    mirrorFolder: 'ac-eval',
    origins: ['catalog'],
    files: pinned(AC_EVAL_FILES),
    groupKind: 'supercategory',
    groups: AC_EVAL_GROUPS,
    tasks: AC_EVAL_TASKS,
    testAnswers: false,
  },
  {
    id: 'wenmind',
    title: 'WenMind',
    repository: 'SCUT-DLVCLab/WenMind',
    commit: '91e8c05ac796f4f31ffaadacecd68daa2928f7e1',
    license: CC_BY_NC_SA,
    licenseText: CC_BY_NC_SA_TEXT,
    attribution: {
      authors: 'Jiahuan Cao et al. (SCUT-DLVCLab)',
      paper: 'WenMind: A Comprehensive Benchmark for Evaluating Large Language Models in Chinese Classical Literature and Language Arts (NeurIPS 2024 Datasets and Benchmarks)',
      url: 'https://github.com/SCUT-DLVCLab/WenMind',
    },
    mirrorFolder: 'wenmind',
    origins: ['catalog'],
    files: pinned(WENMIND_FILES),
    groupKind: 'domain',
    groups: WENMIND_GROUPS,
    tasks: WENMIND_TASKS,
    testAnswers: true,
  },
  {
    id: 'ancientbench',
    title: 'AncientBench',
    repository: null,
    commit: null,
    license: 'not public: the user supplies the file, under whatever terms they obtained it',
    licenseText: {
      en: 'not public: the user supplies the file, under whatever terms they obtained it',
      zh: '未公开：文件由用户自行提供，使用条件以用户取得时的约定为准',
    },
    attribution: {
      authors: 'Zhihan Zhou, Daqian Shi, Rui Song, Lida Shi, Xiaolei Diao, Hao Xu',
      paper: 'AncientBench: Towards Comprehensive Evaluation on Excavated and Transmitted Chinese Corpora (arXiv:2512.17756)',
      url: 'https://arxiv.org/abs/2512.17756',
    },
    mirrorFolder: 'ancientbench',
    origins: ['import'],
    files: [],
    groupKind: 'competency',
    groups: ANCIENTBENCH_GROUPS,
    tasks: ANCIENTBENCH_TASKS,
    testAnswers: true,
  },
  {
    id: 'c3bench',
    title: 'C³Bench',
    repository: 'SCUT-DLVCLab/C3bench',
    commit: '49b1913dcd0f54bbf67578b2c4f491de21443c72',
    license: 'none stated in the repository',
    licenseText: { en: 'none stated in the repository', zh: '仓库中未声明许可' },
    attribution: {
      authors: 'Jiahuan Cao, Yongxin Shi, Dezhi Peng, Yang Liu, Lianwen Jin',
      paper: 'C³Bench: A Comprehensive Classical Chinese Understanding Benchmark for Large Language Models (arXiv:2405.17732)',
      url: 'https://github.com/SCUT-DLVCLab/C3bench',
    },
    mirrorFolder: 'c3bench',
    origins: ['catalog', 'import'],
    // Never inspected (too large for the snapshot service): no hash to pin; see CatalogFile.sha256.
    files: [{ path: 'C3_bench.json', sha256: null, bytes: null }],
    groupKind: null,
    groups: [],
    tasks: C3BENCH_TASKS,
    testAnswers: true,
  },
];

const byId = new Map(DATASETS.map((dataset) => [dataset.id, dataset]));

export function listDatasets(): readonly DatasetInfo[] {
  return DATASETS;
}

export function getDataset(id: DatasetId): DatasetInfo {
  const dataset = byId.get(id);
  if (!dataset) throw jianguError('data.unknown-dataset', { id });
  return dataset;
}

export function findTask(id: DatasetId, taskKey: string): TaskInfo | undefined {
  return getDataset(id).tasks.find((task) => task.key === taskKey);
}

/** The group a task belongs to (ACLUE category, AncientBench competency, …), or null. */
export function groupOfTask(id: DatasetId, taskKey: string): TaskGroup | null {
  const dataset = getDataset(id);
  const groupKey = findTask(id, taskKey)?.group;
  return dataset.groups.find((group) => group.key === groupKey) ?? null;
}

/** Percent-encodes each segment of a repository path (file names are often Chinese). */
export function encodePath(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

/** `https://raw.githubusercontent.com/<owner>/<repo>/<commit>/<path>`; throws for datasets with no public repository. */
export function rawUrl(id: DatasetId, path: string): string {
  const dataset = getDataset(id);
  if (!dataset.repository || !dataset.commit) throw jianguError('data.no-repository', { id });
  return `https://raw.githubusercontent.com/${dataset.repository}/${dataset.commit}/${encodePath(path)}`;
}

/**
 * `<mirrorBase>/<mirror folder>/<original path>`, for a mirror laid out like the shared data folder
 * (one folder per dataset, upstream paths kept). The folder is DatasetInfo.mirrorFolder, not the id.
 */
export function mirrorUrl(mirrorBase: string, id: DatasetId, path: string): string {
  const base = mirrorBase.replace(/\/+$/, '');
  return `${base}/${encodeURIComponent(getDataset(id).mirrorFolder)}/${encodePath(path)}`;
}

/** Every file a catalog download fetches, with its URL (from the mirror when one is given). */
export function downloadPlan(id: DatasetId, mirrorBase?: string): (CatalogFile & { url: string })[] {
  return getDataset(id).files.map((file) => ({
    ...file,
    url: mirrorBase ? mirrorUrl(mirrorBase, id, file.path) : rawUrl(id, file.path),
  }));
}

/** One line to show and store with a dataset: authors, paper, URL, license. */
export function attributionText(id: DatasetId): string {
  const { attribution, license } = getDataset(id);
  return `${attribution.authors}. ${attribution.paper}. ${attribution.url}. License: ${license}.`;
}
