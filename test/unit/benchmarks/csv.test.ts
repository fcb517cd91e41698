import { describe, expect, it } from 'vitest';
import { parseCsv, parseCsvText } from '../../../src/lib/core/benchmarks/csv.ts';
import { firstInvalidUtf8Offset, MAX_FILE_BYTES } from '../../../src/lib/core/benchmarks/text.ts';
import { catchDataError, textFile } from './helpers.ts';

const SPEC = { required: ['Question', 'A', 'B', 'C', 'D', 'Answer'] };
const HEADER = 'Question,A,B,C,D,Answer\n';

describe('parseCsv', () => {
  it('reads quoted commas, quotes and newlines, and gives each row the line it starts on', () => {
    const text =
      HEADER +
      'q1,a,b,c,d,A\n' + // line 2
      '"q2, with a comma",a,"b ""quoted""",c,d,B\n' + // line 3
      '"q3 line one\nline two\nline three",a,b,c,"d\nmore",C\n' + // lines 4-7
      'q4,a,b,c,d,D\n'; // line 8
    const { rows } = parseCsv(textFile('t.csv', text), SPEC);
    expect(rows.map((row) => row.line)).toEqual([2, 3, 4, 8]);
    expect(rows[1].values).toEqual({ Question: 'q2, with a comma', A: 'a', B: 'b "quoted"', C: 'c', D: 'd', Answer: 'B' });
    expect(rows[2].values.Question).toBe('q3 line one\nline two\nline three');
    expect(rows[2].values.D).toBe('d\nmore');
  });

  it('counts lines the same way with CRLF line ends and skips blank lines', () => {
    const text = 'Question,A,B,C,D,Answer\r\n"x\r\ny",a,b,c,d,A\r\n\r\nz,a,b,c,d,B\r\n';
    const { rows } = parseCsv(textFile('t.csv', text), SPEC);
    expect(rows.map((row) => row.line)).toEqual([2, 5]);
    expect(rows[0].values.Question).toBe('x\r\ny');
  });

  it('accepts and drops a UTF-8 byte order mark', () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(`${HEADER}问,甲,乙,丙,丁,A\n`)]);
    const { columns, rows } = parseCsv({ path: 'bom.csv', bytes }, SPEC);
    expect(columns[0]).toBe('Question');
    expect(rows[0].values.Question).toBe('问');
  });

  it('refuses a wrong header, naming what is missing and what is unexpected', () => {
    const error = catchDataError(() => parseCsv(textFile('h.csv', 'Question,A,B,C,D,Answr\nq,a,b,c,d,A\n'), SPEC));
    expect(error.file).toBe('h.csv');
    expect(error.line).toBe(1);
    expect(error.message).toBe(
      'h.csv, line 1: wrong header: missing column "Answer"; unexpected column "Answr"; expected "Question", "A", "B", "C", "D", "Answer"',
    );
  });

  it('refuses a column that appears twice', () => {
    const error = catchDataError(() => parseCsv(textFile('h.csv', 'Question,A,B,C,D,Answer,A\nq,a,b,c,d,A,a\n'), SPEC));
    expect([error.line, error.field]).toEqual([1, 'A']);
    expect(error.detail).toMatch(/^column appears twice/);
  });

  it('accepts optional columns and names the unnamed index column in messages', () => {
    const spec = { required: ['', 'Question'], optional: ['id'] };
    expect(parseCsv(textFile('o.csv', ',Question,id\n0,q,x\n'), spec).rows[0].values).toEqual({ '': '0', Question: 'q', id: 'x' });
    const error = catchDataError(() => parseCsv(textFile('o.csv', 'Question\nq\n'), spec));
    expect(error.detail).toBe('wrong header: missing column ""; expected "", "Question" (optional: "id")');
  });

  it('refuses a short row with the line it starts on, after a multi-line row', () => {
    const text = `${HEADER}"a\nb",a,b,c,d,A\nq,a,b,c,d\n`;
    const error = catchDataError(() => parseCsv(textFile('s.csv', text), SPEC));
    expect([error.file, error.line, error.field]).toEqual(['s.csv', 4, undefined]);
    expect(error.message).toBe('s.csv, line 4: expected 6 fields ("Question", "A", "B", "C", "D", "Answer"), got 5');
  });

  it('refuses a long row', () => {
    const error = catchDataError(() => parseCsv(textFile('l.csv', `${HEADER}q,a,b,c,d,A,extra\n`), SPEC));
    expect(error.line).toBe(2);
    expect(error.detail).toMatch(/got 7$/);
  });

  it('refuses an unterminated quote at the line where its row starts', () => {
    const error = catchDataError(() => parseCsvText('u.csv', `${HEADER}q,a,b,c,d,A\n"never closed,a,b,c,d,A\nq,a,b,c,d,A\n`, SPEC));
    expect(error.line).toBe(3);
    expect(error.detail).toMatch(/^malformed CSV: Quoted field unterminated/);
  });

  it('refuses empty files: no bytes, only whitespace, only a BOM, only a header', () => {
    for (const bytes of [new Uint8Array(), new TextEncoder().encode(' \n\n'), new Uint8Array([0xef, 0xbb, 0xbf])]) {
      const error = catchDataError(() => parseCsv({ path: 'e.csv', bytes }, SPEC));
      expect(error.message).toBe('e.csv: the file is empty');
    }
    expect(catchDataError(() => parseCsv(textFile('e.csv', HEADER), SPEC)).message).toBe('e.csv, line 2: the file has a header but no rows');
  });

  it('refuses text that is not UTF-8, naming the first bad byte', () => {
    // "Question,A\n" then 你 in GBK (C4 E3): C4 opens a two-byte sequence, E3 cannot continue it.
    const bytes = new Uint8Array([...new TextEncoder().encode('Question,A\n'), 0xc4, 0xe3, 0x0a]);
    const error = catchDataError(() => parseCsv({ path: 'gbk.csv', bytes }, SPEC));
    expect(error.message).toBe('gbk.csv: not valid UTF-8 (first bad byte at offset 11); save the file as UTF-8 and import it again');
  });

  it('refuses a file over the size limit before decoding it', () => {
    const error = catchDataError(() => parseCsv({ path: 'big.csv', bytes: new Uint8Array(MAX_FILE_BYTES + 1) }, SPEC));
    expect(error.message).toBe(`big.csv: the file is 64.0 MiB (${MAX_FILE_BYTES + 1} bytes), over the 64 MiB limit for one file`);
  });
});

describe('firstInvalidUtf8Offset', () => {
  it('finds bad lead bytes, overlong forms, surrogates and truncated sequences', () => {
    const ok = new TextEncoder().encode('通假字😀');
    expect(firstInvalidUtf8Offset(ok)).toBe(ok.length);
    expect(firstInvalidUtf8Offset(new Uint8Array([0x41, 0xff]))).toBe(1);
    expect(firstInvalidUtf8Offset(new Uint8Array([0xc0, 0x80]))).toBe(0); // overlong NUL
    expect(firstInvalidUtf8Offset(new Uint8Array([0x41, 0xed, 0xa0, 0x80]))).toBe(1); // UTF-16 surrogate
    expect(firstInvalidUtf8Offset(new Uint8Array([0x41, 0x42, 0xe9, 0x80]))).toBe(2); // cut off at the end
  });
});
