// lm-evaluation-harness (EleutherAI), the format this folder speaks both ways, following the harness
// at commit 4e7e0d4 (test/fixtures/lm-eval/harness.py runs our folders as that commit does):
//  - export/: task folders we write for it (one YAML per task, utils.py, the items as JSON Lines, a
//    README), whose YAML `metadata.jiangu` says which Jiangu protocol they render;
//  - import/: what the harness writes with --log_samples, results_<date>.json and
//    samples_<task>_<date>.jsonl (or a zip of its output folder), read as untrusted input.
// This module is the task table both use: the harness's own ACLUE and CMMLU task names, and the
// metadata a task Jiangu exported carries. Its own module so that the results import and the
// recognition of Jiangu's exported tasks meet here, neither importing the other.
import type { RunSampling, StopRule } from '../../protocols/run-sampling.ts';
import type { DatasetId } from '../../benchmarks/types.ts';
import type { McProtocolId } from '../../protocols/mc-protocols.ts';

/** What a task Jiangu exported says of itself (its config's metadata.jiangu), once checked. */
export interface JianguTaskMeta {
  protocolId: McProtocolId | 'c3bench';
  /** Set for a generate_until task (the C3Bench protocol): the token limit the export asked for, greedy. */
  generation?: { maxNewTokens: number };
  templateHash: string;
  shots: number;
  app: string;
  dataFiles: { path: string; sha256: string }[];
  /** A circular export (issue 13): each item once per rotation of its options, `jiangu_rotation` in its docs. */
  circular?: true;
  /**
   * A cloze export (issue 25, `scoring: 'cloze'`): the option texts are the choices; `version` is the
   * cloze layout's (McProtocol.cloze.version), and templateHash is then the cloze template hash.
   */
  cloze?: { version: number };
  /**
   * A sampled run's export (issue 36): the run's sample as recorded, its limit, and this task's
   * population (N); each doc then carries `jiangu_index`, its place in the task (file order).
   */
  sampling?: JianguTaskSampling;
}

/** metadata.jiangu.sampling of one exported task (export/folder.ts samplingMeta). */
export interface JianguTaskSampling extends Pick<RunSampling, 'draw' | 'seed' | 'order' | 'block' | 'growth' | 'maxBlock'> {
  limitPerTask: number | null;
  population: number;
  /** The run's tasks in its order (absent in none written so far; then the catalog's). */
  tasks?: string[];
  /** A run its stop rule ended before its last item (issue 44): where, and the rest of its plan. */
  stop?: JianguTaskStop;
}

/** metadata.jiangu.sampling.stop of one exported task (export/run-sample.ts StopMeta). */
export interface JianguTaskStop {
  rule: StopRule;
  /** The run asked the first `asked` items of its planned order of `planned`. */
  asked: number;
  planned: number;
  /** This task's planned items the run did not ask, in file order. */
  unasked: string[];
  /** Tasks the run never started (not in the export), each with its N and planned items in file order. */
  unstarted?: Record<string, { population: number; unasked: string[] }>;
}

/** A harness task this site reads, and the dataset task it is. */
export interface HarnessTask {
  datasetId: DatasetId;
  task: string;
  /** Set for a task Jiangu exported (its config's metadata.jiangu): the protocol it renders. */
  jiangu?: JianguTaskMeta;
}

/**
 * lm-eval task name → dataset task. The ACLUE names are `aclue_` + the snake case of the catalog's
 * English name, except where the harness spells it differently (lm_eval/tasks/aclue/_generate_configs.py:
 * 古诗词曲鉴赏 is `poetry_appreciate`). Written out rather than derived, so a renamed catalog entry
 * cannot silently change what a file maps to.
 */
export const LM_EVAL_TASKS: Readonly<Record<string, HarnessTask>> = {
  cmmlu_ancient_chinese: { datasetId: 'cmmlu-ancient', task: 'ancient_chinese' },
  aclue_polysemy_resolution: { datasetId: 'aclue', task: '古文单字多义' },
  aclue_homographic_character_resolution: { datasetId: 'aclue', task: '通假字' },
  aclue_named_entity_recognition: { datasetId: 'aclue', task: '古汉语命名体识别' },
  aclue_sentence_segmentation: { datasetId: 'aclue', task: '古文断句' },
  aclue_couplet_prediction: { datasetId: 'aclue', task: '对联' },
  aclue_poetry_context_prediction: { datasetId: 'aclue', task: '古诗词上下句预测' },
  aclue_poetry_quality_assessment: { datasetId: 'aclue', task: '古诗词质量评估' },
  aclue_reading_comprehension: { datasetId: 'aclue', task: '古文阅读理解' },
  aclue_poetry_appreciate: { datasetId: 'aclue', task: '古诗词曲鉴赏' },
  aclue_poetry_sentiment_analysis: { datasetId: 'aclue', task: '诗词情感分类' },
  aclue_basic_ancient_chinese: { datasetId: 'aclue', task: '古汉语知识' },
  aclue_ancient_chinese_culture: { datasetId: 'aclue', task: '国学常识' },
  aclue_ancient_medical: { datasetId: 'aclue', task: '医古文' },
  aclue_ancient_literature: { datasetId: 'aclue', task: '古代文学知识' },
  aclue_ancient_phonetics: { datasetId: 'aclue', task: '古音学' },
};

