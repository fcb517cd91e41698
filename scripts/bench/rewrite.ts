// `npm run bench`, logits-rewrite part: how long rewriteForLastLogits takes on a single-file graph of
// about 500 MB, and the process's peak memory while it runs. The graph is jiangu-large-nokeep's fp32
// graph (Qwen3's vocabulary, weights inside the file, no num_logits_to_keep) widened from hidden size
// 256 (a 306 MiB file) to 416, so that its untied embedding and lm_head make it about 510 MB; written
// once with the generator's tools into .fixtures/bench-rewrite/ and reused while the generator is
// unchanged. A measurement, not a test.
//
// The rewrite is synchronous, so a timer on its thread cannot sample during it: a worker thread
// samples process.memoryUsage().rss (the whole process's) every few milliseconds, and Linux's VmHWM
// (the resident high-water mark) is read as well. The measurement runs in a child process that holds
// only the file's bytes, so the generator's weights are not counted.
//
//   npx tsx scripts/bench/rewrite.ts [--runs 3]
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { fixtureHash, onnxChunks, writeChunks } from '../fixtures/generate.ts';
import { ONNX_FILE, SPECS, type ModelSpec } from '../fixtures/specs.ts';
import { createModel } from '../fixtures/weights.ts';
import { projectRoot } from '../site-routes.ts';
import { rewriteForLastLogits } from '../../src/lib/core/models/logits-rewrite.ts';
import { machineInfo, machineLines, median, writeBenchRecord } from './report.ts';

const MODEL = 'jiangu-large-nokeep';
const MiB = 2 ** 20;

interface Measurement {
  file: string;
  fileBytes: number;
  outputBytes: number;
  graphBytes: number;
  head: { ops: string[]; sliceAt: string };
  /** The first rewrite (the one whose memory is measured) and the median of all runs. */
  firstMs: number;
  medianMs: number;
  runsMs: number[];
  /** A plain copy of the file into a new buffer, the floor a spliced output cannot beat. */
  copyMs: number;
  /** After reading the file, before the rewrite. */
  baseline: { rss: number; arrayBuffers: number };
  /** During the first rewrite. */
  peak: { rssSampled: number; vmHwm: number | null; arrayBuffersAfter: number };
}

/** jiangu-large-nokeep, wider: 2 × 151,936 × 416 × 4 bytes of embedding and head. */
const SPEC: ModelSpec = { ...SPECS[MODEL], hiddenSize: 416 };

/** The graph to rewrite, written if missing or made by another generator. */
function graphFile(): string {
  const hash = fixtureHash(SPEC);
  const dir = join(projectRoot, '.fixtures', 'bench-rewrite');
  const file = join(dir, ONNX_FILE.fp32);
  const stamp = join(dir, 'hash.txt');
  if (existsSync(file) && existsSync(stamp) && readFileSync(stamp, 'utf8') === hash) return file;
  mkdirSync(dir, { recursive: true });
  console.log(`Writing ${MODEL}'s fp32 graph at hidden size ${SPEC.hiddenSize} into ${dir} …`);
  writeChunks(file, onnxChunks(createModel(SPEC), 'fp32'));
  writeFileSync(stamp, hash);
  return file;
}

function vmHwm(): number | null {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
    return m === null ? null : Number(m[1]) * 1024;
  } catch {
    return null;
  }
}

/** Samples the process's rss from another thread until stopped; resolves to the largest seen. */
function rssSampler(): { stop: () => Promise<number> } {
  const worker = new Worker(
    `const { parentPort } = require('node:worker_threads');
     let max = 0, on = true;
     parentPort.on('message', () => { on = false; parentPort.postMessage(max); });
     (function tick() { if (!on) return; max = Math.max(max, process.memoryUsage.rss()); setTimeout(tick, 2); })();`,
    { eval: true },
  );
  return {
    stop: () =>
      new Promise<number>((resolve) => {
        worker.once('message', (max: number) => {
          void worker.terminate();
          resolve(max);
        });
        worker.postMessage('stop');
      }),
  };
}

