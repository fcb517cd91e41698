/**
 * workers/lens.ts through transformers.js in Node (onnxruntime-node CPU): jiangu-tiny fp32 loaded
 * from a folder whose graph carries the lens (rewriteForLens), a passage run in passes of a few rows
 * through the KV cache, every layer against the TypeScript reference's lens; the load check passes
 * on that graph and reports (without throwing) a failure on the graph with a test-only fault.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AutoModelForCausalLM, AutoTokenizer, env } from '@huggingface/transformers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateFixtures } from '../../../scripts/fixtures/generate.ts';
import { encodeFixture, loadReferenceModel, referenceLens } from '../../../scripts/fixtures/reference.ts';
import { ONNX_FILE } from '../../../scripts/fixtures/specs.ts';
import { sampleCmmluPrompt } from '../../../src/lib/core/models/model-check.ts';
import { rewriteForLens, type LensFault } from '../../../src/lib/core/models/lens-rewrite.ts';
import { lensLoadCheck, logitLens } from '../../../workers/lens.ts';
import type { Loaded } from '../../../workers/loaded-model.ts';

let root: string;
beforeAll(() => {
  const dir = generateFixtures({ models: ['jiangu-tiny'] })[0].dir;
  root = mkdtempSync(join(tmpdir(), 'jiangu-lens-'));
  const original = new Uint8Array(readFileSync(join(dir, 'onnx', ONNX_FILE.fp32)));
  for (const [name, fault] of [['lens', undefined], ['lens-fault', 'skip-final-norm']] as const) {
    const folder = join(root, name);
    mkdirSync(join(folder, 'onnx'), { recursive: true });
    for (const f of ['config.json', 'generation_config.json', 'tokenizer.json', 'tokenizer_config.json']) copyFileSync(join(dir, f), join(folder, f));
    const r = rewriteForLens(original, fault ? { lensFault: fault as LensFault } : {});
    if (r.kind !== 'rewritten') throw new Error(r.refusal.detail);
    writeFileSync(join(folder, 'onnx', ONNX_FILE.fp32), r.bytes);
  }
  env.localModelPath = `${root}/`;
  env.allowRemoteModels = false;
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function load(name: string) {
  const tokenizer = await AutoTokenizer.from_pretrained(name);
  const model = await AutoModelForCausalLM.from_pretrained(name, { dtype: 'fp32', device: 'cpu' });
  return { model, tokenizer };
}

describe('workers/lens.ts in transformers.js', () => {
  it('logitLens in passes of 7 rows equals the reference lens at every layer; the load check passes', async () => {
    const { model, tokenizer } = await load('lens');
    const ids = encodeFixture(sampleCmmluPrompt(30));
    const m = { model, tokenizer, info: { inputNames: ['input_ids', 'attention_mask', 'position_ids', 'num_logits_to_keep'] }, maxLogitsRows: 7, maxPassRows: null } as unknown as Loaded;
    // What each pass's run returned: the lens and the cache, never the logits.
    const session = (model as unknown as { sessions: Record<string, { run: (...a: unknown[]) => Promise<Record<string, unknown>> }> }).sessions.model;
    const returned: string[][] = [];
    const run = session.run.bind(session);
    session.run = async (...a: unknown[]) => {
      const out = await run(...a);
      returned.push(Object.keys(out));
      return out;
    };
    const lens = await logitLens(m, ids);
    expect(returned.length).toBe(lens.passes);
    for (const names of returned) {
      expect(names).not.toContain('logits');
      expect(names).toContain('jiangu_lens_top_ids');
      expect(names.filter((n) => n.startsWith('present.'))).toHaveLength(4);
    }
    expect(lens.passes).toBe(Math.ceil(ids.length / 7));
    expect([lens.layers, lens.rows, lens.k]).toEqual([2, ids.length, 5]);
    const ref = referenceLens(loadReferenceModel('jiangu-tiny', 'fp32'), ids, 5);
    let worst = 0;
    for (let i = 0; i < lens.topIds.length; i++) {
      worst = Math.max(worst, Math.abs(lens.topProbs[i] - ref.probs[i]));
      // Neighbours within 1e-4 may come in either order.
      if (lens.topIds[i] !== ref.ids[i]) expect(Math.abs(ref.probs[i] - lens.topProbs[i])).toBeLessThan(1e-4);
    }
    console.info(`[lens] worker, ${ids.length} tokens in ${lens.passes} passes: max |Δp| against the reference ${worst.toExponential(2)}, ${lens.forwardMs.toFixed(0)} ms`);
    expect(worst).toBeLessThan(1e-4);

    const check = await lensLoadCheck(model, tokenizer, 'fp32', true);
    console.info(`[lens] load check: ${JSON.stringify(check)}`);
    expect(check.passed).toBe(true);
    expect(check.problem).toBeNull();
    await model.dispose();
  });

  it('the load check reports a lens without the final norm as failed, with its numbers, without throwing', async () => {
    const { model, tokenizer } = await load('lens-fault');
    const check = await lensLoadCheck(model, tokenizer, 'fp32', true);
    console.info(`[lens] load check on the fault: ${JSON.stringify(check)}`);
    expect(check.passed).toBe(false);
    expect(check.problem).toBeNull();
    expect(check.maxProbDiff).toBeGreaterThan(1e-2);
    await model.dispose();
  });
});
