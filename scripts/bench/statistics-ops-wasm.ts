// What the q8 statistics graph's extra work costs per pass on onnxruntime-web's wasm kernels (1
// thread, in Node), op group by op group, on Qwen2.5-0.5B's head shape (hidden 896 × vocabulary
// 151,936) — issue 35:
//  - head: DynamicQuantizeLinear → MatMulInteger → Cast → Mul (a q8 export's lm_head, which the
//    optimizer fuses) for 1 and 32 rows: what the letter load runs per prompt (1 row) and what the
//    statistics load runs per 32-row pass;
//  - statistics: the ops stats-rewrite.ts appends, on logits fed as an input of 1 and 32 rows,
//    against a graph that only passes the logits through (the copy-out of a plain forward).
// Each graph: one warm-up run, then --repeats runs; median wall and process CPU ms. A measurement,
// not a test.
//
//   npx tsx scripts/bench/statistics-ops-wasm.ts [--hidden 896] [--vocab 151936] [--repeats 5] [--runtime web|node]
import { parseArgs } from 'node:util';
import * as ortNode from 'onnxruntime-node';
import * as ortWeb from 'onnxruntime-web';
import { attr, GraphBuilder } from '../fixtures/graph-builder.ts';
import { DataType, encodeModel } from '../fixtures/onnx-proto.ts';
import { rewriteForStatistics, STATS_OUTPUTS } from '../../src/lib/core/models/stats-rewrite.ts';

const opsetImports = [{ domain: '', version: 17 }];
const encode = (g: GraphBuilder, name: string) => encodeModel({ irVersion: 8, opsetImports, producerName: 'jiangu-bench', producerVersion: '0', graph: g.build(name) }).toBytes();

function headGraph(k: number, n: number): Uint8Array {
  const g = new GraphBuilder();
  const x = g.input('x', DataType.FLOAT, [1, 'rows', k]);
  const w = new Uint8Array(k * n).map(() => Math.floor(Math.random() * 256));
  const q = g.node('DynamicQuantizeLinear', [x], { outputs: 3 });
  const mm = g.op('MatMulInteger', [q[0], g.initializer('w', DataType.UINT8, [k, n], w), q[2], g.initializer('wz', DataType.UINT8, [], new Uint8Array([128]))]);
  const f = g.op('Cast', [mm], { attributes: [attr.int('to', DataType.FLOAT)] });
  const scale = g.op('Mul', [q[1], g.initializer('ws', DataType.FLOAT, [], new Float32Array([0.01]))]);
  g.opNamed('Mul', [f, scale], 'logits');
  g.output('logits', DataType.FLOAT, [1, 'rows', n]);
  return encode(g, 'head');
}

/** A graph whose logits are its input (input_ids beside them, as the statistics read targets from it). */
function passGraph(n: number): Uint8Array {
  const g = new GraphBuilder();
  g.input('input_ids', DataType.INT64, [1, 'rows']);
  const x = g.input('x', DataType.FLOAT, [1, 'rows', n]);
  g.opNamed('Identity', [x], 'logits');
  g.output('logits', DataType.FLOAT, [1, 'rows', n]);
  return encode(g, 'pass');
}

type Ort = typeof ortNode;

async function time(ort: Ort, label: string, bytes: Uint8Array, feeds: (rows: number) => Record<string, ortNode.Tensor>, fetches: string[] | null, repeats: number): Promise<void> {
  const session = await ort.InferenceSession.create(bytes, { intraOpNumThreads: 1, interOpNumThreads: 1 } as ortNode.InferenceSession.SessionOptions);
  const cells: string[] = [];
  for (const rows of [1, 32]) {
    const f = feeds(rows);
    await (fetches ? session.run(f, fetches) : session.run(f));
    const wall: number[] = [];
    const cpu: number[] = [];
    for (let i = 0; i < repeats; i++) {
      const t = performance.now();
      const c = process.cpuUsage();
      await (fetches ? session.run(f, fetches) : session.run(f));
      const u = process.cpuUsage(c);
      wall.push(performance.now() - t);
      cpu.push((u.user + u.system) / 1000);
    }
    const med = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
    cells.push(`${rows} row${rows > 1 ? 's' : ''}: ${med(cpu).toFixed(0)} ms cpu / ${med(wall).toFixed(0)} ms wall`);
  }
  console.log(`${label.padEnd(34)} ${cells.join(' | ')}`);
  await session.release();
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { hidden: { type: 'string' }, vocab: { type: 'string' }, repeats: { type: 'string' }, runtime: { type: 'string' } } });
  const k = Number(values.hidden ?? 896);
  const n = Number(values.vocab ?? 151936);
  const repeats = Number(values.repeats ?? 5);
  ortWeb.env.wasm.numThreads = 1;
  const ort = (values.runtime === 'node' ? ortNode : ortWeb) as unknown as Ort;
  console.log(`${values.runtime ?? 'web'}: hidden ${k}, vocabulary ${n}, median of ${repeats}`);
  const ids = (rows: number) => new ort.Tensor('int64', BigInt64Array.from({ length: rows }, (_, i) => BigInt((i * 7919) % n)), [1, rows]);
  const logits = (rows: number) => new ort.Tensor('float32', new Float32Array(rows * n).map(() => Math.random() * 10), [1, rows, n]);
  await time(ort, 'head (DQL → MatMulInteger → scale)', headGraph(k, n), (rows) => ({ x: new ort.Tensor('float32', new Float32Array(rows * k).map(() => Math.random() - 0.5), [1, rows, k]) }), null, repeats);
  const pass = passGraph(n);
  await time(ort, 'logits copied out (Identity)', pass, (rows) => ({ input_ids: ids(rows), x: logits(rows) }), null, repeats);
  const stats = rewriteForStatistics(pass);
  if (stats.kind !== 'rewritten') throw new Error(stats.refusal.detail);
  await time(ort, 'statistics ops, logits kept in', stats.bytes, (rows) => ({ input_ids: ids(rows), x: logits(rows) }), Object.values(STATS_OUTPUTS), repeats);
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.stack : e);
  process.exitCode = 1;
});
