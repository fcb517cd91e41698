// The tasks an lm-eval output names that this site does not read are said on the imported run
// (issue 46: a results file naming 10,000 of them imported with nothing said), in both languages:
// how many, the first few by name, the rest counted, the warning bounded in size whatever the file
// holds. Groups (`groups`, `group_subtasks`, the aclue group the import compares) are not tasks left
// out. Both the dumped simple_evaluate dict and the CLI's results file with its samples files.
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderNotice, type Notice } from '../../../src/lib/core/notices/index.ts';
import { parseRunFile } from '../../../src/lib/core/formats/import-record.ts';
import { readLmEvalFiles, type HarnessFileText } from '../../../src/lib/core/formats/lm-eval/import/lm-eval-files.ts';
import { SKIPPED_NAME_CHARS, SKIPPED_SHOWN } from '../../../src/lib/core/formats/lm-eval/import/lm-eval-skipped.ts';

const DIR = new URL('../../fixtures/lm-eval/', import.meta.url);
const NOW = '2026-01-01T00:00:00.000Z';
const UNKNOWN = 10_000;
const LONG = `long_${'x'.repeat(5000)}`;

const skippedOf = (warnings: readonly (string | Notice)[]): Notice | undefined =>
  warnings.find((w): w is Notice => typeof w !== 'string' && w.code === 'import.lm-eval-tasks-skipped');

/** `root` with 10,000 tasks this site does not read, configured and scored, and one with a 5,005-character name. */
function withUnknownTasks(root: Record<string, Record<string, unknown>>): void {
  for (let i = 0; i < UNKNOWN; i++) {
    const name = `mmlu_made_up_${String(i).padStart(5, '0')}`;
    root.configs[name] = { task: name, num_fewshot: 0 };
    root.results[name] = { 'acc,none': 0.5, alias: name };
  }
  root.results[LONG] = { 'acc,none': 0.5 };
}

function expectBoundedWarning(warning: Notice | undefined, all: number, first: string): void {
  expect(warning, 'no warning names the tasks left out').toBeDefined();
  const { skipped, more } = warning!.params as { skipped: string[]; more: number };
  expect(skipped).toHaveLength(SKIPPED_SHOWN);
  expect(skipped[0]).toBe(first);
  expect(skipped.every((name) => name.length <= SKIPPED_NAME_CHARS)).toBe(true);
  expect(skipped.length + more).toBe(all);
  const en = renderNotice(warning!, 'en');
  const zh = renderNotice(warning!, 'zh');
  expect(en).toMatch(new RegExp(`^${all} tasks this site does not read were left out of this run: ${first}, `));
  expect(en.endsWith(` and ${more} more.`)).toBe(true);
  expect(zh).toMatch(new RegExp(`^本次评测略去了 ${all} 个本站不读的任务：${first}、`));
  expect(zh.endsWith(`，另有 ${more} 个。`)).toBe(true);
  // Bounded whatever the file holds: 20 names of at most 80 characters, and a count.
  expect(JSON.stringify(warning).length).toBeLessThan(2500);
  expect(en.length).toBeLessThan(2500);
}

describe('a dumped results dict', () => {
  const text = readFileSync(new URL('aclue-two-tasks.json', DIR), 'utf8');

  it('names the tasks it configured or scored that this site does not read, bounded, the aclue group aside', async () => {
    const root = JSON.parse(text) as Record<string, Record<string, unknown>>;
    withUnknownTasks(root);
    const imported = await parseRunFile(JSON.stringify(root), 'aclue-two-tasks.json');
    expect(imported.run.config.tasks).toHaveLength(2);
    const warning = skippedOf(imported.run.warnings);
    expectBoundedWarning(warning, UNKNOWN + 1, 'mmlu_made_up_00000');
    expect((warning!.params.skipped as string[]).includes('aclue')).toBe(false);
  });

  it('says nothing of the kind when it names only tasks it reads', async () => {
    const imported = await parseRunFile(text, 'aclue-two-tasks.json');
    expect(skippedOf(imported.run.warnings)).toBeUndefined();
  });
});

describe('a results file with its samples files', () => {
  const folder = (name: string): HarnessFileText[] =>
    readdirSync(new URL(`${name}/`, DIR))
      .sort()
      .map((file) => ({ name: file, text: readFileSync(new URL(`${name}/${file}`, DIR), 'utf8') }));

  it('names a task scored in results alone too, bounded, its declared group aside', async () => {
    const files = folder('cli-aclue-stock').map((f) => {
      if (!f.name.startsWith('results_')) return f;
      const root = JSON.parse(f.text) as Record<string, Record<string, unknown>>;
      withUnknownTasks(root);
      // A task scored and never configured: the results file's other way to name a task.
      root.results.scored_only = { 'acc,none': 0.25 };
      return { ...f, text: JSON.stringify(root) };
    });
    const [imported] = await readLmEvalFiles(files, NOW);
    const warning = skippedOf(imported.run.warnings);
    expectBoundedWarning(warning, UNKNOWN + 2, 'mmlu_made_up_00000');
    expect((warning!.params.skipped as string[]).includes('aclue')).toBe(false);
    // The stock fixture alone leaves nothing out.
    const [plain] = await readLmEvalFiles(folder('cli-aclue-stock'), NOW);
    expect(skippedOf(plain.run.warnings)).toBeUndefined();
  });
});
