// Every kind of bad input, through the adapters, each pinned to the file, line or record, and field
// the DataError names and to its message. All content here is synthetic.
import { describe, expect, it } from 'vitest';
import {
  adaptAcEval,
  adaptAclue,
  adaptAncientBench,
  adaptC3Bench,
  adaptCmmlu,
  adaptDataset,
  adaptWenMind,
  MAX_FILE_BYTES,
} from '../../../src/lib/core/benchmarks/adapters/index.ts';
import { DataError } from '../../../src/lib/core/benchmarks/errors.ts';
import { catchDataError, textFile } from './helpers.ts';

const ACLUE_HEADER = 'Question,A,B,C,D,Answer\n';
const row = (answer: string) => `问题,甲,乙,丙,丁,${answer}\n`;
const WENMIND = 'WenMind_Benchmark/WenMind_ver1.json';
const wenmind = (records: unknown) => textFile(WENMIND, JSON.stringify(records));
const mcq = (id: number, question: string, answer: string) => ({
  id,
  question_format: 'MCQ',
  coarse_grained_task_zh: '虚词',
  question,
  answer,
});

describe('DataError', () => {
  it('reads file, line, field: detail', () => {
    const rows = Array.from({ length: 15 }, () => row('A')).join('');
    const error = catchDataError(() => adaptAclue([textFile('data/test/通假字.csv', `${ACLUE_HEADER}${rows}${row('E')}`)]));
    expect(error).toBeInstanceOf(DataError);
    expect(error.name).toBe('DataError');
    expect([error.file, error.line, error.field]).toEqual(['data/test/通假字.csv', 17, 'Answer']);
    expect(error.message).toBe('data/test/通假字.csv, line 17, field "Answer": expected a letter A–D, got "E"');
  });
});

