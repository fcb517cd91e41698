// Where a q8 statistics request's time goes (issue 35): the graphs the worker runs, timed straight on
// onnxruntime (web's wasm kernels in Node, 1 thread — its plain build, where the worker loads the
// asyncify one — and/or onnxruntime-node, 1 thread), without
// transformers.js, the worker or the page. On one model file it builds the two sessions the site
// builds — the letter load's graph (rewriteForLastLogits, or the author's when it declares
// num_logits_to_keep) and the statistics load's (rewriteForStatistics on top of it) — and runs a
// prompt of --tokens random ids through each the ways the worker can:
//  - keep1 one pass:     the letter load's prefill (one pass, one logits row): ModelClient.score;
//  - keep1 R-row passes: the same graph in passes of --rows (Q8_PREFILL_ROWS) rows, one row each;
//  - logits R-row:       the same graph keeping every row, logits fetched (the worker path's forward);
//  - stats R-row:        the statistics graph as textStatistics runs it (every row, the statistics
//                        and the cache fetched, never the logits);
//  - stats one pass:     the same graph over the whole prompt at once.
// With --profile (onnxruntime-node only) it also prints the ops' summed time per mode, by op type,
// from onnxruntime's own profiler. Process CPU time is printed beside wall time because a shared
// machine's wall time says little. A measurement, not a test.
//
//   npx tsx scripts/bench/statistics-passes.ts [--model .fixtures/models-real/real-qwen2.5-0.5b]
//       [--file model_quantized.onnx] [--tokens 250] [--rows 32] [--runtimes web,node] [--modes keep1-one,…] [--repeats 1] [--profile]
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import * as ortNode from 'onnxruntime-node';
import * as ortWeb from 'onnxruntime-web';
import { rewriteForLastLogits } from '../../src/lib/core/models/logits-rewrite.ts';
import { rewriteForStatistics, STATS_OUTPUTS } from '../../src/lib/core/models/stats-rewrite.ts';

type Ort = typeof ortNode;
type Session = ortNode.InferenceSession;
const MODES = ['keep1-one', 'keep1-rows', 'logits-rows', 'stats-rows', 'stats-one'] as const;
type Mode = (typeof MODES)[number];

interface Shape {
  layers: number;
  kvHeads: number;
  headDim: number;
}

function shapeOf(dir: string): Shape {
  const c = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as Record<string, number>;
  return { layers: c.num_hidden_layers, kvHeads: c.num_key_value_heads, headDim: c.head_dim ?? c.hidden_size / c.num_attention_heads };
}

/** Feeds for `ids` after a cache of `past` positions (`cache`: the previous pass's present tensors, or null for an empty cache). */
function feeds(ort: Ort, session: Session, shape: Shape, ids: number[], past: number, cache: Record<string, ortNode.Tensor> | null, keep: number): Record<string, ortNode.Tensor> {
  const out: Record<string, ortNode.Tensor> = {};
  const n = ids.length;
  for (const name of session.inputNames) {
    if (name === 'input_ids') out[name] = new ort.Tensor('int64', BigInt64Array.from(ids, BigInt), [1, n]);
    else if (name === 'attention_mask') out[name] = new ort.Tensor('int64', new BigInt64Array(past + n).fill(1n), [1, past + n]);
    else if (name === 'position_ids') out[name] = new ort.Tensor('int64', BigInt64Array.from({ length: n }, (_, i) => BigInt(past + i)), [1, n]);
    else if (name === 'num_logits_to_keep') out[name] = new ort.Tensor('int64', [BigInt(keep)], []);
    else if (name.startsWith('past_key_values.')) {
      const present = cache?.[name.replace('past_key_values', 'present')];
      out[name] = present ?? new ort.Tensor('float32', new Float32Array(0), [1, shape.kvHeads, 0, shape.headDim]);
    } else throw new Error(`unknown input ${name}`);
  }
  return out;
}

interface Timing {
  wallMs: number;
  cpuMs: number;
  passes: number[];
}

async function runMode(ort: Ort, session: Session, shape: Shape, ids: number[], mode: Mode, rows: number): Promise<Timing> {
  const step = mode.endsWith('-one') ? ids.length : rows;
  const keep = mode.startsWith('keep1') ? 1 : 0;
  const fetches = mode.startsWith('stats') ? session.outputNames.filter((n) => n !== 'logits') : session.outputNames;
  let cache: Record<string, ortNode.Tensor> | null = null;
  const passes: number[] = [];
  const wall = performance.now();
  const cpu = process.cpuUsage();
  for (let start = 0; start < ids.length; start += step) {
    const chunk = ids.slice(start, start + step);
    const t = performance.now();
    const out = (await session.run(feeds(ort, session, shape, chunk, start, cache, keep), fetches)) as Record<string, ortNode.Tensor>;
    passes.push(performance.now() - t);
    if (mode.startsWith('stats') && out[STATS_OUTPUTS.mean].dims[1] !== chunk.length) throw new Error('statistics rows mismatch');
    cache = out;
  }
  const used = process.cpuUsage(cpu);
  return { wallMs: performance.now() - wall, cpuMs: (used.user + used.system) / 1000, passes };
}

