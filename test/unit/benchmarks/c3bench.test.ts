// C3Bench-shaped fixtures (test/fixtures/c3bench) through detect -> preview -> adapt.
import { describe, expect, it } from 'vitest';
import { renderNotice } from '../../../src/lib/core/notices/index.ts';
import {
  adaptC3Bench,
  adaptDataset,
  C3_PUNCTUATION,
  detectC3Mapping,
  parseC3Records,
  samplePreview,
  stripPunctuation,
  type C3Mapping,
} from '../../../src/lib/core/benchmarks/adapters/index.ts';
import type { GenerationItem } from '../../../src/lib/core/benchmarks/types.ts';
import { catchDataError, repoFile } from './helpers.ts';

const fixture = (name: string) => repoFile(`test/fixtures/c3bench/${name}`);
const refs = (items: readonly GenerationItem[]) => Object.fromEntries(items.map((item) => [item.id, item.references[0]]));

describe('detectC3Mapping', () => {
  it('maps the flat field names', () => {
    expect(detectC3Mapping(parseC3Records(fixture('flat.json')))).toEqual({
      mapping: { text: 'classical_Chinese', category: 'category', source: 'source', entities: 'entities', translation: 'modern_Chinese' },
      fields: ['classical_Chinese', 'modern_Chinese', 'category', 'source', 'entities'],
    });
  });

  it('maps Chinese field names', () => {
    expect(detectC3Mapping(parseC3Records(fixture('alt-names.json'))).mapping).toEqual({
      text: '文言文',
      category: '类别',
      source: '出处',
      entities: '实体',
      translation: '白话文',
    });
  });

  it('maps only what is there, and nothing from records that are not objects', () => {
    expect(detectC3Mapping(parseC3Records(fixture('minimal.json'))).mapping).toEqual({ text: 'classical_Chinese', translation: 'modern_Chinese' });
    expect(detectC3Mapping([1, 'x', null, { Sentence: 'a', Label: '儒' }]).mapping).toEqual({ text: 'Sentence', category: 'Label' });
    expect(detectC3Mapping([{ foo: 'a' }])).toEqual({ mapping: {}, fields: ['foo'] });
  });
});

describe('adaptC3Bench', () => {
  it('makes one item per task whose role is present (flat shape)', () => {
    const file = fixture('flat.json');
    const { mapping } = detectC3Mapping(parseC3Records(file));
    const result = adaptC3Bench(file, mapping as C3Mapping);
    const items = result.items as GenerationItem[];
    const perTask = (task: string) => items.filter((item) => item.generationTask === task).map((item) => item.id);
    expect(perTask('punctuation')).toEqual(['0/punctuation', '1/punctuation', '2/punctuation', '3/punctuation', '4/punctuation', '5/punctuation']);
    expect(perTask('classification')).toEqual(['0/classification', '1/classification', '2/classification', '3/classification', '4/classification']); // 5 is null
    expect(perTask('retrieval').length).toBe(6);
    expect(perTask('ner')).toEqual(['1/ner', '3/ner', '5/ner']); // "" and absent yield none
    expect(perTask('translation').length).toBe(6);
    expect(result.fieldMapping).toEqual({ text: 'classical_Chinese', category: 'category', source: 'source', entities: 'entities', translation: 'modern_Chinese' });

    const r = refs(items);
    expect(r['3/ner']).toBe('陈胜、阳城、涉');
    expect(r['5/ner']).toBe('孔子、东山、鲁、泰山');
    expect(r['3/retrieval']).toBe('史记·陈涉世家');
    expect(r['2/classification']).toBe('道');
    const punctuation = items.find((item) => item.id === '0/punctuation')!;
    expect(punctuation.input).toBe('学而时习之不亦说乎有朋自远方来不亦乐乎');
    expect(punctuation.references).toEqual(['学而时习之，不亦说乎？有朋自远方来，不亦乐乎？']);
    expect(items.find((item) => item.id === '0/translation')?.input).toBe('学而时习之，不亦说乎？有朋自远方来，不亦乐乎？');
    expect(items.find((item) => item.id === '4/translation')).toMatchObject({ task: 'translation', split: 'test', order: 4, source: { file: 'flat.json', line: 4 } });
  });

  it('joins source levels with · and entity lists with 、 (Chinese field names)', () => {
    const file = fixture('alt-names.json');
    const items = adaptC3Bench(file, detectC3Mapping(parseC3Records(file)).mapping as C3Mapping).items as GenerationItem[];
    const r = refs(items);
    expect(r['0/retrieval']).toBe('论语·为政');
    expect(r['2/retrieval']).toBe('黄帝内经·素问·四气调神大论');
    expect(r['3/ner']).toBe('项羽、河');
    expect(r['1/ner']).toBeUndefined(); // [] yields no item
    expect(r['2/ner']).toBeUndefined();
    expect(items.length).toBe(4 + 4 + 4 + 2 + 4);
  });

  it('imports the minimal shape as punctuation and translation only, through adaptDataset without a mapping', () => {
    const result = adaptDataset('c3bench', [fixture('minimal.json')]);
    expect(result.items.map((item) => item.id)).toEqual(['0/punctuation', '0/translation', '1/punctuation', '1/translation', '2/punctuation', '2/translation']);
    expect(result.fieldMapping).toEqual({ text: 'classical_Chinese', translation: 'modern_Chinese' });
  });
});

