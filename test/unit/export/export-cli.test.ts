// `npm run export:lm-eval`: writes the folder, and refuses a bad dataset id, a missing file and a
// non-empty out folder with its own message, writing nothing.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const work = mkdtempSync(join(tmpdir(), 'jiangu-export-cli-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function cli(...args: string[]): { code: number; stdout: string; stderr: string } {
  try {
    const stdout = execFileSync(join(ROOT, 'node_modules/.bin/tsx'), [join(ROOT, 'scripts/export-lm-eval.ts'), ...args], { cwd: ROOT, encoding: 'utf8', stdio: 'pipe' });
    return { code: 0, stdout, stderr: '' };
  } catch (error) {
    const e = error as { status: number; stdout: string; stderr: string };
    return { code: e.status, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('npm run export:lm-eval', () => {
  it('writes the AncientBench sample folder: YAMLs, JSONL, groups, utils.py, README', () => {
    const out = join(work, 'sample');
    const run = cli('--dataset', 'ancientbench', '--shots', '5', '--out', out);
    expect(run.code).toBe(0);
    const files = readdirSync(out).sort();
    expect(files).toContain('utils.py');
    expect(files).toContain('README.md');
    expect(files).toContain('jiangu_ancientbench_5shot.yaml');
    expect(files).toContain('jiangu_ancientbench_5shot_radical.yaml');
    expect(files).toContain('jiangu_ancientbench_5shot_radical.jsonl');
    expect(files.filter((f) => f.endsWith('.yaml'))).toHaveLength(10 + 4 + 1);
    const readme = readFileSync(join(out, 'README.md'), 'utf8');
    expect(readme).toContain('--include_path . --tasks jiangu_ancientbench_5shot');
    expect(readme).toContain('tensor_parallel_size=2,data_parallel_size=2');
    expect(readme).toContain('--log_samples --output_path results');
  }, 60_000);

  it('--circular writes every item once per rotation of its options, under _circular names', () => {
    const out = join(work, 'circular');
    const run = cli('--dataset', 'ancientbench', '--shots', '0', '--out', out, '--circular');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/30 items as 120 docs \(one per rotation\), group jiangu_ancientbench_0shot_circular/);
    const docs = readFileSync(join(out, 'jiangu_ancientbench_0shot_circular_radical.jsonl'), 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as { jiangu_id: string; jiangu_rotation: number });
    expect(docs.slice(0, 4).map((d) => d.jiangu_rotation)).toEqual([0, 1, 2, 3]);
    expect(new Set(docs.slice(0, 4).map((d) => d.jiangu_id)).size).toBe(1);
    expect(readFileSync(join(out, 'README.md'), 'utf8')).toContain('## Circular evaluation');
  }, 60_000);

  it('--cloze writes the option-text tasks under _cloze names, and refuses --cloze with --circular', () => {
    const out = join(work, 'cloze');
    const run = cli('--dataset', 'ancientbench', '--shots', '0', '--out', out, '--cloze');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/group jiangu_ancientbench_0shot_cloze \(protocol ancientbench, scored on the option texts \(cloze\)\)/);
    const yaml = readFileSync(join(out, 'jiangu_ancientbench_0shot_cloze_radical.yaml'), 'utf8');
    expect(yaml).toMatch(/^\s+scoring: "cloze"$/m);
    expect(yaml).toMatch(/metric: "acc_bytes"/);
    expect(readFileSync(join(out, 'README.md'), 'utf8')).toContain('## Scoring: option text (cloze)');
    const both = join(work, 'cloze-circular');
    const refused = cli('--dataset', 'ancientbench', '--shots', '0', '--out', both, '--cloze', '--circular');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('circular evaluation and option-text (cloze) scoring do not go together');
    expect(existsSync(both)).toBe(false);
  }, 60_000);

  it('refuses an unknown dataset id, naming the ones it knows', () => {
    const out = join(work, 'unknown');
    const run = cli('--dataset', 'acleu', '--shots', '0', '--out', out);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('Unknown dataset "acleu": the export knows aclue, cmmlu-ancient, ac-eval, wenmind, ancientbench, c3bench.');
    expect(existsSync(out)).toBe(false);
  }, 60_000);

  it('refuses a missing data file, naming it', () => {
    const out = join(work, 'missing');
    const run = cli('--dataset', 'cmmlu-ancient', '--shots', '0', '--out', out, '--data', join(work, 'no-data'));
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`the data file "${join(work, 'no-data', 'cmmlu-ancient_chinese', 'data/dev/ancient_chinese.csv')}" is missing`);
    expect(existsSync(out)).toBe(false);
  }, 60_000);

  it('refuses an out folder that is not empty, touching nothing in it', () => {
    const out = join(work, 'full');
    const run0 = cli('--dataset', 'ancientbench', '--shots', '0', '--out', out);
    expect(run0.code).toBe(0);
    writeFileSync(join(out, 'mine.txt'), 'keep');
    const before = readdirSync(out).sort();
    const run = cli('--dataset', 'ancientbench', '--shots', '5', '--out', out);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`The output folder "${out}" exists and is not empty: nothing was written.`);
    expect(readdirSync(out).sort()).toEqual(before);
    expect(readFileSync(join(out, 'jiangu_ancientbench_0shot.yaml'), 'utf8')).toContain('jiangu_ancientbench_0shot');
  }, 60_000);
});
