// A large AncientBench-format CSV made up on the spot (no benchmark data): rows cycle through the
// ten tasks, with a question long enough that the file reaches the asked size. For the big-import
// browser test and the main-thread measurement (scripts/bench/import-main-thread.ts, part of npm run bench).
import type { Page } from 'playwright-core';
import { ANCIENTBENCH_TASKS } from '../../src/lib/core/benchmarks/catalog-tasks.ts';

const FILLER = '天地玄黄宇宙洪荒日月盈昃辰宿列张寒来暑往秋收冬藏闰余成岁律吕调阳云腾致雨露结为霜';

/** A CSV of about `bytes` bytes (UTF-8) and exactly `rows` rows, and that row count. */
export function bigAncientBenchCsv(bytes: number): { csv: Buffer; rows: number } {
  const header = 'task,question,A,B,C,D,answer,split,id\n';
  const question = FILLER.repeat(4); // about 480 bytes of UTF-8
  const lines: string[] = [header];
  let size = header.length;
  let rows = 0;
  while (size < bytes) {
    const task = ANCIENTBENCH_TASKS[rows % ANCIENTBENCH_TASKS.length].en;
    const line = `${task},${rows}：${question},甲${rows},乙,丙,丁,${'ABCD'[rows % 4]},${rows % 50 === 0 ? 'dev' : 'test'},big-${rows}\n`;
    lines.push(line);
    size += Buffer.byteLength(line);
    rows++;
  }
  return { csv: Buffer.from(lines.join('')), rows };
}

/** The size of AncientBench in its paper: 28,707 questions, of which 50 (5 a task) are dev. */
export const PAPER_SIZE = { items: 28_707, dev: 50 };

/**
 * An AncientBench-format CSV of exactly `items` questions (`dev` of them dev, spread over the tasks:
 * the ten, or the first `tasks`), about 370 bytes a row as the paper-size file the full-size bench and
 * its browser test use.
 */
export function ancientBenchOfItems(items: number, dev: number, tasks = ANCIENTBENCH_TASKS.length): Buffer {
  const question = FILLER.repeat(2);
  const lines = ['task,question,A,B,C,D,answer,split,id\n'];
  for (let i = 0; i < items; i++) {
    const task = ANCIENTBENCH_TASKS[i % tasks].en;
    const split = Math.floor(i / tasks) < dev / tasks ? 'dev' : 'test';
    lines.push(`${task},${i}：${question},甲${i},乙${i},丙,丁,${'ABCD'[(i * 7) % 4]},${split},paper-${i}\n`);
  }
  return Buffer.from(lines.join(''));
}

/** Imports a generated AncientBench file of `items` questions (`dev` of them dev) on the Data page, and waits until it is stored. */
export async function importAncientBenchOf(page: Page, items: number, dev: number): Promise<void> {
  await page.locator('[data-testid=catalog][data-loaded=true]').waitFor();
  await page.getByTestId('import-kind').selectOption('ancientbench');
  await page.getByTestId('file-input').setInputFiles({ name: 'ancientbench.csv', mimeType: 'text/csv', buffer: ancientBenchOfItems(items, dev) });
  await page.locator('[data-testid=dataset-ancientbench][data-stored=yes]').waitFor({ timeout: 60_000 });
}
