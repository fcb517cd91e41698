// The records of the many-runs bench (scripts/bench/many-runs.ts): 10,000 made-up scoring runs, varied
// the way a browser's runs vary, and one big run, each built the way the site stores it and scored the
// way the engine scores it (test/fixtures/run-records/build.ts's makeMcRun and makeGenRun), no benchmark text.
import { makeGenRun, makeMcRun } from '../../test/fixtures/run-records/build.ts';
import type { DatasetId, OptionLetter } from '../../src/lib/core/benchmarks/types.ts';
import { AC_EVAL_TASKS, ACLUE_TASKS, ANCIENTBENCH_TASKS, CMMLU_ANCIENT_TASKS } from '../../src/lib/core/benchmarks/catalog-tasks.ts';
import { mulberry32 } from '../../src/lib/core/metrics/index.ts';
import { scoreLetters } from '../../src/lib/core/protocols/mc-scoring.ts';
import { protocolForDataset } from '../../src/lib/core/protocols/mc-protocols.ts';
import type { GenItemResult, GenRunRecord, ItemResult, McItemResult, McRunRecord, RunRecord, RunStatus } from '../../src/lib/core/record/run.ts';
import type { ModelSource } from '../../src/lib/core/models/model-types.ts';
import { storedRunRefusal } from '../../src/lib/core/record/stored-check.ts';
import { approxBytes } from '../../src/lib/store/sizes.ts';
// The records: makeMcRun / makeGenRun varied, each result scored the way the engine scores it.

const LETTERS: OptionLetter[] = ['A', 'B', 'C', 'D'];
// Classical characters to make up questions and options from (no benchmark text).
const CHARS = '天地玄黄宇宙洪荒日月盈昃辰宿列张寒来暑往秋收冬藏闰余成岁律吕调阳云腾致雨露结为霜金生丽水玉出昆冈剑号巨阙珠称夜光果珍李柰菜重芥姜海咸河淡鳞潜羽翔龙师火帝鸟官人皇始制文字乃服衣裳推位让国有虞陶唐吊民伐罪周发殷汤坐朝问道垂拱平章爱育黎首臣伏戎羌遐迩一体率宾归王鸣凤在竹白驹食场化被草木赖及万方盖此身发四大五常恭惟鞠养岂敢毁伤女慕贞洁男效才良知过必改得能莫忘罔谈彼短靡恃己长信使可覆器欲难量墨悲丝染诗赞羔羊景行维贤克念作圣德建名立形端表正空谷传声虚堂习听祸因恶积福缘善庆尺璧非宝寸阴是竞资父事君曰严与敬孝当竭力忠则尽命临深履薄夙兴温清似兰斯馨如松之盛川流不息渊澄取映容止若思言辞安定笃初诚美慎终宜令荣业所基籍甚无竟学优登仕摄职从政存以甘棠去而益咏';
export const text = (random: () => number, n: number) => {
  let s = '';
  for (let i = 0; i < n; i++) s += CHARS[Math.floor(random() * CHARS.length)];
  return s;
};
const hex64 = (random: () => number) => Array.from({ length: 64 }, () => '0123456789abcdef'[Math.floor(random() * 16)]).join('');
const pick = <T>(random: () => number, list: readonly T[]): T => list[Math.floor(random() * list.length)];

const MC_DATASETS: { id: DatasetId; tasks: string[]; file: string; answers: boolean }[] = [
  { id: 'aclue', tasks: ACLUE_TASKS.map((t) => t.key), file: 'data/test/古文单字多义.csv', answers: true },
  { id: 'ancientbench', tasks: ANCIENTBENCH_TASKS.map((t) => t.key), file: 'ancientbench.csv', answers: true },
  { id: 'cmmlu-ancient', tasks: CMMLU_ANCIENT_TASKS.map((t) => t.key), file: 'test/ancient_chinese.csv', answers: true },
  { id: 'ac-eval', tasks: AC_EVAL_TASKS.filter((t) => t.kind === 'multiple-choice').map((t) => t.key), file: 'test/historical_facts.jsonl', answers: false },
];
const MODELS: ModelSource[] = [
  { kind: 'hub', id: 'onnx-community/Qwen3-0.6B-ONNX', revision: 'main' },
  { kind: 'hub', id: 'onnx-community/Qwen2.5-0.5B-Instruct', revision: 'main' },
  { kind: 'hub', id: 'HuggingFaceTB/SmolLM2-135M-Instruct', revision: 'main' },
  { kind: 'hub', id: 'onnx-community/Qwen3-1.7B-ONNX', revision: 'main' },
  { kind: 'hub', id: 'onnx-community/gemma-3-270m-it-ONNX', revision: 'main' },
  { kind: 'site', name: 'jiangu-tiny' },
  { kind: 'site', name: 'jiangu-large' },
  { kind: 'site', name: 'stories260k' },
];
const DTYPES = ['q4', 'q8', 'fp16', 'fp32', 'q4f16'] as const;
// Mostly finished; some stopped, failed or left running by a tab that closed (listed as interrupted).
const STATUSES: [RunStatus, number][] = [['completed', 0.8], ['paused', 0.08], ['cancelled', 0.05], ['failed', 0.05], ['running', 0.02]];
export const FIRST = Date.parse('2025-01-01T00:00:00.000Z');
export const SPAN = 2 * 365 * 86_400_000;

