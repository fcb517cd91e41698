// Command-line options of `npm run bench` (after `--`): which backends, models and dtypes to
// measure, and how many warm forwards to time per configuration.
import { parseArgs } from 'node:util';
import type { Backend } from '../../src/lib/engine/messages.ts';
import { DTYPES, type Dtype, type ModelName } from '../fixtures/specs.ts';

export interface BenchOptions {
  backends: Backend[];
  models: ModelName[];
  dtypes: Dtype[];
  /** Warm forwards timed per configuration (fewer when one configuration runs past its budget). */
  repeats: number;
}

const BACKENDS: readonly Backend[] = ['wasm', 'webgpu'];
const MODELS: readonly ModelName[] = ['jiangu-tiny', 'jiangu-large'];

export const USAGE =
  'Usage: npm run bench -- [--backends wasm,webgpu] [--models jiangu-tiny,jiangu-large] [--dtypes fp32,q8,q4] [--repeats 10]';

/** A whole-number option of a bench script: `fallback` when absent, else a positive (or, with `allowZero`, non-negative) integer, or an error naming the flag and the script's usage. */
export function integerOption(flag: string, value: string | undefined, fallback: number, usage: string, allowZero = false): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < (allowZero ? 0 : 1)) throw new Error(`--${flag} must be a ${allowZero ? 'non-negative' : 'positive'} integer, not ${value}.\n${usage}`);
  return n;
}

function list<T extends string>(flag: string, value: string | undefined, allowed: readonly T[]): T[] {
  if (value === undefined) return [...allowed];
  const items = value.split(',').map((s) => s.trim()).filter(Boolean);
  const bad = items.filter((s) => !(allowed as readonly string[]).includes(s));
  if (bad.length > 0 || items.length === 0) {
    throw new Error(`--${flag}: ${bad.length > 0 ? `unknown ${bad.join(', ')}` : 'empty'}; choose from ${allowed.join(', ')}.\n${USAGE}`);
  }
  return allowed.filter((a) => items.includes(a));
}

export function parseOptions(argv: readonly string[]): BenchOptions {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      backends: { type: 'string' },
      models: { type: 'string' },
      dtypes: { type: 'string' },
      repeats: { type: 'string' },
    },
    strict: true,
    allowPositionals: false,
  });
  const repeats = values.repeats === undefined ? 10 : Number(values.repeats);
  if (!Number.isInteger(repeats) || repeats < 1) throw new Error(`--repeats must be a positive integer, not ${values.repeats}.\n${USAGE}`);
  return {
    backends: list('backends', values.backends, BACKENDS),
    models: list('models', values.models, MODELS),
    dtypes: list('dtypes', values.dtypes, DTYPES),
    repeats,
  };
}
