// The order files start in: longest first, by the seconds each took in the last profile
// (test/file-seconds.json, written by `npm run test:profile -- --save-order`), so that on a clean
// clone, which has no vitest cache, a long file does not start last and run alone while the other
// worker idles (reading-large started 916 s into a 1,145 s browser run and ran the last 77 s alone).
// A file the table does not know yet takes vitest's own cached duration, else the table's median.
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import seconds from './file-seconds.json' with { type: 'json' };

const known = seconds as Record<string, number>;
const values = Object.values(known).sort((a, b) => a - b);
const median = values.length ? values[Math.floor(values.length / 2)] : 0;

export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const weight = (spec: TestSpecification): number => {
      const path = relative(this.ctx.config.root, spec.moduleId);
      const cached = this.ctx.cache.getFileTestResults(`${spec.project.name}:${path}`)?.duration;
      return known[path] ?? (cached !== undefined ? cached / 1000 : median);
    };
    return [...files].sort((a, b) => {
      const group = a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder;
      if (group !== 0) return group;
      if (a.project.name !== b.project.name) return a.project.name < b.project.name ? -1 : 1;
      return weight(b) - weight(a);
    });
  }
}
