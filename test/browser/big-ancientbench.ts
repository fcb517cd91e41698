// A large AncientBench-format CSV made up on the spot (no benchmark data): rows cycle through the
// ten tasks, with a question long enough that the file reaches the asked size. For the big-import
// browser test and the main-thread measurement (scripts/bench/import-main-thread.ts, part of npm run bench).
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