describe('bad inputs', () => {
  it('an empty file', () => {
    const error = catchDataError(() => adaptCmmlu([{ path: 'data/dev/ancient_chinese.csv', bytes: new Uint8Array() }]));
    expect(error.message).toBe('data/dev/ancient_chinese.csv: the file is empty');
  });

  it('a file that is not UTF-8 (GB 18030)', () => {
    // 部首 in GB 18030: B2 BF CA D7. B2 is not a UTF-8 lead byte.
    const bytes = new Uint8Array([...new TextEncoder().encode('task,question,A,B,C,D,answer\n'), 0xb2, 0xbf, 0xca, 0xd7]);
    const error = catchDataError(() => adaptAncientBench([{ path: 'gbk.csv', bytes }]));
    expect([error.file, error.line]).toEqual(['gbk.csv', undefined]);
    expect(error.detail).toBe('not valid UTF-8 (first bad byte at offset 29); save the file as UTF-8 and import it again');
  });

  it('a UTF-8 BOM is accepted', () => {
    const text = `\ufefftask,question,A,B,C,D,answer\nCloze,问,甲,乙,丙,丁,B\n`;
    const items = adaptAncientBench([textFile('bom.csv', text)]).items;
    expect(items.map((item) => [item.task, item.id])).toEqual([['Cloze', 'Cloze/test/0']]);
  });

  it('a CSV with a wrong header', () => {
    // An AC-EVAL test file that has an Answer column it should not have, and lacks the index column.
    const error = catchDataError(() => adaptAcEval([textFile('data/test/geography.csv', `${ACLUE_HEADER}${row('A')}`)]));
    expect(error.message).toBe(
      'data/test/geography.csv, line 1: wrong header: missing column ""; unexpected column "Answer"; expected "", "Question", "A", "B", "C", "D"',
    );
  });

  it('a short row', () => {
    const error = catchDataError(() => adaptAclue([textFile('data/dev/对联.csv', `${ACLUE_HEADER}${row('A')}问题,甲,乙,丙,A\n`)]));
    expect(error.message).toBe('data/dev/对联.csv, line 3: expected 6 fields ("Question", "A", "B", "C", "D", "Answer"), got 5');
  });

  it('an answer that is not a letter A to D, or beyond the options', () => {
    const notLetter = catchDataError(() => adaptAncientBench([textFile('t.csv', 'task,question,A,B,C,D,answer\nCloze,q,a,b,c,d,甲\n')]));
    expect(notLetter.message).toBe('t.csv, line 2, field "answer": expected a letter A–D, got "甲"');
    const beyond = catchDataError(() => adaptAncientBench([textFile('t.csv', 'task,question,A,B,C,D,answer\nCloze,q,a,b,c,,D\n')]));
    expect(beyond.message).toBe('t.csv, line 2, field "answer": answer D but the item has only 3 options (A–C)');
  });

  it('duplicate ids, naming both lines', () => {
    const text = 'task,question,A,B,C,D,answer,id\nCloze,q,a,b,c,d,A,x1\nCloze,q,a,b,c,d,A,x2\n"Cloze","two\nlines",a,b,c,d,A,x3\nCloze,q,a,b,c,d,A,x1\n';
    const error = catchDataError(() => adaptAncientBench([textFile('dup.csv', text)]));
    expect(error.message).toBe('dup.csv, line 6, field "id": duplicate id "x1" (first used at dup.csv, line 2)');
  });

  it('duplicate ids in WenMind, naming both records', () => {
    const error = catchDataError(() => adaptWenMind([wenmind([mcq(5, '问 A、甲 B、乙', 'A'), mcq(5, '问 A、甲 B、乙', 'B')])]));
    expect(error.message).toBe(`${WENMIND}, record 1: duplicate id "5" (first used at ${WENMIND}, record 0)`);
  });

  it('JSON that is not a list', () => {
    const error = catchDataError(() => adaptWenMind([textFile(WENMIND, '{"items": []}')]));
    expect(error.message).toBe(`${WENMIND}: expected a JSON list of records at the top level, got an object with keys "items"`);
    expect(catchDataError(() => adaptWenMind([textFile(WENMIND, '[]')])).detail).toBe('the JSON list is empty');
  });

  it('JSON with a syntax error, with its line where the engine gives a position', () => {
    const error = catchDataError(() => adaptWenMind([textFile(WENMIND, '[\n{"id": 1},\n{"id": 2}\n')]));
    expect(error.file).toBe(WENMIND);
    expect(error.detail).toMatch(/^not valid JSON \(/);
  });

  it('records missing a field the adapter needs', () => {
    const { answer: _answer, ...withoutAnswer } = mcq(3, '问 A、甲 B、乙', 'A');
    const error = catchDataError(() => adaptWenMind([wenmind([mcq(1, '问 A、甲 B、乙', 'A'), withoutAnswer])]));
    expect(error.message).toBe(`${WENMIND}, record 1, field "answer": missing or not a string`);
  });

  it('records missing a mapped C3Bench field', () => {
    const file = textFile('c3.json', JSON.stringify([{ 文言文: '学而时习之', 白话文: '学习' }, { 白话文: '温习' }]));
    const error = catchDataError(() => adaptC3Bench(file, { text: '文言文', translation: '白话文' }));
    expect(error.message).toBe('c3.json, record 1, field "文言文": missing: every record needs its classical text (role "text")');
  });

  it('a file over the size limit', () => {
    const error = catchDataError(() => adaptWenMind([{ path: WENMIND, bytes: new Uint8Array(MAX_FILE_BYTES + 1) }]));
    expect(error.message).toBe(`${WENMIND}: the file is 64.0 MiB (${MAX_FILE_BYTES + 1} bytes), over the 64 MiB limit for one file`);
  });

  it('WenMind options that cannot be parsed refuse the whole file, naming the item id', () => {
    const good = mcq(1, '“之”的用法是：\nA、代词  B、助词', 'A');
    const cases = [
      mcq(42, '“之”的用法是：代词或助词', 'A'), // no option markers
      mcq(42, '“之”的用法是：\nA、代词  C、助词', 'A'), // B missing
      mcq(42, '“之”的用法是：\nA、代词  B、  C、助词', 'A'), // empty option
      mcq(42, '“之”的用法是：\nA、代词  B、助词（见 D 项）', 'A'), // a stray capital breaks the run
    ];
    for (const bad of cases) {
      const error = catchDataError(() => adaptWenMind([wenmind([good, bad])]));
      expect([error.record, error.field]).toEqual([1, 'question']);
      expect(error.detail).toMatch(/^item id 42: cannot find its options \(expected "A、… B、… C、…" at the end of the question\): "/);
    }
  });

  it('a WenMind answer letter beyond the parsed options', () => {
    const error = catchDataError(() => adaptWenMind([wenmind([mcq(9, '问：\nA、甲  B、乙  C、丙', 'D')])]));
    expect(error.message).toBe(`${WENMIND}, record 0, field "answer": answer D but the item has only 3 options (A–C)`);
  });

  it('a WenMind generation item without its instruction line', () => {
    const record = { id: 7, question_format: 'QA', coarse_grained_task_zh: '句读', question: '请加标点：\n学而时习之', answer: '学而时习之。' };
    const error = catchDataError(() => adaptWenMind([wenmind([record])]));
    expect(error.message).toBe(`${WENMIND}, record 0, field "question": item id 7: expected the instruction "给下面句子添加标点符号：" then the text on the next line`);
  });

  it('a catalog download with a file missing, a stranger, or a file given twice', () => {
    const dev = textFile('data/dev/ancient_chinese.csv', `,Question,A,B,C,D,Answer\n0,问,甲,乙,丙,丁,A\n`);
    expect(catchDataError(() => adaptDataset('cmmlu-ancient', [dev])).message).toBe(
      'data/test/ancient_chinese.csv: missing: cmmlu-ancient needs all 2 catalog files (1 missing)',
    );
    expect(catchDataError(() => adaptDataset('cmmlu-ancient', [dev, dev])).message).toBe('data/dev/ancient_chinese.csv: given twice');
    expect(catchDataError(() => adaptDataset('cmmlu-ancient', [textFile('README.md', '#')])).message).toBe(
      'README.md: not one of the 2 files of cmmlu-ancient in the catalog',
    );
  });
});