/** onnxruntime-node's profile: summed node time (ms) by op type, from its JSON trace. */
function profileByOp(file: string): Map<string, number> {
  const events = JSON.parse(readFileSync(file, 'utf8')) as { cat: string; name: string; dur: number; args?: { op_name?: string } }[];
  const byOp = new Map<string, number>();
  for (const e of events) {
    if (e.cat !== 'Node' || !e.name.endsWith('_kernel_time')) continue;
    const op = e.args?.op_name ?? '?';
    const tag = e.name.includes('jiangu_stats') ? `stats:${op}` : e.name.includes('lm_head') || e.name.includes('/lm_head') ? `head:${op}` : op;
    byOp.set(tag, (byOp.get(tag) ?? 0) + e.dur / 1000);
  }
  rmSync(file, { force: true });
  return byOp;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      model: { type: 'string' },
      file: { type: 'string' },
      tokens: { type: 'string' },
      rows: { type: 'string' },
      runtimes: { type: 'string' },
      modes: { type: 'string' },
      profile: { type: 'boolean' },
      repeats: { type: 'string' },
    },
  });
  const dir = values.model ?? '.fixtures/models-real/real-qwen2.5-0.5b';
  const file = values.file ?? 'model_quantized.onnx';
  const tokens = Number(values.tokens ?? 250);
  const rows = Number(values.rows ?? 32);
  const repeats = Number(values.repeats ?? 1);
  const runtimes = (values.runtimes ?? 'web,node').split(',');
  const modes = (values.modes?.split(',') ?? [...MODES]) as Mode[];
  const shape = shapeOf(dir);
  const original = new Uint8Array(readFileSync(join(dir, 'onnx', file)));
  const keep = rewriteForLastLogits(original);
  const keepBytes = keep.kind === 'rewritten' ? keep.bytes : original;
  if (keep.kind === 'unrecognised') throw new Error(keep.refusal.detail);
  const stats = rewriteForStatistics(keepBytes);
  if (stats.kind !== 'rewritten') throw new Error(stats.refusal.detail);
  const vocab = (JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as { vocab_size: number }).vocab_size;
  // Random ids: a random-weight model's cost does not depend on which tokens.
  const ids = Array.from({ length: tokens }, (_, i) => (i * 7919 + 13) % vocab);
  console.log(`${dir}/onnx/${file}: ${shape.layers} layers, ${tokens} tokens, ${rows}-row passes, keep rewrite: ${keep.kind}`);
  ortWeb.env.wasm.numThreads = 1;
  for (const runtime of runtimes) {
    const ort = (runtime === 'web' ? ortWeb : ortNode) as unknown as Ort;
    const profile = values.profile === true && runtime === 'node';
    for (const [graph, bytes] of [['keep', keepBytes], ['stats', stats.bytes]] as const) {
      const wanted = modes.filter((m) => (graph === 'stats') === m.startsWith('stats'));
      if (wanted.length === 0) continue;
      const options = { intraOpNumThreads: 1, interOpNumThreads: 1, graphOptimizationLevel: 'all', ...(profile ? { enableProfiling: true, profileFilePrefix: `/tmp/jiangu-stats-prof-${graph}` } : {}) };
      const created = performance.now();
      const session = (await ort.InferenceSession.create(bytes, options as ortNode.InferenceSession.SessionOptions)) as Session;
      console.log(`${runtime} ${graph}: session in ${((performance.now() - created) / 1000).toFixed(1)} s`);
      // Warm-up: one short pass.
      await runMode(ort, session, shape, ids.slice(0, 4), graph === 'stats' ? 'stats-one' : 'keep1-one', rows);
      for (const mode of wanted) {
        for (let r = 0; r < repeats; r++) {
          const t = await runMode(ort, session, shape, ids, mode, rows);
          const per = t.passes.map((ms) => ms.toFixed(0)).join(' ');
          console.log(`  ${runtime.padEnd(4)} ${mode.padEnd(11)} ${(t.wallMs / 1000).toFixed(2)} s wall, ${(t.cpuMs / 1000).toFixed(2)} s cpu, ${t.passes.length} passes (ms: ${per})`);
        }
      }
      if (profile) {
        session.endProfiling();
        const traces = readdirSync('/tmp').filter((f) => f.startsWith(`jiangu-stats-prof-${graph}`)).map((f) => join('/tmp', f));
        const byOp = new Map<string, number>();
        for (const trace of traces) for (const [op, ms] of profileByOp(trace)) byOp.set(op, (byOp.get(op) ?? 0) + ms);
        const total = [...byOp.values()].reduce((a, b) => a + b, 0);
        console.log(`  profile (${graph}, all modes incl. warm-up, ${total.toFixed(0)} ms in ops):`);
        for (const [op, ms] of [...byOp].sort((a, b) => b[1] - a[1]).slice(0, 18)) console.log(`    ${op.padEnd(34)} ${ms.toFixed(0).padStart(7)} ms`);
      }
      await session.release();
    }
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.stack : e);
  process.exitCode = 1;
});