describe('samplePreview', () => {
  const records = parseC3Records(fixture('flat.json'));

  it('shows the items of the first n records', () => {
    const preview = samplePreview(records, detectC3Mapping(records).mapping, 2);
    expect(preview.map((p) => [p.record, p.items.map((item) => item.id), p.problem])).toEqual([
      [0, ['0/punctuation', '0/classification', '0/retrieval', '0/translation'], undefined],
      [1, ['1/punctuation', '1/classification', '1/retrieval', '1/ner', '1/translation'], undefined],
    ]);
  });

  it('reports a missing text role or a bad record instead of throwing', () => {
    const noText = samplePreview(records, { translation: 'modern_Chinese' }, 1)[0].problem;
    expect(noText && renderNotice(noText, 'en')).toBe('choose the field that holds the classical text (role "text")');
    const bad = parseC3Records(fixture('bad-wrong-shape.json'));
    const preview = samplePreview(bad, { text: 'classical_Chinese', source: 'source' }, 5);
    expect(preview.length).toBe(3);
    expect(preview[2]).toMatchObject({ record: 2, items: [] });
    // The preview names the record itself; its notice keeps only the field.
    expect(renderNotice(preview[2].problem!, 'en')).toBe('field "source": expected a string or a list of strings (book, chapter, …), got an object with keys "book", "chapter"');
    expect(renderNotice(preview[2].problem!, 'zh')).toBe('字段“source”：应为字符串或字符串列表（书名、篇名……），实为含键 “book”、“chapter” 的对象');
  });
});

describe('C3Bench refusals', () => {
  it('refuses a file whose top level is not a list', () => {
    const error = catchDataError(() => adaptDataset('c3bench', [fixture('bad-not-a-list.json')]));
    expect(error.message).toBe('bad-not-a-list.json: expected a JSON list of records at the top level, got an object with keys "data"');
  });

  it('refuses a record without the text, naming record and field', () => {
    const error = catchDataError(() => adaptC3Bench(fixture('bad-missing-text.json'), { text: 'classical_Chinese', translation: 'modern_Chinese' }));
    expect([error.file, error.record, error.field]).toEqual(['bad-missing-text.json', 1, 'classical_Chinese']);
    expect(error.message).toBe('bad-missing-text.json, record 1, field "classical_Chinese": missing: every record needs its classical text (role "text")');
  });

  it('refuses a mapped field that no record has', () => {
    const error = catchDataError(() => adaptC3Bench(fixture('flat.json'), { text: 'classical_Chinese', category: '类别' }));
    expect(error.message).toBe('flat.json, field "类别": mapped to role "category", but no record has this field');
  });

  it('refuses a value of the wrong shape', () => {
    const error = catchDataError(() => adaptC3Bench(fixture('bad-wrong-shape.json'), { text: 'classical_Chinese', source: 'source' }));
    expect([error.record, error.field]).toEqual([2, 'source']);
  });

  it('refuses text that is not JSON', () => {
    const error = catchDataError(() => adaptDataset('c3bench', [fixture('bad-truncated.json')]));
    expect(error.file).toBe('bad-truncated.json');
    expect(error.detail).toMatch(/^not valid JSON \(/);
  });

  it('refuses a file where no field looks like the text when no mapping is given', () => {
    const error = catchDataError(() => adaptDataset('c3bench', [{ path: 'x.json', bytes: new TextEncoder().encode('[{"foo": "a"}]') }]));
    expect(error.message).toBe('x.json: no field looks like the classical text; choose which field fills the role "text"');
  });

  it('refuses more than one file', () => {
    expect(() => adaptDataset('c3bench', [fixture('flat.json'), fixture('minimal.json')])).toThrow('flat.json, minimal.json: C3Bench is one JSON file; choose exactly one');
  });
});

describe('C3_PUNCTUATION', () => {
  it('strips Chinese and ASCII punctuation, brackets, quotes and whitespace, and nothing else', () => {
    expect(stripPunctuation('子曰：「學而時習之，不亦說乎？」《論語·學而》 (1) — 完…')).toBe('子曰學而時習之不亦說乎論語學而1完');
    expect(stripPunctuation(C3_PUNCTUATION + ' \t\n\u3000')).toBe('');
    expect(stripPunctuation('㮈𠀀ABC甲')).toBe('㮈𠀀ABC甲');
  });
});
