// The generation half of the lm_eval import: samples of generate_until tasks Jiangu exported (the
// C3Bench protocol, metadata.jiangu.protocol "c3bench"). The harness only generates; each item's
// output is its text and Jiangu scores it with its own metrics (scoreGenerationRun), exactly as for
// a run made in this browser. A generate_until samples line (lm_eval 4e7e0d4, save_results_samples)
// holds `resps` [[text]], `filtered_resps` [text], `arguments.gen_args_0` {arg_0: the context,
// arg_1: the generation kwargs}, the doc and the three hashes. Stock harness generation tasks are not
// read: their prompts and scoring are not Jiangu's, and they stay unknown (skipped and named).
import { getDataset } from '../../../benchmarks/catalog.ts';
import type { GenerationTask } from '../../../benchmarks/types.ts';
import { C3BENCH_PROTOCOL, generationTemplateHash } from '../../../protocols/generation.ts';
import { sha256Hex } from '../../../protocols/template-hash.ts';
import { importedSample } from './lm-eval-sample.ts';
import { notice, type Notice } from '../../../notices/index.ts';
import { harnessRunOf, limitOf, modelOf, shortName, type HarnessFacts, type HarnessTask, type SampleDoc } from './import-lm-eval.ts';
import { FieldProblem, RUN_IMPORT_LIMITS, RunImportError, anyObject, fail, parseJson, problem, text, type ImportedRun, type Obj } from '../../import-validate.ts';
import type { GenItemResult, GenRunRecord, RunOrigin } from '../../../record/run.ts';

/** One generate_until sample, read. `hashes`, `doc`, `place` as the multiple-choice Sample's (the same checks run on both). */
export interface GenSample {
  docId: number;
  file?: string;
  place: string;
  doc: unknown;
  hashes: { doc: string; prompt: string; target: string };
  prompt: string;
  output: string;
  /** arg_1 as written (the generation kwargs), null when it is not an object. */
  kwargs: Obj | null;
}

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function readGenSample(value: unknown, line: number): GenSample {
  const base = `line ${line}`;
  const o = anyObject(value, base);
  // No task has RUN_IMPORT_LIMITS.results docs: an index past it names no item.
  const docId = typeof o.doc_id === 'number' && Number.isInteger(o.doc_id) && o.doc_id >= 0 && o.doc_id < RUN_IMPORT_LIMITS.results ? o.doc_id : fail(`${base}: doc_id`, { expected: 'doc-index' }, o.doc_id);
  // resps[0][0] is the model's text; filtered_resps[0] the same after the "none" filter.
  const resps = o.resps;
  if (!Array.isArray(resps) || resps.length !== 1 || !Array.isArray(resps[0]) || typeof resps[0][0] !== 'string') {
    throw problem('import.lm-eval-gen-sample', { path: `${base}: resps` });
  }
  const args = isObj(o.arguments) && isObj(o.arguments.gen_args_0) ? o.arguments.gen_args_0 : null;
  if (!args || typeof args.arg_0 !== 'string') throw problem('import.lm-eval-gen-sample', { path: `${base}: arguments.gen_args_0.arg_0` });
  const hashText = (v: unknown): string => (typeof v === 'string' ? v : '');
  return {
    docId,
    place: base,
    doc: o.doc,
    hashes: { doc: hashText(o.doc_hash), prompt: hashText(o.prompt_hash), target: hashText(o.target_hash) },
    prompt: text(args.arg_0, `${base}: arguments.gen_args_0.arg_0`),
    output: text(resps[0][0], `${base}: resps[0][0]`),
    kwargs: isObj(args.arg_1) ? args.arg_1 : null,
  };
}

/** The samples of one generate_until samples_*.jsonl (a last line cut short said as such, as for multiple choice). */
export function readGenSamplesLines(source: string): GenSample[] {
  const lines = source.split('\n');
  const out: GenSample[] = [];
  const seen = new Map<number, string>();
  for (const [i, raw] of lines.entries()) {
    if (raw.trim() === '') continue;
    if (out.length >= RUN_IMPORT_LIMITS.results) throw problem('import.too-many-lines', { max: RUN_IMPORT_LIMITS.results });
    let value: unknown;
    try {
      value = parseJson(raw.trim());
    } catch (error) {
      if (!(error instanceof FieldProblem)) throw error;
      if (i === lines.length - 1 && !source.endsWith('\n')) throw problem('import.lm-eval-truncated-line', { path: `line ${i + 1}`, samples: out.length });
      throw new FieldProblem({ ...error.refusal, params: { ...error.refusal.params, path: `line ${i + 1}` } });
    }
    const sample = readGenSample(value, i + 1);
    const first = seen.get(sample.docId);
    if (first !== undefined) throw problem('import.doc-twice', { path: `${sample.place}: doc_id`, docId: sample.docId, first });
    seen.set(sample.docId, sample.place);
    out.push(sample);
  }
  return out;
}