async function measure(file: string, runs: number): Promise<Measurement> {
  const read = readFileSync(file);
  const bytes = new Uint8Array(read.buffer, read.byteOffset, read.byteLength); // a view: no second copy
  const before = process.memoryUsage();
  const sampler = rssSampler();
  await new Promise((r) => setTimeout(r, 50)); // the sampler's first tick
  const t0 = performance.now();
  let result = rewriteForLastLogits(bytes);
  const firstMs = performance.now() - t0;
  const arrayBuffersAfter = process.memoryUsage().arrayBuffers;
  const rssSampled = await sampler.stop();
  const hwm = vmHwm();
  if (result.kind !== 'rewritten') throw new Error(`${file} was not rewritten: ${JSON.stringify(result)}`);
  const { head, graphBytes } = result;
  const outputBytes = result.bytes.length;
  const runsMs = [firstMs];
  for (let i = 1; i < runs; i++) {
    const t = performance.now();
    result = rewriteForLastLogits(bytes);
    runsMs.push(performance.now() - t);
  }
  result = { kind: 'not-needed' }; // let the last output go before the copy's buffer is made
  const t1 = performance.now();
  new Uint8Array(bytes.length).set(bytes);
  const copyMs = performance.now() - t1;
  return {
    file,
    fileBytes: bytes.length,
    outputBytes,
    graphBytes,
    head,
    firstMs,
    medianMs: median(runsMs),
    runsMs,
    copyMs,
    baseline: { rss: before.rss, arrayBuffers: before.arrayBuffers },
    peak: { rssSampled, vmHwm: hwm, arrayBuffersAfter },
  };
}

function mib(n: number | null): string {
  return n === null ? '—' : `${(n / MiB).toFixed(0)} MiB`;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '3' }, measure: { type: 'string' } } });
  const runs = Math.max(1, Number(values.runs));
  if (values.measure !== undefined) {
    process.stdout.write(JSON.stringify(await measure(values.measure, runs)));
    return;
  }
  const started = Date.now();
  const date = new Date();
  const file = graphFile();
  // A fresh process: only the file's bytes and the rewrite in its memory.
  const out = execFileSync(process.execPath, [...process.execArgv, process.argv[1], '--measure', file, '--runs', String(runs)], { encoding: 'utf8', maxBuffer: 16 * MiB });
  const m = JSON.parse(out) as Measurement;
  console.log(`\n## Logits rewrite of a single-file graph (${MODEL} fp32 at hidden size ${SPEC.hiddenSize})\n`);
  console.log(machineLines(machineInfo('—'), date, (Date.now() - started) / 1000));
  console.log(`- file: ${m.file} (${mib(m.fileBytes)}; graph message ${mib(m.graphBytes)}); head ${m.head.ops.join(' ← ')}, sliced at ${m.head.sliceAt}`);
  console.log('');
  console.log('| rewrite, first | rewrite, median of ' + m.runsMs.length + ' | plain copy of the file | output | rss before | peak rss (sampled) | peak rss (VmHWM) | peak − before | arrayBuffers before → after |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  const peak = Math.max(m.peak.rssSampled, m.peak.vmHwm ?? 0);
  console.log(
    `| ${m.firstMs.toFixed(0)} ms | ${m.medianMs.toFixed(0)} ms | ${m.copyMs.toFixed(0)} ms | ${mib(m.outputBytes)} | ${mib(m.baseline.rss)} | ${mib(m.peak.rssSampled)} | ${mib(m.peak.vmHwm)} | ${mib(peak - m.baseline.rss)} | ${mib(m.baseline.arrayBuffers)} → ${mib(m.peak.arrayBuffersAfter)} |`,
  );
  console.log('\nThe output is the input copied once with a few hundred bytes changed: peak − before should be about one file.');
  writeBenchRecord(projectRoot, 'rewrite-', date, { machine: machineInfo('—'), model: MODEL, hiddenSize: SPEC.hiddenSize, ...m });
}

await main();
