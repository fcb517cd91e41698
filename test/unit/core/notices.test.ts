import { describe, expect, it } from 'vitest';
import { catalog, JianguError, jianguError, noticeOf, notice, renderNotice } from '../../../src/lib/core/notices/index.ts';

describe('notices', () => {
  it('renders a coded error in both languages, English as the message', () => {
    const error = jianguError('internal', { detail: 'boom' });
    expect(error).toBeInstanceOf(JianguError);
    expect(error.message).toBe('Something went wrong inside Jiangu: boom');
    expect(renderNotice(error.notice, 'zh')).toBe('鉴古内部出错：boom');
  });

  it('gives anything caught a code: plain errors and strings become internal, notices pass through', () => {
    expect(noticeOf(new Error('x'))).toEqual({ code: 'internal', params: { detail: 'x' } });
    expect(noticeOf('y')).toEqual({ code: 'internal', params: { detail: 'y' } });
    const n = notice('internal', { detail: 'z' });
    expect(noticeOf(n)).toBe(n);
    expect(noticeOf({ notice: n, message: 'from a worker' })).toBe(n);
  });

  it('shows an unknown code as code and parameters instead of dropping it', () => {
    expect(renderNotice({ code: 'future.thing', params: { a: 1 } }, 'en')).toBe('future.thing {"a":1}');
  });

  it('has every message in both languages, the Chinese one in Chinese', () => {
    // Any parameter reads as 1 (or [1]): enough to render most sentences without knowing their types.
    const params = new Proxy({}, { get: (_t, key) => (key === Symbol.toPrimitive ? undefined : 1) });
    // Codes whose sentence is a text handed over as it is (an older caller's English string).
    const verbatim = new Set(['import.failed']);
    for (const [code, entry] of Object.entries(catalog)) {
      if (verbatim.has(code)) continue;
      let en: string, zh: string;
      try {
        en = (entry.en as (p: unknown) => string)(params);
        zh = (entry.zh as (p: unknown) => string)(params);
      } catch {
        continue; // needs a parameter of a richer type; the type checker holds it to both languages
      }
      expect(en, code).not.toBe(zh);
      expect(/[\u3400-\u9fff]/.test(zh), `${code}: ${zh}`).toBe(true);
    }
  });
});
