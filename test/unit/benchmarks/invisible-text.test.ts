// Invisible and direction characters in data files (issue 23 item 8): an id, task or file name that
// holds one is refused at import with a message that names the place and shows the character
// escaped; a question, option, input or reference with nothing visible is refused; and the benchmark
// importers and the run importer apply one rule, so a run on a stored dataset always reads back.
import { describe, expect, it } from 'vitest';
import { adaptAclue, adaptAncientBench, adaptC3Bench, adaptWenMind } from '../../../src/lib/core/benchmarks/adapters/index.ts';
import { WENMIND_PATH } from '../../../src/lib/core/benchmarks/adapters/wenmind.ts';
import { DataProblemsError } from '../../../src/lib/core/benchmarks/errors.ts';
import { renderNotice } from '../../../src/lib/core/notices/index.ts';
import { id as runImportId } from '../../../src/lib/core/formats/import-validate.ts';
import { catchDataError, textFile } from './helpers.ts';

const HEADER = 'task,question,A,B,C,D,answer,split,id\n';
const ZWSP = '\u200b';

const ancientBench = (rows: string, name = 'mine.csv') => () => adaptAncientBench([textFile(name, HEADER + rows)]);

describe('ids, task names and file names', () => {
  it('refuses a bidi override in an AncientBench id, naming file, line and id, escaped', () => {
    const error = catchDataError(ancientBench(`Radical,问,甲,乙,丙,丁,A,test,sample\u202Egnp.exe\n`));
    expect(error.notice).toMatchObject({ code: 'data.name-invisible', params: { file: 'mine.csv', line: 2, field: 'id', what: 'id', codePoint: 'U+202E', position: 6 } });
    const en = renderNotice(error.notice, 'en');
    expect(en).toBe(
      'mine.csv, line 2, field "id": the id "sample\\u202egnp.exe" holds the invisible or direction character U+202E at position 6, which hides or reorders what is shown; remove it and import the file again',
    );
    expect(renderNotice(error.notice, 'zh')).toContain('ID“sample\\u202egnp.exe”在位置 6');
    expect(error.message).toBe(en);
  });

  it('refuses zero-width characters, a BOM, marks and other invisible characters in ids, in CSV and JSON Lines', () => {
    for (const [char, label] of [[ZWSP, 'U+200B'], ['\uFEFF', 'U+FEFF'], ['\u200E', 'U+200E'], ['\u2066', 'U+2066'], ['\u00AD', 'U+00AD'], ['\u{E0001}', 'U+E0001']]) {
      const csv = catchDataError(ancientBench(`Radical,问,甲,乙,丙,丁,A,test,q${char}1\n`));
      expect(csv.notice.params).toMatchObject({ line: 2, field: 'id', codePoint: label, position: 1 });
      const line = JSON.stringify({ task: 'Radical', question: '问', A: '甲', B: '乙', C: '丙', D: '丁', answer: 'A', id: `q${char}1` });
      const jsonl = catchDataError(() => adaptAncientBench([textFile('mine.jsonl', `${line}\n`)]));
      expect(jsonl.notice.params).toMatchObject({ file: 'mine.jsonl', line: 1, field: 'id', codePoint: label });
    }
  });

  it('refuses an id over 500 characters (the run importer reads no longer one)', () => {
    const error = catchDataError(ancientBench(`Radical,问,甲,乙,丙,丁,A,test,${'x'.repeat(501)}\n`));
    expect(error.notice).toMatchObject({ code: 'data.name-too-long', params: { line: 2, field: 'id', max: 500, length: 501 } });
  });

  it('refuses a file whose name hides a direction override', () => {
    const error = catchDataError(ancientBench('Radical,问,甲,乙,丙,丁,A,test,\n', 'sample\u202Evsc.csv'));
    expect(error.notice).toMatchObject({ code: 'data.name-invisible', params: { what: 'file-name', codePoint: 'U+202E' } });
    expect(renderNotice(error.notice, 'en')).toMatch(/^sample\\u202evsc\.csv: the file name "sample\\u202evsc\.csv" holds/);
  });

  it('refuses a WenMind id or task name with an invisible character', () => {
    const record = (over: object) => ({ id: 1, question_format: 'MCQ', coarse_grained_task_zh: '古文知识', question: '问（）A、甲 B、乙', answer: 'A', ...over });
    const file = (records: object[]) => [textFile(WENMIND_PATH, JSON.stringify(records))];
    const badId = catchDataError(() => adaptWenMind(file([record({ id: `7${ZWSP}` })])));
    expect(badId.notice).toMatchObject({ code: 'data.name-invisible', params: { record: 0, field: 'id', what: 'id' } });
    const badTask = catchDataError(() => adaptWenMind(file([record({ coarse_grained_task_zh: `部首${ZWSP}` })])));
    expect(badTask.notice).toMatchObject({ code: 'data.name-invisible', params: { record: 0, field: 'coarse_grained_task_zh', what: 'task' } });
    expect(renderNotice(badTask.notice, 'en')).toContain('the task name "部首\\u200b"');
  });

  it('is the run importer’s rule: a character a dataset id may hold, a run file’s item id may hold, and no other', () => {
    const samples = ['\u202E', ZWSP, '\u200C', '\u200D', '\u2060', '\uFEFF', '\u200F', '\u2069', '\u0007', '\u0085', '\u2028', '\u3164', '\u{E0041}', '\u3000', 'é', '部', '・', '\u{20000}', '\uFE00'];
    for (const char of samples) {
      const itemId = `x${char}y`;
      let datasetRefuses = false;
      try {
        adaptAncientBench([textFile('mine.csv', `${HEADER}Radical,问,甲,乙,丙,丁,A,test,${itemId}\n`)]);
      } catch {
        datasetRefuses = true;
      }
      let runRefuses = false;
      try {
        runImportId(itemId, 'results[0].itemId');
      } catch {
        runRefuses = true;
      }
      expect([char, datasetRefuses]).toEqual([char, runRefuses]);
    }
    // Both halves happen: the rule refuses some and accepts others.
    expect(() => runImportId('x\u202Ey', 'p')).toThrow();
    expect(runImportId('x\u3000部y', 'p')).toBe('x\u3000部y');
  });
});