function statusOf(random: () => number): RunStatus {
  let r = random();
  for (const [status, share] of STATUSES) if ((r -= share) < 0) return status;
  return 'completed';
}

/** What every kind of run shares: dates, status, label, model, an imported origin now and then. */
function common<R extends RunRecord>(run: R, i: number, random: () => number, createdAt: number): R {
  const status = statusOf(random);
  const model = { ...run.config.model, source: pick(random, MODELS), dtype: pick(random, DTYPES), backend: pick(random, ['wasm', 'webgpu', 'auto'] as const) };
  const next = {
    ...run,
    createdAt: new Date(createdAt).toISOString(),
    updatedAt: new Date(createdAt + 60_000 + Math.floor(random() * 3_600_000)).toISOString(),
    status,
    warnings: [],
    config: { ...run.config, model },
  } as R;
  if (status === 'failed') next.error = 'The model ran out of memory.';
  if (random() < 0.15) next.label = `${pick(random, ['基线', '复现', '对照', '5-shot', '温度试验', '课堂'])} ${i % 97}`;
  if (random() < 0.08) {
    next.origin = { kind: 'jiangu-file', fileName: `run-${i}.json`, importedAt: new Date(createdAt + 86_400_000).toISOString(), originalRunId: `elsewhere-${i}`, storedSummary: null, summaryMismatches: [] };
  }
  return next;
}

/** Results for the first `done` of `itemIds`, scored the way the engine scores them. */
function mcResults(run: McRunRecord, tasksOf: string[], done: number, random: () => number, prompt: (task: string, k: number) => string, shots: number, answers: boolean): McItemResult[] {
  return run.config.itemIds.slice(0, done).map((itemId, index) => {
    const task = tasksOf[index];
    const logProbs = LETTERS.map(() => -(0.05 + random() * 4));
    const gold = answers ? pick(random, LETTERS) : null;
    const scored = scoreLetters(LETTERS, logProbs, gold);
    const p = prompt(task, index);
    return {
      runId: run.id,
      itemId,
      task,
      index,
      prompt: p,
      promptHash: hex64(random),
      tokenCount: Math.min(4000, Math.ceil(p.length * 1.2)),
      shotsUsed: shots,
      exemplarIds: Array.from({ length: shots }, (_, k) => `${task}/dev/${k}`),
      letters: [...LETTERS],
      tokenIds: [32, 33, 34, 35],
      logProbs: scored.logProbs,
      probs: scored.letterProbs,
      prediction: scored.prediction,
      gold,
      correct: scored.correct,
      reusedPrefixTokens: shots > 0 && index > 0 ? 40 * shots : 0,
      forwardMs: 20 + Math.floor(random() * 400),
      completedAt: new Date(Date.parse(run.createdAt) + (index + 1) * 1500).toISOString(),
    };
  });
}

/** A 0-shot question as the protocols lay it out, made-up characters. */
const question = (random: () => number) => `以下是关于古代汉语的单项选择题，请直接给出正确答案的选项。\n\n题目：${text(random, 40 + Math.floor(random() * 120))}\nA. ${text(random, 6)}\nB. ${text(random, 6)}\nC. ${text(random, 6)}\nD. ${text(random, 6)}\n答案是：`;

function mcRun(i: number, random: () => number, createdAt: number): { run: McRunRecord; results: McItemResult[] } {
  const template = makeMcRun(`many-${i}`).run;
  const dataset = pick(random, MC_DATASETS);
  const tasks = [...new Set(Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(random, dataset.tasks)))];
  const planned = 2 + Math.floor(random() * 11);
  const tasksOf = Array.from({ length: planned }, (_, k) => tasks[k % tasks.length]);
  const itemIds = tasksOf.map((task, k) => `${task}/test/${Math.floor(k / tasks.length) * 7 + (i % 7)}`);
  const shots = pick(random, [0, 0, 1, 3, 5]);
  const protocol = protocolForDataset(dataset.id);
  let run: McRunRecord = {
    ...template,
    datasetId: dataset.id,
    config: {
      ...template.config,
      protocolId: protocol.id,
      protocolVersion: protocol.version,
      shots,
      prefixReuse: random() < 0.5,
      datasetId: dataset.id,
      datasetFiles: [{ path: dataset.file, sha256: hex64(random) }],
      tasks,
      limitPerTask: planned,
      itemIds,
    },
  };
  run = common(run, i, random, createdAt);
  const done = run.status === 'completed' ? planned : Math.floor(random() * planned);
  return { run, results: mcResults(run, tasksOf, done, random, () => question(random), shots, dataset.answers) };
}

