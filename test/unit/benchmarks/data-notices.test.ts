// DataError and its relatives as notices: the location and the detail are parameters, worded by
// the catalog in English (the `.message`, unchanged) and in Chinese; a file's problems are listed
// together; CMMLU's and ACLUE's own layout is read when the file names its task.
import { describe, expect, it } from 'vitest';
import { adaptAncientBench } from '../../../src/lib/core/benchmarks/adapters/index.ts';
import { DataError, DataProblemsError, MAX_LISTED_PROBLEMS, noticesOf } from '../../../src/lib/core/benchmarks/errors.ts';
import type { MultipleChoiceItem } from '../../../src/lib/core/benchmarks/types.ts';
import { getDataset, rawUrl } from '../../../src/lib/core/benchmarks/catalog.ts';
import { noticeOf, renderNotice } from '../../../src/lib/core/notices/index.ts';
import { catchDataError, textFile } from './helpers.ts';

const HEADER = 'task,question,A,B,C,D,answer,split,id\n';

function refusal(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to refuse');
}

describe('DataError as a notice', () => {
  it('keeps its location as parameters and words it in both languages, the English as before', () => {
    const error = new DataError({ file: 'data/test/通假字.csv', line: 17, field: 'Answer' }, 'data.not-a-letter', { got: 'E' });
    expect(error.message).toBe('data/test/通假字.csv, line 17, field "Answer": expected a letter A–D, got "E"');
    expect(error.detail).toBe('expected a letter A–D, got "E"');
    expect(noticeOf(error)).toEqual({ code: 'data.not-a-letter', params: { got: 'E', file: 'data/test/通假字.csv', line: 17, field: 'Answer' } });
    expect(renderNotice(noticeOf(error), 'zh')).toBe('data/test/通假字.csv，第 17 行，字段“Answer”：应为字母 A–D，实为“E”');
    // Plain JSON: it survives postMessage and IndexedDB as it is.
    expect(JSON.parse(JSON.stringify(noticeOf(error)))).toEqual(noticeOf(error));
  });

  it('words what the adapters throw in Chinese too: records, headers, JSON shapes', () => {
    const header = catchDataError(() => adaptAncientBench([textFile('h.csv', 'task,question,A,B,C,answer\nRadical,q,a,b,c,A\n')]));
    expect(header.message).toBe('h.csv, line 1: wrong header: missing column "D"; expected "task", "question", "A", "B", "C", "D", "answer" (optional: "split", "id")');
    expect(renderNotice(header.notice, 'zh')).toBe('h.csv，第 1 行：表头不对：缺少列 “D”；应为 “task”、“question”、“A”、“B”、“C”、“D”、“answer”（可选：“split”、“id”）');
    const json = catchDataError(() => adaptAncientBench([textFile('r.jsonl', '[1]\n')]));
    expect(json.message).toBe('r.jsonl, line 1: expected an object, got a list');
    expect(renderNotice(json.notice, 'zh')).toBe('r.jsonl，第 1 行：应为对象，实为列表');
    const utf8 = catchDataError(() => adaptAncientBench([{ path: 'x.csv', bytes: new Uint8Array([0x61, 0xff]) }]));
    expect(renderNotice(utf8.notice, 'zh')).toBe('x.csv：不是有效的 UTF-8（第一个错误字节在偏移 1 处）；请把文件另存为 UTF-8 后再导入');
  });

  it('gives catalog errors a code', () => {
    const error = refusal(() => rawUrl('ancientbench', 'x.csv'));
    expect(noticeOf(error).code).toBe('data.no-repository');
    expect(renderNotice(noticeOf(error), 'zh')).toBe('数据集“ancientbench”没有可供下载的公开仓库');
  });

  it('has every licence line in both languages', () => {
    expect(getDataset('ancientbench').licenseText.zh).toMatch(/^未公开/);
    expect(getDataset('c3bench').licenseText).toEqual({ en: 'none stated in the repository', zh: '仓库中未声明许可' });
    expect(getDataset('aclue').licenseText).toEqual({ en: 'CC BY-NC-SA 4.0', zh: 'CC BY-NC-SA 4.0' });
  });
});

