// A sample's doc against the stored item it is matched to, in both doc shapes.
import { describe, expect, it } from 'vitest';
import type { MultipleChoiceItem } from '../../../src/lib/core/benchmarks/types.ts';
import { checkSampleDocs, docMismatch, pythonJsonIndent2 } from '../../../src/lib/core/formats/lm-eval/import/lm-eval-docs.ts';
import { RunImportError } from '../../../src/lib/core/formats/import-validate.ts';
import type { ImportedRun } from '../../../src/lib/core/formats/import-validate.ts';

const item: MultipleChoiceItem = {
  kind: 'multiple-choice', id: '古文单字多义/test/1', datasetId: 'aclue', task: '古文单字多义', split: 'test', order: 1,
  source: { file: 'x.csv', line: 3 }, question: '虚构题二：「兵」在「短兵相接」中的意思是？', options: ['士兵', '战争', '兵器', '军队'], answer: 'C',
};
const stock = { Question: item.question, A: '士兵', B: '战争', C: '兵器', D: '军队', Answer: 'C' };
const exported = { jiangu_id: item.id, question: item.question, options: [...item.options], answer: 'C' };

describe('docMismatch', () => {
  it('agrees with the item in either shape, and names the first field that differs', () => {
    expect(docMismatch(stock, item)).toBeNull();
    expect(docMismatch(exported, item)).toBeNull();
    expect(docMismatch({ ...stock, Question: '别的题' }, item)).toBe('question');
    expect(docMismatch({ ...stock, D: '将军' }, item)).toBe('options');
    expect(docMismatch({ ...exported, options: item.options.slice(0, 3) }, item)).toBe('options');
    expect(docMismatch({ ...exported, answer: 'A' }, item)).toBe('answer');
  });

  it('checkSampleDocs names the samples file, the line and the item', () => {
    const imported = { run: {} as ImportedRun['run'], results: [{ itemId: item.id }] } as unknown as ImportedRun;
    const docs = [{ doc: { ...stock, Answer: 'B' }, place: 'line 2', file: 'samples_aclue_polysemy_resolution_x.jsonl' }];
    let error: unknown = null;
    try {
      checkSampleDocs(imported, docs, new Map([[item.id, item]]));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(RunImportError);
    expect((error as RunImportError).message).toBe(
      'samples_aclue_polysemy_resolution_x.jsonl: line 2: the sample\'s doc is not the stored item "古文单字多义/test/1" (its answer differs): the harness ran on other data or rows in another order. Nothing was imported.',
    );
    expect(() => checkSampleDocs(imported, [{ ...docs[0], doc: stock }], new Map([[item.id, item]]))).not.toThrow();
  });
});

describe('pythonJsonIndent2', () => {
  it('writes json.dumps(indent=2, ensure_ascii=False), and gives up on numbers', () => {
    expect(pythonJsonIndent2({ a: ['x', '古'], b: {}, c: [], d: null, e: true })).toBe('{\n  "a": [\n    "x",\n    "古"\n  ],\n  "b": {},\n  "c": [],\n  "d": null,\n  "e": true\n}');
    expect(pythonJsonIndent2({ a: 1 })).toBeNull();
  });
});
