// A notice that quotes a value from a file or a link shows its invisible and direction characters as
// escapes (issue 23 item 8): `unknown task "部首\u200b"` next to the valid 部首, not two names that
// look the same. Ordinary Chinese text and punctuation are unchanged.
import { describe, expect, it } from 'vitest';
import { adaptAncientBench } from '../../../src/lib/core/benchmarks/adapters/index.ts';
import { catalog, JianguError, notice, renderNotice } from '../../../src/lib/core/notices/index.ts';
import { escapeInvisible, isInvisibleOnly, nameProblem } from '../../../src/lib/core/text-safety.ts';
import { catchDataError, textFile } from '../benchmarks/helpers.ts';

describe('escapeInvisible', () => {
  it('writes each invisible or direction character as an escape and leaves everything else alone', () => {
    expect(escapeInvisible('sample\u202Egnp.exe')).toBe('sample\\u202egnp.exe');
    expect(escapeInvisible('a\u200Bb\u200Cc\u200Dd\u2060e\uFEFFf\u200Eg\u200Fh\u2066i\u2069')).toBe('a\\u200bb\\u200cc\\u200dd\\u2060e\\ufefff\\u200eg\\u200fh\\u2066i\\u2069');
    expect(escapeInvisible('x\ny\tz\r\u0000\u0085\u2028\u00AD')).toBe('x\\ny\\tz\\r\\u0000\\u0085\\u2028\\u00ad');
    expect(escapeInvisible('\u{E0001}\uD800')).toBe('\\u{e0001}\\ud800');
    const ordinary = '学而时习之，不亦说乎？「子曰」《论语·学而》…—～　𠀀😀葛\u{E0100}a\\u200b';
    expect(escapeInvisible(ordinary)).toBe(ordinary);
    // The escapes are visible ASCII: escaping twice changes nothing.
    expect(escapeInvisible(escapeInvisible('x\u202Ey'))).toBe('x\\u202ey');
  });

  it('is the rule ids follow and the test for empty-looking text', () => {
    expect(nameProblem('sample\u202Egnp.exe')).toEqual({ kind: 'invisible', codePoint: 'U+202E', position: 6 });
    expect(nameProblem('古文单字多义/test/0')).toBeNull();
    expect(nameProblem('x'.repeat(501))).toEqual({ kind: 'too-long', max: 500, length: 501 });
    expect(isInvisibleOnly('\u200B\u200B')).toBe(true);
    expect(isInvisibleOnly(' \u2060\u3000')).toBe(true);
    expect(isInvisibleOnly('')).toBe(false);
    expect(isInvisibleOnly('甲\u200B')).toBe(false);
  });
});

describe('renderNotice', () => {
  it('shows the invisible character of an unknown task, and the valid names as they are', () => {
    const error = catchDataError(() => adaptAncientBench([textFile('mine.csv', 'task,question,A,B,C,D,answer\n部首\u200B,问,甲,乙,丙,丁,A\n')]));
    const en = renderNotice(error.notice, 'en');
    expect(en).toContain('unknown task "部首\\u200b"; expected one of');
    expect(en).toContain('Radical (部首)');
    expect(en).not.toContain('\u200B');
    expect(renderNotice(error.notice, 'zh')).toContain('未知任务“部首\\u200b”');
    expect(error.message).toBe(en);
  });

  it('escapes file names and ids in every message, once, whether the message JSON-quotes them or not', () => {
    const where = { file: 'sample\u202Egnp.csv', line: 3 };
    expect(renderNotice(notice('data.duplicate-id', { id: 'q\u200B1', firstFile: 'sample\u202Egnp.csv', firstLine: 2, ...where }), 'en')).toBe(
      'sample\\u202egnp.csv, line 3: duplicate id "q\\u200b1" (first used at sample\\u202egnp.csv, line 2)',
    );
    expect(renderNotice(notice('data.problems', { file: 'sample\u202Egnp.csv', count: 2, shown: 2 }), 'zh')).toMatch(/^sample\\u202egnp\.csv 有 2 处问题/);
    expect(renderNotice(notice('store.dataset-not-stored', { dataset: 'a\u2066b' }), 'en')).toContain('Dataset a\\u2066b is not stored');
    // A parameter that is itself a rendered sentence (already escaped) is not escaped again.
    const inner = renderNotice(notice('data.unknown-dataset', { id: 'x\u202Ey' }), 'en');
    expect(renderNotice(notice('link.cannot-share', { en: inner, zh: inner }), 'en')).toContain('"x\\u202ey"');
    expect(renderNotice(notice('link.cannot-share', { en: inner, zh: inner }), 'en')).not.toContain('\\\\u202e');
  });

  it('escapes a code this build does not know, and leaves ordinary Chinese messages exactly as the catalog words them', () => {
    expect(renderNotice({ code: 'future.code', params: { id: 'a\u202Eb' } }, 'en')).toBe('future.code {"id":"a\\u202eb"}');
    const params = { got: '甲，乙。「丙」…—？', file: 'data/test/通假字.csv', line: 17, field: 'Answer' };
    for (const language of ['en', 'zh'] as const) {
      expect(renderNotice(notice('data.not-a-letter', params), language)).toBe(catalog['data.not-a-letter'][language](params));
    }
    expect(new JianguError(notice('data.unknown-dataset', { id: 'x\u200By' })).message).toBe('unknown dataset id "x\\u200by"');
    // A line break hides nothing: a multi-line engine error keeps its lines; a tab is shown.
    expect(renderNotice(notice('internal', { detail: 'first line\n\tsecond' }), 'en')).toContain('first line\n\\tsecond');
  });
});
