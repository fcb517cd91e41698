/**
 * workers/attention.ts through transformers.js in Node (onnxruntime-node CPU), as lens-worker.test.ts
 * does for the lens: fixtures loaded from folders whose graph carries the attention tap; the load
 * check; attentionRead in passes of 7 rows through the KV cache (fetching the tap and the cache, never
 * the logits) and attentionAt against the TypeScript reference; a test-only fault refused by the load
 * check and by a reading, as values with their notices; attentionAt's own refusals.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AutoModelForCausalLM, AutoTokenizer, env } from '@huggingface/transformers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateFixtures } from '../../../scripts/fixtures/generate.ts';
import { forward, loadReferenceModel } from '../../../scripts/fixtures/reference.ts';
import { ONNX_FILE, SPECS } from '../../../scripts/fixtures/specs.ts';
import { sampleCmmluPrompt } from '../../../src/lib/core/models/model-check.ts';
import { rewriteForAttention, type AttentionFault, type AttentionLayout } from '../../../src/lib/core/models/attention-rewrite.ts';
import { attentionAt, attentionPathAfterLoad, attentionRead, dropAttentionPassage } from '../../../workers/attention.ts';
import type { Loaded } from '../../../workers/loaded-model.ts';
import { RequestError } from '../../../workers/request-error.ts';

let root: string;
const layouts: Record<string, { layers: number; layout: AttentionLayout[] }> = {};
const FOLDERS = [
  ['gqa', 'jiangu-tiny-gqa', undefined],
  ['tiny-fault', 'jiangu-tiny', 'scale'],
] as const;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'jiangu-attention-'));
  for (const [folderName, fixture, fault] of FOLDERS) {
    const dir = generateFixtures({ models: [fixture] })[0].dir;
    const folder = join(root, folderName);
    mkdirSync(join(folder, 'onnx'), { recursive: true });
    for (const f of ['config.json', 'generation_config.json', 'tokenizer.json', 'tokenizer_config.json']) copyFileSync(join(dir, f), join(folder, f));
    const r = rewriteForAttention(new Uint8Array(readFileSync(join(dir, 'onnx', ONNX_FILE.fp32))), fault ? { fault: fault as AttentionFault } : {});
    if (r.kind !== 'rewritten') throw new Error(r.refusal.detail);
    layouts[folderName] = { layers: r.layers, layout: r.layout };
    writeFileSync(join(folder, 'onnx', ONNX_FILE.fp32), r.bytes);
  }
  env.localModelPath = `${root}/`;
  env.allowRemoteModels = false;
}, 120_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function load(name: string) {
  const tokenizer = await AutoTokenizer.from_pretrained(name);
  const model = await AutoModelForCausalLM.from_pretrained(name, { dtype: 'fp32', device: 'cpu' });
  return { model, tokenizer };
}

const added = (name: string) => ({ kind: 'added' as const, ms: 0, addedBytes: 0, ...layouts[name] });
const noticeOf = async (p: Promise<unknown>): Promise<string> => {
  try {
    await p;
  } catch (error) {
    if (error instanceof RequestError) return error.info.notice.code;
    throw error;
  }
  throw new Error('answered, not refused');
};

describe('workers/attention.ts in transformers.js', () => {
  it('jiangu-tiny-gqa: the load check passes; attentionRead in passes of 7 rows and attentionAt equal the reference at every position', async () => {
    const { model, tokenizer } = await load('gqa');
    const path = await attentionPathAfterLoad(added('gqa'), model, tokenizer);
    console.info(`[attention] worker load check: ${JSON.stringify(path.check)}`);
    expect(path.kind).toBe('graph');
    expect(path.check?.rotation).toBeLessThan(1e-6);
    const m = { model, tokenizer, info: { inputNames: ['input_ids', 'attention_mask'], attentionPath: path }, maxLogitsRows: 7, maxPassRows: null } as unknown as Loaded;
    expect(await noticeOf(attentionAt(m, { position: 0 }))).toBe('model.attention-no-passage');

    const session = (model as unknown as { sessions: Record<string, { run: (...a: unknown[]) => Promise<Record<string, unknown>> }> }).sessions.model;
    const returned: string[][] = [];
    const run = session.run.bind(session);
    session.run = async (...a: unknown[]) => {
      const out = await run(...a);
      returned.push(Object.keys(out));
      return out;
    };
    const read = await attentionRead(m, { text: sampleCmmluPrompt(24) });
    const spec = SPECS['jiangu-tiny-gqa'];
    expect([read.layers, read.heads, read.kvHeads, read.tokens, read.passes]).toEqual([spec.numLayers, spec.numHeads, spec.numKvHeads, read.ids.length, Math.ceil(read.ids.length / 7)]);
    expect(read.pieces).toHaveLength(read.ids.length);
    expect(read.keptBytes).toBe(spec.numLayers * (spec.numHeads + spec.numKvHeads) * spec.headDim * read.ids.length * 4);
    for (const names of returned) {
      expect(names).not.toContain('logits');
      expect(names.filter((n) => n.startsWith('jiangu_attention.'))).toHaveLength(3 * spec.numLayers);
    }

    const ref = forward(loadReferenceModel('jiangu-tiny-gqa', 'fp32'), read.ids, undefined, { attentionWeights: true }).attentionWeights!;
    const T = read.ids.length;
    const H = spec.numHeads;
    let worst = 0;
    for (const position of [0, 5, T - 1]) {
      const at = await attentionAt(m, { position });
      const n = position + 1;
      expect([at.position, at.layers, at.heads, at.weights.length, at.averaged.length]).toEqual([position, spec.numLayers, H, spec.numLayers * H * n, spec.numLayers * n]);
      for (let l = 0; l < spec.numLayers; l++) {
        for (let j = 0; j < n; j++) {
          let mean = 0;
          for (let h = 0; h < H; h++) {
            const w = at.weights[(l * H + h) * n + j];
            worst = Math.max(worst, Math.abs(w - ref[l][(position * H + h) * T + j]));
            mean += w / H;
          }
          expect(at.averaged[l * n + j]).toBeCloseTo(mean, 6);
        }
      }
    }
    console.info(`[attention] worker, ${T} tokens in ${read.passes} passes: max |Δ| against the reference ${worst.toExponential(2)}, ${read.forwardMs.toFixed(0)} ms`);
    expect(worst).toBeLessThan(1e-5);
    expect(await noticeOf(attentionAt(m, { position: T }))).toBe('model.attention-position');
    dropAttentionPassage();
    expect(await noticeOf(attentionAt(m, { position: 0 }))).toBe('model.attention-no-passage');
    await model.dispose();
  });

  it('jiangu-tiny with a wrong scale: the load check says the view is unavailable, and a reading is refused, each with its notice', async () => {
    const { model, tokenizer } = await load('tiny-fault');
    const path = await attentionPathAfterLoad(added('tiny-fault'), model, tokenizer);
    expect(path.kind).toBe('unavailable');
    expect(path.refusal?.code).toBe('model.attention-check-failed');
    expect(path.refusal?.params).toMatchObject({ problem: 'check', what: 'softmax', layer: 0 });
    const m = { model, tokenizer, info: { inputNames: ['input_ids', 'attention_mask', 'position_ids', 'num_logits_to_keep'], attentionPath: { ...path, kind: 'graph', layout: layouts['tiny-fault'].layout } }, maxLogitsRows: 7, maxPassRows: null } as unknown as Loaded;
    expect(await noticeOf(attentionRead(m, { text: sampleCmmluPrompt(12) }))).toBe('model.attention-pass-refused');
    expect(await noticeOf(attentionAt(m, { position: 0 }))).toBe('model.attention-no-passage');
    const unloaded = { ...m, info: { inputNames: [] } } as unknown as Loaded;
    expect(await noticeOf(attentionRead(unloaded, { text: 'x' }))).toBe('model.attention-not-loaded');
    await model.dispose();
  });
});