/** What a Jiangu generation doc says (genDocFor in the export): its id and references. */
function genDocOf(doc: unknown, place: string): { id: string; references: string[]; generationTask: unknown } {
  const d = isObj(doc) ? doc : null;
  const id = d && typeof d.jiangu_id === 'string' && d.jiangu_id !== '' && d.jiangu_id.length <= 200 ? d.jiangu_id : null;
  if (!d || id === null) throw problem('import.lm-eval-gen-sample', { path: `${place}: doc.jiangu_id` });
  const refs = d.references;
  if (!Array.isArray(refs) || refs.length === 0 || !refs.every((r) => typeof r === 'string')) throw problem('import.lm-eval-gen-sample', { path: `${place}: doc.references` });
  return { id, references: refs as string[], generationTask: d.generation_task };
}

/**
 * One GenRunRecord from the generation tasks of one dataset (every task Jiangu's C3Bench export).
 *
 * @throws FieldProblem for a task whose template hash is not this site's C3Bench template, a sample
 *   generated with other settings than the export's (sampling, another token limit), a doc without
 *   Jiangu's id and references.
 */
export async function buildGenRun(
  samplesByTask: Map<string, GenSample[]>,
  tasks: ReadonlyMap<string, HarnessTask>,
  facts: HarnessFacts,
  fileName: string,
  importedAt: string,
  extra: readonly Notice[],
): Promise<ImportedRun & { docs: SampleDoc[] }> {
  const exportHash = await generationTemplateHash(C3BENCH_PROTOCOL);
  const mapped = [...samplesByTask.keys()].map((name) => ({ name, ...(tasks.get(name) as HarnessTask) }));
  const datasetId = mapped[0].datasetId;
  const dataset = getDataset(datasetId);
  const maxNewTokens = mapped[0].jiangu!.generation!.maxNewTokens;
  for (const m of mapped) {
    if (m.jiangu!.templateHash !== exportHash) throw problem('import.lm-eval-gen-template', { task: m.name.slice(0, 80) });
    if (m.jiangu!.generation!.maxNewTokens !== maxNewTokens) throw problem('import.lm-eval-gen-kwargs', { path: `configs.${m.name.slice(0, 80)}.metadata.jiangu.maxNewTokens`, maxNewTokens });
  }
  const catalogTasks = dataset.tasks.map((t) => t.key);
  mapped.sort((a, b) => catalogTasks.indexOf(a.task) - catalogTasks.indexOf(b.task));

  const warnings: Notice[] = [notice('import.lm-eval-gen-jiangu', { fileName, maxNewTokens, app: mapped[0].jiangu!.app })];
  warnings.push(...extra);
  if (facts.systemInstruction) warnings.push(notice('import.lm-eval-system-instruction', { text: shortName(facts.systemInstruction) }));
  const model = modelOf(facts, warnings);

  const runId = crypto.randomUUID();
  const createdAt = facts.date !== null ? new Date(facts.date * 1000).toISOString() : importedAt;
  const inFileOrder = mapped.flatMap((m) => [...(samplesByTask.get(m.name) ?? [])].sort((a, b) => a.docId - b.docId).map((sample) => ({ m, sample, itemId: jianguIdOf(sample.doc) })));
  // A sampled run's export run on its sample (lm-eval-sample.ts): its items in the sample's order.
  const sampled = inFileOrder.every((a) => a.itemId !== null) ? importedSample(mapped.map((m) => m.task), inFileOrder as { m: (typeof mapped)[number]; sample: (typeof inFileOrder)[number]['sample']; itemId: string }[], warnings) : null;
  const ordered = sampled ? sampled.own : inFileOrder;
  const results: GenItemResult[] = [];
  for (const [index, { m, sample }] of ordered.entries()) {
    try {
      results.push(await genResult(runId, index, m.task, sample, dataset, maxNewTokens, createdAt));
    } catch (error) {
      // A sample's fault is said in its own samples file, at its line.
      if (error instanceof FieldProblem && sample.file) throw new RunImportError(sample.file, error.refusal);
      throw error;
    }
  }

  const config: GenRunRecord['config'] = {
    kind: 'generation',
    // No backend of this site ran it (the type has no "none"): views name origin.harnessBackend.
    model: { source: model.source, dtype: model.dtype, backend: 'wasm' },
    protocolId: 'c3bench',
    protocolVersion: C3BENCH_PROTOCOL.version,
    // As a browser run computes it: the chat template rule is part of the hash when the harness applied one.
    templateHash: await generationTemplateHash(C3BENCH_PROTOCOL, { chatTemplate: facts.chatTemplate }),
    chatTemplate: facts.chatTemplate,
    maxNewTokens,
    decoding: { kind: 'greedy' },
    datasetId,
    datasetFiles: mapped[0].jiangu!.dataFiles,
    tasks: sampled?.tasks ?? mapped.map((m) => m.task),
    limitPerTask: sampled ? sampled.limitPerTask : limitOf(facts.config?.limit),
    itemIds: sampled?.stop ? sampled.stop.itemIds : results.map((r) => r.itemId),
    ...(sampled ? { sampling: sampled.sampling } : {}),
    ...(sampled?.stop ? { stopRule: sampled.stop.rule } : {}),
    appVersion: facts.lmEvalVersion ? `lm-eval ${shortName(facts.lmEvalVersion)}` : 'lm-eval',
  };
  const run: GenRunRecord = { id: runId, createdAt, updatedAt: importedAt, datasetId, status: 'completed', config, warnings };
  // The harness's exact_match is a placeholder of the export, not a number of ours: nothing stored to compare.
  const origin: RunOrigin = {
    kind: 'lm-eval',
    fileName,
    importedAt,
    originalRunId: null,
    storedSummary: null,
    summaryMismatches: [],
    harnessTasks: mapped.map((m) => ({ name: m.name, version: null })),
    ...harnessRunOf(facts),
  };
  run.origin = origin;
  return { run, results, docs: ordered.map(({ sample }) => ({ doc: sample.doc, place: sample.place, file: sample.file ?? fileName })) };
}

