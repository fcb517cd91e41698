// A run file's sample and stop rule (issue 36; absent in files written before: the first
// limitPerTask of each task in file order, asked task by task, to the last item). Read as untrusted
// input: the draw, order, seed and blocks each in their range, a population for the run's tasks and
// no other, whose sizes give exactly the items the file lists. That the seed draws those very items
// needs the benchmark's items: the import checks it against this browser's copy where it holds the
// same files (data/run-sample-check.ts, 'import.sample-not-drawn').
import type { RunSampling, StopRule } from '../../protocols/run-sampling.ts';
import { sampleSize } from '../../protocols/sample-check.ts';
import { FieldReader, RUN_IMPORT_LIMITS, fail, finite, id, int, oneOf, problem, type Obj } from '../import-validate.ts';

/** What a sampled configuration must already hold when its sample is read. */
interface Sized {
  tasks: readonly string[];
  limitPerTask: number | null;
  itemIds: readonly string[];
}

/** The config's `sampling` and `stopRule`, each only when the file has it. */
export function sampleFieldsOf(r: FieldReader, o: Obj, config: Sized): { sampling?: RunSampling; stopRule?: StopRule } {
  const out: { sampling?: RunSampling; stopRule?: StopRule } = {};
  if (o.sampling !== undefined) out.sampling = samplingOf(r, o.sampling, 'run.config.sampling', config);
  if (o.stopRule !== undefined) out.stopRule = stopRuleOf(r, o.stopRule, 'run.config.stopRule');
  return out;
}

export const SAMPLE_CONFIG_KEYS = ['sampling', 'stopRule'] as const;

function samplingOf(r: FieldReader, value: unknown, path: string, config: Sized): RunSampling {
  const o = r.object(value, path, ['draw', 'seed', 'order', 'block', 'population'], ['growth', 'maxBlock']);
  const sampling: RunSampling = {
    draw: oneOf(o.draw, `${path}.draw`, { random: true, first: true }),
    seed: int(o.seed, `${path}.seed`, 0, 0xffffffff),
    order: oneOf(o.order, `${path}.order`, { shuffled: true, file: true }),
    block: int(o.block, `${path}.block`, 1, RUN_IMPORT_LIMITS.results),
    population: {},
  };
  if (o.growth !== undefined) sampling.growth = finite(o.growth, `${path}.growth`, 1, 64);
  if (o.maxBlock !== undefined) sampling.maxBlock = int(o.maxBlock, `${path}.maxBlock`, 1, RUN_IMPORT_LIMITS.results);
  // Keys are task names: each of the run's tasks once, no other (fromEntries keeps __proto__ a plain key).
  const p = r.object(o.population, `${path}.population`, []);
  for (const key of Object.keys(p)) r.ignored.delete(`${path}.population.${key.slice(0, 60)}`);
  const extra = Object.keys(p).find((key) => !config.tasks.includes(key));
  if (extra !== undefined) fail(`${path}.population`, { expected: 'one-of', set: [...config.tasks] }, extra);
  sampling.population = Object.fromEntries(
    config.tasks.map((task) => {
      if (!Object.hasOwn(p, task)) fail(`${path}.population.${task}`, { expected: 'value' }, undefined);
      return [task, int(p[task], `${path}.population.${task}`, 0, RUN_IMPORT_LIMITS.results)];
    }),
  );
  const expected = sampleSize(config.tasks, config.limitPerTask, sampling.population);
  if (expected !== config.itemIds.length) throw problem('import.sample-size', { path: `${path}.population`, items: config.itemIds.length, expected, perTask: config.limitPerTask });
  return sampling;
}

function stopRuleOf(r: FieldReader, value: unknown, path: string): StopRule {
  const o = r.object(value, path, ['kind', 'alpha'], ['halfWidth', 'baselineRunId']);
  const kind = oneOf(o.kind, `${path}.kind`, { precision: true, 'sign-settled': true });
  // Strictly inside (0, 1): an alpha of 0 or 1 is no confidence level.
  const alpha = finite(o.alpha, `${path}.alpha`, Number.MIN_VALUE, 1 - Number.EPSILON);
  if (kind === 'precision') {
    r.object(o, path, ['kind', 'alpha', 'halfWidth']);
    return { kind, alpha, halfWidth: finite(o.halfWidth, `${path}.halfWidth`, Number.MIN_VALUE, 1) };
  }
  r.object(o, path, ['kind', 'alpha', 'baselineRunId']);
  return { kind, alpha, baselineRunId: id(o.baselineRunId, `${path}.baselineRunId`) };
}