describe('every problem of a file at once', () => {
  it('lists each wrong field of each row, in file order, with the count', () => {
    const text = `${HEADER}Rhyme,q,a,b,c,d,A,test,1\nRadical,,a,b,c,d,E,test,2\nRadical,q,a,b,c,d,A,train,3\nRadical,q,a,b,c,d,A,test,4\nRadical,q,a,b,c,d,A,test,4\n`;
    const error = refusal(() => adaptAncientBench([textFile('t.csv', text)]));
    expect(error).toBeInstanceOf(DataProblemsError);
    const all = error as DataProblemsError;
    expect(all.problems.map((p) => [p.line, p.field, p.detailCode])).toEqual([
      [2, 'task', 'data.unknown-task'],
      [3, 'question', 'data.empty-question'],
      [3, 'answer', 'data.not-a-letter'],
      [4, 'split', 'data.bad-split'],
      [6, 'id', 'data.duplicate-id'],
    ]);
    const [headline, ...listed] = noticesOf(error);
    expect(renderNotice(headline, 'en')).toBe('t.csv has 5 problems; nothing was stored. Fix them and import the file again.');
    expect(renderNotice(headline, 'zh')).toBe('t.csv 有 5 处问题；没有存储任何内容。请全部改正后再导入。');
    expect(listed).toHaveLength(5);
    expect(renderNotice(listed[4], 'zh')).toBe('t.csv，第 6 行，字段“id”：ID “4” 重复（第一次用在 t.csv，第 5 行）');
  });

  it('lists the first few of many and counts the rest', () => {
    const rows = Array.from({ length: 100 }, (_, i) => `Radical,q${i},a,b,c,d,Z,test,${i}\n`).join('');
    const error = refusal(() => adaptAncientBench([textFile('many.csv', HEADER + rows)])) as DataProblemsError;
    expect([error.count, error.problems.length]).toEqual([100, MAX_LISTED_PROBLEMS]);
    expect(renderNotice(error.notice, 'en')).toContain(`many.csv has 100 problems (the first ${MAX_LISTED_PROBLEMS} are listed)`);
  });

  it('keeps rows with the wrong number of fields and bad JSON lines among the problems', () => {
    const csv = refusal(() => adaptAncientBench([textFile('f.csv', `${HEADER}Radical,q,a\nRadical,q,a,b,c,d,E,test,x\n`)])) as DataProblemsError;
    expect(csv.problems.map((p) => [p.line, p.detailCode])).toEqual([
      [2, 'data.field-count'],
      [3, 'data.not-a-letter'],
    ]);
    const row = JSON.stringify({ task: 'Cloze', question: 'q', A: 'a', B: 'b', C: 'c', D: 'd', answer: 'A' });
    const jsonl = refusal(() => adaptAncientBench([textFile('j.jsonl', `{oops\n${row}\n${JSON.stringify({ task: 'Cloze' })}\n`)])) as DataProblemsError;
    expect(jsonl.problems.map((p) => [p.line, p.detailCode])).toEqual([
      [1, 'data.invalid-json'],
      [3, 'data.missing'],
    ]);
  });
});

describe("CMMLU's and ACLUE's layout in an AncientBench import", () => {
  const rows = '「蚤」通哪个字？,早,骚,搔,爪,A\n「说」通哪个字？,悦,脱,税,述,a\n';

  it('reads a file named after its task (Chinese or English), with CMMLU\'s index column or without', () => {
    const aclue = adaptAncientBench([textFile('data/dev/通假字.csv', `Question,A,B,C,D,Answer\n${rows}`)]).items as MultipleChoiceItem[];
    expect(aclue.map((item) => [item.id, item.task, item.split, item.answer])).toEqual([
      ['Phonetic Loan Character/dev/0', 'Phonetic Loan Character', 'dev', 'A'],
      ['Phonetic Loan Character/dev/1', 'Phonetic Loan Character', 'dev', 'A'],
    ]);
    const cmmlu = adaptAncientBench([textFile('radical.csv', ',Question,A,B,C,D,Answer\n0,「江」的部首是？,氵,工,冫,丶,A\n1,「河」的部首是？,氵,可,口,丁,A\n')]).items;
    expect(cmmlu.map((item) => [item.task, item.split])).toEqual([
      ['Radical', 'test'],
      ['Radical', 'test'],
    ]);
  });

  it('refuses one named after no task with a message that names the layout and what to change, and checks its rows too', () => {
    const error = refusal(() => adaptAncientBench([textFile('ancient_chinese.csv', `,Question,A,B,C,D,Answer\n0,q,a,b,c,d,E\n1,q,a,b,c,d,A\n`)]));
    expect(error).toBeInstanceOf(DataProblemsError);
    const [layout, row] = (error as DataProblemsError).problems;
    expect(layout.message).toMatch(/^ancient_chinese\.csv, line 1: this is CMMLU's and ACLUE's layout \(Question, A, B, C, D, Answer; one task per file\)/);
    expect(layout.message).toContain('rename the file after its task (for example "Radical.csv" or "通假字.csv"), or add a "task" column');
    expect(renderNotice(layout.notice, 'zh')).toMatch(/^ancient_chinese\.csv，第 1 行：这是 CMMLU 和 ACLUE 的格式/);
    expect(row.message).toBe('ancient_chinese.csv, line 2, field "Answer": expected a letter A–D, got "E"');
    // Alone, the layout is one refusal, not a list.
    const alone = catchDataError(() => adaptAncientBench([textFile('mine.csv', 'Question,A,B,C,D,Answer\nq,a,b,c,d,A\n')]));
    expect(alone.detailCode).toBe('data.cmmlu-layout');
  });
});