/** One sample as a GenItemResult: its settings and doc checked, its output the harness's text. */
async function genResult(
  runId: string,
  index: number,
  task: string,
  sample: GenSample,
  dataset: ReturnType<typeof getDataset>,
  maxNewTokens: number,
  createdAt: string,
): Promise<GenItemResult> {
  const where = sample.place;
  // The harness's kwargs, where it wrote them, must be the export's: greedy, Jiangu's token limit.
  const k = sample.kwargs;
  if (k && ((k.do_sample !== undefined && k.do_sample !== false) || (k.max_gen_toks !== undefined && k.max_gen_toks !== maxNewTokens))) {
    throw problem('import.lm-eval-gen-kwargs', { path: `${where}: arguments.gen_args_0.arg_1`, maxNewTokens });
  }
  const doc = genDocOf(sample.doc, where);
  const generationTask = dataset.tasks.find((t) => t.key === task)?.generationTask as GenerationTask;
  if (doc.generationTask !== undefined && doc.generationTask !== generationTask) throw problem('import.lm-eval-gen-sample', { path: `${where}: doc.generation_task` });
  return {
    runId,
    itemId: doc.id,
    task,
    generationTask,
    index,
    prompt: sample.prompt,
    promptHash: await sha256Hex(sample.prompt),
    // The harness writes the text only: no token ids, no stop reason (the run's notice says so).
    tokenCount: 0,
    output: sample.output,
    outputTokenIds: [],
    stoppedBy: 'eos',
    references: doc.references,
    ms: 0,
    completedAt: createdAt,
  };

}

/** The item id a Jiangu-exported doc carries (`jiangu_id`), or null. */
function jianguIdOf(doc: unknown): string | null {
  const id = typeof doc === 'object' && doc !== null ? (doc as { jiangu_id?: unknown }).jiangu_id : undefined;
  return typeof id === 'string' && id !== '' && id.length <= 200 ? id : null;
}