describe('questions and options with nothing visible', () => {
  it('refuses an item whose four options are all U+200B, naming file, line and field', () => {
    const error = catchDataError(ancientBench(`Radical,问,${ZWSP},${ZWSP},${ZWSP},${ZWSP},A,test,q1\n`));
    expect(error.notice).toMatchObject({ code: 'data.only-invisible', params: { file: 'mine.csv', line: 2, field: 'A', codePoints: ['U+200B'] } });
    expect(renderNotice(error.notice, 'en')).toBe('mine.csv, line 2, field "A": holds nothing but invisible characters (U+200B): it is empty once they are removed');
    expect(renderNotice(error.notice, 'zh')).toBe('mine.csv，第 2 行，字段“A”：只含不可见字符（U+200B）：去掉它们就是空的');
  });

  it('refuses an invisible question and an invisible last option (not dropped as an empty D), each with its field', () => {
    const error = (() => {
      try {
        ancientBench(`Radical,${ZWSP}\u2060 ,甲,乙,丙,丁,A,test,q1\nRadical,问,甲,乙,丙,\uFEFF${ZWSP},A,test,q2\n`)();
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(DataProblemsError);
    const problems = (error as DataProblemsError).problems.map((p) => p.notice.params);
    expect(problems).toEqual([
      expect.objectContaining({ line: 2, field: 'question', codePoints: ['U+200B', 'U+2060'] }),
      expect.objectContaining({ line: 3, field: 'D', codePoints: ['U+FEFF', 'U+200B'] }),
    ]);
  });

  it('keeps text that has visible characters beside invisible ones, and truly empty trailing options', () => {
    const { items } = adaptAncientBench([textFile('mine.csv', `${HEADER}Radical,问${ZWSP},甲${ZWSP}乙,乙,丙,,A,test,q1\n`)]);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ question: `问${ZWSP}`, options: [`甲${ZWSP}乙`, '乙', '丙'] });
  });

  it('refuses invisible options in the catalog CSVs (ACLUE) and in WenMind’s inline options', () => {
    const aclue = catchDataError(() => adaptAclue([textFile('data/test/通假字.csv', `Question,A,B,C,D,Answer\n问,甲,${ZWSP},丙,丁,A\n`)]));
    expect(aclue.notice.params).toMatchObject({ file: 'data/test/通假字.csv', line: 2, field: 'B' });
    expect(aclue.notice.code).toBe('data.only-invisible');
    const wenmind = catchDataError(() =>
      adaptWenMind([textFile(WENMIND_PATH, JSON.stringify([{ id: 3, question_format: 'MCQ', coarse_grained_task_zh: '古文知识', question: `问（）A、甲 B、${ZWSP}`, answer: 'A' }]))]),
    );
    expect(wenmind.notice).toMatchObject({ code: 'data.only-invisible', params: { record: 0, field: 'question', option: 'B' } });
    expect(renderNotice(wenmind.notice, 'en')).toContain('field "question": option B holds nothing but invisible characters (U+200B)');
  });

  it('refuses a C3Bench text or reference of nothing but invisible characters', () => {
    const c3 = (records: object[]) => () => adaptC3Bench(textFile('c3.json', JSON.stringify(records)), { text: 'classical_Chinese', translation: 'modern_Chinese' });
    const text = catchDataError(c3([{ classical_Chinese: `${ZWSP}\u200D`, modern_Chinese: '译' }]));
    expect(text.notice).toMatchObject({ code: 'data.only-invisible', params: { record: 0, field: 'classical_Chinese', codePoints: ['U+200B', 'U+200D'] } });
    const reference = catchDataError(c3([{ classical_Chinese: '学而时习之', modern_Chinese: ZWSP }]));
    expect(reference.notice).toMatchObject({ code: 'data.only-invisible', params: { record: 0, field: 'modern_Chinese' } });
  });
});