function genRun(i: number, random: () => number, createdAt: number): { run: GenRunRecord; results: GenItemResult[] } {
  const template = makeGenRun(`many-${i}`);
  const run = common(template.run, i, random, createdAt);
  const done = run.status === 'completed' ? template.results.length : Math.floor(random() * template.results.length);
  const results = template.results.slice(0, done).map((r) => ({ ...r, prompt: `请将下面的文言文翻译成现代汉语：${text(random, 30 + Math.floor(random() * 60))}`, promptHash: hex64(random), completedAt: run.updatedAt }));
  return { run, results };
}

/** One of the many runs: 85% multiple choice, 15% generation (C3Bench). */
export function manyRun(i: number, createdAt: number): { run: RunRecord; results: ItemResult[] } {
  const random = mulberry32(0x46_0000 + i);
  return random() < 0.85 ? mcRun(i, random, createdAt) : genRun(i, random, createdAt);
}

/**
 * The ~100 MB record: a finished 5-shot AncientBench run with a prompt per item as 5-shot prompts are
 * (the instruction, five exemplars per task, then the question: about 2,400 characters), as many items
 * as make `bytes` (approxBytes of the run and its results). With `inRun`, 20,000 results are 0-shot
 * and short, and the bytes are its run record's own (stored warnings of 10,000 characters each).
 */
export function bigRun(bytes: number, inRun: boolean, createdAt: number): { run: McRunRecord; results: McItemResult[] } {
  const random = mulberry32(0x46_b16);
  const template = makeMcRun('many-big-record').run;
  const tasks = ANCIENTBENCH_TASKS.map((t) => t.key);
  const shots = inRun ? 0 : 5;
  const exemplars = new Map(tasks.map((task) => [task, Array.from({ length: 5 }, () => `题目：${text(random, 330)}\nA. ${text(random, 6)}\nB. ${text(random, 6)}\nC. ${text(random, 6)}\nD. ${text(random, 6)}\n答案是：${pick(random, LETTERS)}\n\n`).join('')]));
  const prompt = (task: string) => (inRun ? question(random) : `以下是关于古代汉语的单项选择题，请直接给出正确答案的选项。\n\n${exemplars.get(task)}${question(random).split('\n\n')[1]}`);
  // Each result's size, roughly, to size the run: measured on a first one.
  const probe = mcResults({ ...template, config: { ...template.config, itemIds: [`${tasks[0]}/test/0`] } }, [tasks[0]], 1, random, prompt, shots, true)[0];
  const items = inRun ? 20_000 : Math.round(bytes / (approxBytes(probe) + 60));
  const tasksOf = Array.from({ length: items }, (_, k) => tasks[k % tasks.length]);
  const itemIds = tasksOf.map((task, k) => `${task}/test/${Math.floor(k / tasks.length)}`);
  const protocol = protocolForDataset('ancientbench');
  const run: McRunRecord = {
    ...template,
    createdAt: new Date(createdAt).toISOString(),
    updatedAt: new Date(createdAt + 14 * 3_600_000).toISOString(),
    datasetId: 'ancientbench',
    status: 'completed',
    warnings: [],
    label: '全量 5-shot',
    config: {
      ...template.config,
      model: { source: MODELS[0], dtype: 'q4', backend: 'webgpu' },
      protocolId: protocol.id,
      protocolVersion: protocol.version,
      shots,
      prefixReuse: true,
      datasetId: 'ancientbench',
      datasetFiles: [{ path: 'ancientbench.csv', sha256: hex64(random) }],
      tasks,
      limitPerTask: null,
      itemIds,
    },
  };
  const results = mcResults(run, tasksOf, items, random, prompt, shots, true);
  if (inRun) {
    const left = bytes - approxBytes(run) - results.reduce((sum, r) => sum + approxBytes(r), 0);
    // Warnings of 10,000 characters, the longest a stored one may be (at most 10,000 of them).
    run.warnings = Array.from({ length: Math.min(10_000, Math.max(1, Math.round(left / 20_000))) }, () => text(random, 10_000));
  }
  return { run, results };
}

/** Throws when a page would list the run as unreadable (the check every page makes on a stored run). */
export let checkMs = 0;
export function checked<T extends { run: RunRecord; results: ItemResult[] }>(entry: T): T {
  const t0 = performance.now();
  const refused = storedRunRefusal(entry.run, entry.results);
  checkMs += performance.now() - t0;
  if (refused) throw new Error(`made-up run ${entry.run.id} would be unreadable: ${JSON.stringify(refused)}`);
  return entry;
}
