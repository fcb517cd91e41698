// The Reading page's lesson link (issue 45 §3, §7, §8): one encoding, every part round-trips, and what
// a link asked for and the page cannot take is listed with its reason, never replaced in silence.
import { describe, expect, it } from 'vitest';
import { LINK_TEXT_LIMIT, parseReadingLink, readingHash, type ReadingLink } from '../../../src/ui/reading/reading-link.ts';
import { parseRoute } from '../../../src/ui/route.ts';

const PASSAGE = '太史公曰：诗有之：“高山仰止，景行行止。”虽不能至，然心乡往之。余读孔氏书，想见其为人。';
const lesson: ReadingLink = {
  view: 'predict',
  text: `${PASSAGE} a&b=c%d+e#f?g`,
  model: { kind: 'hub', id: 'onnx-community/Qwen3-0.6B-ONNX', revision: 'main' },
  dtype: 'q8',
  model2: { kind: 'site', name: 'jiangu-large' },
  dtype2: 'q4',
  threshold: 0.35,
  sampling: { temperature: 0.7, topK: 20, seed: 4294967295, maxNewTokens: 40 },
  at: 12,
  ask: [3, 9, 20],
  size: 200,
  temperature: 1.5,
  head: 3,
  token: 17,
};

/** The page's parameter as the router hands it to the Reading page (not decoded). */
const rawOf = (hash: string) => parseRoute(hash).raw;

describe('reading links', () => {
  it('round-trip every part, through the router, special characters included', () => {
    const hash = readingHash(lesson)!;
    const { link, dropped } = parseReadingLink(rawOf(hash));
    expect(dropped).toEqual([]);
    expect(link).toEqual(lesson);
  });

  it('encode the passage once: a 39-character passage stays near 9 characters per CJK character', () => {
    const text = PASSAGE.slice(0, 39);
    const hash = readingHash({ view: 'tokens', text, model: { kind: 'site', name: 'jiangu-tiny' }, dtype: 'fp32', threshold: null })!;
    expect(hash).not.toMatch(/%25/); // a percent sign encoded again
    expect(hash.length).toBeLessThan(9 * [...text].length + 80);
  });

  it('still read a link made before (the query encoded twice)', () => {
    const old = `#/reading/${encodeURIComponent(new URLSearchParams({ view: 'breaks', text: '学而时习之', threshold: '0.4' }).toString())}`;
    expect(parseReadingLink(rawOf(old))).toEqual({ link: { view: 'breaks', text: '学而时习之', threshold: 0.4 }, dropped: [] });
  });

  it('list each part it does not take, with what it said and why', () => {
    const query = new URLSearchParams({
      view: 'poster',
      text: '子'.repeat(LINK_TEXT_LIMIT + 1),
      model: 'https://evil.example/model',
      dtype: 'q3',
      threshold: '1.5',
      t: '9', k: '40', seed: '1', n: '32',
      at: '-1',
      ask: '3,x',
      size: '130',
      temp: '',
      head: '1.5',
    });
    const { link, dropped } = parseReadingLink(query.toString());
    expect(link).toEqual({});
    expect(dropped.map((d) => [d.part, d.reason])).toEqual([
      ['view', 'unknown'],
      ['text', 'too-long'],
      ['model', 'not-a-model'],
      ['dtype', 'unknown'],
      ['threshold', 'out-of-range'],
      ['sampling', 'out-of-range'],
      ['at', 'out-of-range'],
      ['size', 'out-of-range'],
      ['head', 'out-of-range'],
      ['temperature', 'out-of-range'],
      ['ask', 'out-of-range'],
    ]);
    expect(dropped[1].value.length).toBeLessThanOrEqual(41);
  });

  it('take the parts that are valid beside those that are not', () => {
    const { link, dropped } = parseReadingLink(new URLSearchParams({ view: 'lens', text: '学而', seed: '7', t: '0.5', k: '10', n: '999' }).toString());
    expect(link).toEqual({ view: 'lens', text: '学而' });
    expect(dropped.map((d) => d.part)).toEqual(['sampling']);
  });

  it('name no model that carries a host', () => {
    expect(readingHash({ view: 'tokens', text: '学', model: { kind: 'hub', id: 'a/b', revision: 'main', host: 'https://mirror.example' }, dtype: null, threshold: null })).toBeNull();
  });
});
