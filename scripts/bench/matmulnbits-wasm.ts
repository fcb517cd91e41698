// Why a q4 decode step on WASM costs about as much as a whole prompt: one MatMulNBits node (4-bit,
// block 32, the q4 fixtures' layout) timed for 1, 8 and 39 rows in onnxruntime-web's wasm (1 thread,
// the kernel the worker runs) against onnxruntime-node's native CPU kernel and a plain fp32 MatMul.
// onnxruntime-web's MatMulNBits takes about the same time whatever the rows, and its first run grows
// the process by about K × N × 4 bytes: it dequantizes the whole weight to fp32 each run and then
// multiplies, where the native kernel runs a packed 4-bit product. Process CPU time is printed beside
// wall time because a shared machine's wall time says little. A measurement, not a test.
//
//   npx tsx scripts/bench/matmulnbits-wasm.ts [--k 1024] [--n 151936] [--zero-points]
//   (the default is Qwen3-0.6B's lm_head: hidden 1024 × vocabulary 151,936)
import { parseArgs } from 'node:util';
import * as ortNode from 'onnxruntime-node';
import * as ortWeb from 'onnxruntime-web';
import { attr, GraphBuilder } from '../fixtures/graph-builder.ts';
import { DataType, encodeModel } from '../fixtures/onnx-proto.ts';
import { quantizeQ4 } from '../fixtures/quantize.ts';

const ROWS = [1, 1, 8, 39];

function graphBytes(kind: 'q4' | 'fp32', k: number, n: number, zeroPoints: boolean): Uint8Array {
  const g = new GraphBuilder();
  const x = g.input('x', DataType.FLOAT, [1, 'rows', k]);
  // Random weights: the kernel's cost does not depend on their values.
  const w = new Float32Array(n * k).map(() => Math.random() - 0.5);
  if (kind === 'fp32') {
    const t = new Float32Array(k * n);
    for (let r = 0; r < n; r++) for (let c = 0; c < k; c++) t[c * n + r] = w[r * k + c];
    g.opNamed('MatMul', [x, g.initializer('w', DataType.FLOAT, [k, n], t)], 'y');
  } else {
    const q = quantizeQ4({ name: 'w.weight', outFeatures: n, inFeatures: k, weight: w }, 32);
    const inputs = [x, g.initializer('b', DataType.UINT8, [n, q.kBlocks, 16], q.packed), g.initializer('s', DataType.FLOAT, [n * q.kBlocks], q.scales)];
    // The hub's q4 exports are symmetric (no zero points); the fixtures' are asymmetric. Both are slow.
    if (zeroPoints) inputs.push(g.initializer('z', DataType.UINT8, [q.zeroPoints.length], q.zeroPoints));
    g.opNamed('MatMulNBits', inputs, 'y', { domain: 'com.microsoft', attributes: [attr.int('K', k), attr.int('N', n), attr.int('bits', 4), attr.int('block_size', 32)] });
  }
  g.output('y', DataType.FLOAT, [1, 'rows', n]);
  const opsetImports = [{ domain: '', version: 17 }, { domain: 'com.microsoft', version: 1 }];
  return encodeModel({ irVersion: 8, opsetImports, producerName: 'jiangu-bench', producerVersion: '0', graph: g.build('matmul') }).toBytes();
}

interface Runtime {
  InferenceSession: { create(bytes: Uint8Array, options?: object): Promise<{ run(feeds: Record<string, unknown>): Promise<unknown> }> };
  Tensor: new (type: 'float32', data: Float32Array, dims: number[]) => unknown;
}

async function time(label: string, ort: Runtime, bytes: Uint8Array, k: number, options: object): Promise<void> {
  const mib = () => Math.round(process.memoryUsage().rss / 2 ** 20);
  const session = await ort.InferenceSession.create(bytes, options);
  const before = mib();
  const cells: string[] = [];
  for (const rows of ROWS) {
    const wall = performance.now();
    const cpu = process.cpuUsage();
    await session.run({ x: new ort.Tensor('float32', new Float32Array(rows * k).fill(0.1), [1, rows, k]) });
    const used = process.cpuUsage(cpu);
    cells.push(`${rows} row${rows > 1 ? 's' : ''}: ${((used.user + used.system) / 1000).toFixed(0)} ms cpu / ${(performance.now() - wall).toFixed(0)} ms wall`);
  }
  console.log(`${label.padEnd(22)} ${cells.join(' | ')} | rss +${mib() - before} MiB over the runs`);
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { k: { type: 'string' }, n: { type: 'string' }, 'zero-points': { type: 'boolean' } } });
  const k = Number(values.k ?? 1024);
  const n = Number(values.n ?? 151936);
  ortWeb.env.wasm.numThreads = 1;
  const q4 = graphBytes('q4', k, n, values['zero-points'] ?? false);
  const fp32 = graphBytes('fp32', k, n, false);
  console.log(`K=${k} N=${n}: the fp32 weight is ${((k * n * 4) / 2 ** 20).toFixed(0)} MiB`);
  await time('web MatMulNBits', ortWeb as unknown as Runtime, q4, k, {});
  await time('node MatMulNBits', ortNode as unknown as Runtime, q4, k, { intraOpNumThreads: 1 });
  await time('web fp32 MatMul', ortWeb as unknown as Runtime, fp32, k, {});
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exitCode = 1;
});
