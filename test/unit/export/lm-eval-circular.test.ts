// The circular lm-eval export: every multiple-choice item once per cyclic rotation of its options
// (docs with the rotated options, the moved answer, jiangu_id unchanged, jiangu_rotation 0 … n − 1;
// exemplars unrotated), `metadata.jiangu.circular`, `_circular` names and a README that says so.
// Without the option (or with the letter scoring named) the folder is byte for byte what the export
// wrote before rotations existed.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { adaptDataset } from '../../../src/lib/core/benchmarks/adapters/index.ts';
import type { Item } from '../../../src/lib/core/benchmarks/types.ts';
import { exportLmEval, type LmEvalExport } from '../../../src/lib/core/formats/lm-eval/export/folder.ts';
import { CIRCULAR_ITEMS, exportCircular } from './circular-items.ts';
import { rotateItem } from '../../../src/lib/core/protocols/rotation.ts';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

const fileText = (exported: LmEvalExport, path: string): string => {
  const file = exported.files.find((f) => f.path === path);
  if (!file) throw new Error(`no ${path} in ${exported.files.map((f) => f.path).join(', ')}`);
  return file.text;
};

describe('the lm-eval export of a circular run', () => {
  it('writes each item once per rotation: options rotated and answer moved as rotateItem, id unchanged, exemplars unrotated', async () => {
    const exported = await exportCircular();
    const plain = await exportCircular(false);
    expect(exported.group).toBe('jiangu_aclue_1shot_circular');
    for (const task of ['通假字', '古文断句']) {
      const name = exported.tasks.find((t) => t.task === task)!.name;
      expect(name).toMatch(/^jiangu_aclue_1shot_circular_/);
      const docs = fileText(exported, `${name}.jsonl`).trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
      const plainName = plain.tasks.find((t) => t.task === task)!.name;
      const plainDocs = new Map(fileText(plain, `${plainName}.jsonl`).trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>).map((d) => [d.jiangu_id, d]));
      const items = CIRCULAR_ITEMS.filter((i) => i.task === task && i.split === 'test');
      expect(docs).toHaveLength(items.reduce((sum, i) => sum + i.options.length, 0));
      let at = 0;
      for (const item of items) {
        for (let k = 0; k < item.options.length; k++, at++) {
          const doc = docs[at];
          const rotated = rotateItem(item, k);
          expect(doc.jiangu_id).toBe(item.id);
          expect(doc.jiangu_rotation).toBe(k);
          expect(doc.options).toEqual(rotated.options);
          expect(doc.answer).toBe(rotated.answer);
          // Everything else is the plain doc's: question, subject, the exemplars as Jiangu chose them.
          const { jiangu_rotation: _, options: __, answer: ___, ...rest } = doc;
          const { options: ____, answer: _____, ...plainRest } = plainDocs.get(item.id)!;
          expect(rest).toEqual(plainRest);
        }
      }
      // Hand-checked: 二 (B) of 一二三四 moves to A under rotation 1, to D under 2, to C under 3.
      if (task === '通假字') expect(docs.slice(0, 4).map((d) => [d.options, d.answer])).toEqual([
        [['一', '二', '三', '四'], 'B'], [['二', '三', '四', '一'], 'A'], [['三', '四', '一', '二'], 'D'], [['四', '一', '二', '三'], 'C'],
      ]);
      const yaml = fileText(exported, `${name}.yaml`);
      expect(yaml).toMatch(/^\s+circular: true$/m);
      expect(fileText(plain, `${plainName}.yaml`)).not.toMatch(/circular/);
    }
    expect(exported.tasks.map((t) => [t.docs, t.items])).toEqual([[9, 3], [8, 2]]);
    const readme = fileText(exported, 'README.md');
    expect(readme).toContain('## Circular evaluation');
    expect(readme).toContain('`jiangu_rotation`');
    expect(readme).toContain('--tasks jiangu_aclue_1shot_circular');
    expect(fileText(plain, 'README.md')).not.toMatch(/rotation/);
    expect(fileText(exported, 'jiangu_aclue_1shot_circular.yaml')).toMatch(/circular: true/);
  });

  it('leaves a non-circular export byte for byte as it was (AncientBench sample, 0- and 5-shot)', async () => {
    const bytes = readFileSync(new URL('../../../public/samples/ancientbench-sample.csv', import.meta.url));
    const file = { path: 'ancientbench-sample.csv', bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) };
    const items: Item[] = adaptDataset('ancientbench', [file]).items;
    const files = [{ path: file.path, sha256: createHash('sha256').update(file.bytes).digest('hex'), bytes: file.bytes.length }];
    // Every file's path and text, hashed, as main's export at 8c70d2d wrote them (before rotations).
    const before: Record<number, string> = {
      0: 'aee6ecbfc53bbaf7008c7cba72f4e2274947910623a8060dcb3c8c3480a7e3f5',
      5: '9abdfef081b6e7df9546421a37d5f78ae61f6a4296459c8792f181cf12dab599',
    };
    for (const shots of [0, 5]) {
      // The options left out, circular false, and the letter scoring named (issue 25's cloze is the other).
      for (const options of [{}, { circular: false }, { scoring: 'letter-logits' as const }]) {
        const exported = await exportLmEval({ datasetId: 'ancientbench', items, files, shots, appVersion: '0.1.0+golden', ...options });
        expect(exported.files).toHaveLength(27);
        expect(sha(exported.files.map((f) => `${f.path}\0${f.text}\0`).join('')), `${shots}-shot, ${JSON.stringify(options)}`).toBe(before[shots]);
      }
    }
  });
});
