// AncientBench imports, against the sample files shipped in public/samples (original items).
import { describe, expect, it } from 'vitest';
import { adaptAncientBench, adaptDataset } from '../../../src/lib/core/benchmarks/adapters/index.ts';
import { ANCIENTBENCH_TASKS } from '../../../src/lib/core/benchmarks/catalog-tasks.ts';
import { buildDatasetRecord, summarizeItems } from '../../../src/lib/core/benchmarks/summary.ts';
import type { MultipleChoiceItem } from '../../../src/lib/core/benchmarks/types.ts';
import { DataProblemsError, MAX_LISTED_PROBLEMS } from '../../../src/lib/core/benchmarks/errors.ts';
import { catchDataError, repoFile, textFile } from './helpers.ts';

const csv = () => repoFile('public/samples/ancientbench-sample.csv');
const jsonl = () => repoFile('public/samples/ancientbench-sample.jsonl');
const withoutSource = (items: readonly MultipleChoiceItem[]) => items.map(({ source: _source, ...rest }) => rest);

describe('AncientBench samples', () => {
  const fromCsv = adaptAncientBench([csv()]).items as MultipleChoiceItem[];
  const fromJsonl = adaptAncientBench([jsonl()]).items as MultipleChoiceItem[];

  it('give the same items from CSV and from JSON Lines', () => {
    expect(fromCsv.length).toBe(80);
    expect(withoutSource(fromCsv)).toEqual(withoutSource(fromJsonl));
  });

  it('cover all ten tasks with 5 dev exemplars and 3 test items each', () => {
    const { itemCount, tasks } = summarizeItems(fromCsv);
    expect(itemCount).toBe(80);
    expect(Object.keys(tasks).sort()).toEqual(ANCIENTBENCH_TASKS.map((task) => task.key).sort());
    for (const count of Object.values(tasks)) expect(count).toEqual({ dev: 5, test: 3 });
  });

  it('normalize Chinese task names to English', () => {
    // Row 4 of the CSV says 部首, row 12 部首义.
    expect(fromCsv[2].task).toBe('Radical');
    expect(fromCsv[10].task).toBe('Radical Meaning');
  });

  it('spread answers over all four letters, with four options each', () => {
    const letters = new Set(fromCsv.map((item) => item.answer));
    expect([...letters].sort()).toEqual(['A', 'B', 'C', 'D']);
    expect(fromCsv.every((item) => item.options.length === 4 && item.options.every((o) => o.trim() !== ''))).toBe(true);
  });

  it('keep the id column as ids and number order within (task, split)', () => {
    expect(fromCsv[0]).toMatchObject({ id: 'sample-01', task: 'Radical', split: 'dev', order: 0, answer: 'A' });
    expect(fromCsv.find((item) => item.id === 'sample-08')).toMatchObject({ task: 'Radical', split: 'test', order: 2 });
  });

  it('keep quoted and multi-line CSV fields, with the lines rows start on', () => {
    const translation = fromCsv.filter((item) => item.task === 'Translation');
    expect(translation.every((item) => item.question.startsWith('下面句子的正确翻译是：\n'))).toBe(true);
    // Each of the 8 translation rows spans two lines, so the CSV lines run ahead of the JSONL lines.
    expect(translation.map((item) => item.source.line)).toEqual([74, 76, 78, 80, 82, 84, 86, 88]);
    expect(fromJsonl.filter((item) => item.task === 'Translation').map((item) => item.source.line)).toEqual([73, 74, 75, 76, 77, 78, 79, 80]);
    expect(fromCsv.find((item) => item.id === 'sample-57')?.question).toMatch(/^选出填入括号处最恰当的一项："学而不思则罔/);
  });

  it('make a DatasetRecord for an import', () => {
    const record = buildDatasetRecord({
      id: 'ancientbench',
      origin: 'import',
      files: [{ path: 'ancientbench-sample.csv', sha256: 'x'.repeat(64), bytes: csv().bytes.length }],
      items: fromCsv,
      importedAt: '2026-01-01T00:00:00.000Z',
    });
    expect(record).toMatchObject({ id: 'ancientbench', origin: 'import', source: 'ancientbench-sample.csv', commit: null, itemCount: 80 });
    expect(record.tasks.Cloze).toEqual({ dev: 5, test: 3 });
    expect(record.attribution).toMatch(/^Zhihan Zhou, .*arXiv:2512\.17756/);
  });

  it('refuse the same ids imported twice, naming both files and lines, every one of them', () => {
    let thrown: unknown;
    try {
      adaptDataset('ancientbench', [csv(), jsonl()]);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(DataProblemsError);
    const all = thrown as DataProblemsError;
    expect([all.count, all.problems.length]).toEqual([80, MAX_LISTED_PROBLEMS]);
    const [error] = all.problems;
    expect([error.file, error.line, error.field]).toEqual(['ancientbench-sample.jsonl', 1, 'id']);
    expect(error.detail).toBe('duplicate id "sample-01" (first used at ancientbench-sample.csv, line 2)');
  });
});

describe('AncientBench format', () => {
  const HEADER = 'task,question,A,B,C,D,answer\n';

  it('falls back to <task>/<split>/<order> ids and reads split case-insensitively', () => {
    const text = 'task,question,A,B,C,D,answer,split\n部首,q1,a,b,c,d,A,DEV\nradical,q2,a,b,c,d,b,\nRadical,q3,a,b,c,d,C,test\n';
    const items = adaptAncientBench([textFile('mine.csv', text)]).items as MultipleChoiceItem[];
    expect(items.map((item) => [item.id, item.answer])).toEqual([
      ['Radical/dev/0', 'A'],
      ['Radical/test/0', 'B'],
      ['Radical/test/1', 'C'],
    ]);
  });

  it('reads JSON Lines by content when the name does not say, with numeric ids', () => {
    const line = JSON.stringify({ task: 'Cloze', question: 'q', A: 'a', B: 'b', C: 'c', D: 'd', answer: 'D', id: 7 });
    const items = adaptAncientBench([textFile('export.txt', `${line}\n\n`)]).items;
    expect(items.map((item) => [item.id, item.source.line])).toEqual([['7', 1]]);
  });

  it('accepts three options with D left empty', () => {
    const items = adaptAncientBench([textFile('t.csv', `${HEADER}Cloze,q,a,b,c,,C\n`)]).items as MultipleChoiceItem[];
    expect(items[0].options).toEqual(['a', 'b', 'c']);
  });

  it('refuses an unknown task, naming the accepted ones', () => {
    const error = catchDataError(() => adaptAncientBench([textFile('t.csv', `${HEADER}Rhyme,q,a,b,c,d,A\n`)]));
    expect([error.line, error.field]).toEqual([2, 'task']);
    expect(error.detail).toMatch(/^unknown task "Rhyme"; expected one of Radical \(部首\), .*Translation \(翻译\)$/);
  });

  it('refuses a split other than dev or test rather than scoring it as test', () => {
    const text = 'task,question,A,B,C,D,answer,split\nCloze,q,a,b,c,d,A,train\n';
    const error = catchDataError(() => adaptAncientBench([textFile('t.csv', text)]));
    expect(error.message).toBe('t.csv, line 2, field "split": expected "dev" or "test" (or empty for test), got "train"');
  });

  it('refuses JSON Lines rows with unexpected keys, missing keys or non-text values', () => {
    const row = { task: 'Cloze', question: 'q', A: 'a', B: 'b', C: 'c', D: 'd', answer: 'A' };
    const check = (value: object, field: string, detail: RegExp) => {
      const error = catchDataError(() => adaptAncientBench([textFile('t.jsonl', `${JSON.stringify(row)}\n${JSON.stringify(value)}\n`)]));
      expect([error.line, error.field]).toEqual([2, field]);
      expect(error.detail).toMatch(detail);
    };
    check({ ...row, Answer: 'A' }, 'Answer', /^unexpected key/);
    check({ ...row, answer: undefined }, 'answer', /^missing$/);
    check({ ...row, B: 2 }, 'B', /^expected a string, got a number$/);
  });

  it('refuses an empty option before a filled one, naming it', () => {
    const error = catchDataError(() => adaptAncientBench([textFile('t.csv', `${HEADER}Cloze,q,a,,c,d,A\n`)]));
    expect(error.message).toBe('t.csv, line 2, field "B": option is empty but a later option is not');
  });
});
