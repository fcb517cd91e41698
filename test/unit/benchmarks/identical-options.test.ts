import { describe, expect, it } from 'vitest';
import { adaptAncientBench } from '../../../src/lib/core/benchmarks/adapters/index.ts';
import { identicalOptions } from '../../../src/lib/core/benchmarks/identical-options.ts';

const csv = (rows: string[]) => new TextEncoder().encode(['task,question,A,B,C,D,answer,split,id', ...rows].join('\n') + '\n');

describe('items whose options repeat one another', () => {
  it('are found with the letters that repeat, spaces around a text set aside; distinct options are not', () => {
    const { items } = adaptAncientBench([
      {
        path: 'mine.csv',
        bytes: csv([
          'Radical,「江」的部首是？,氵,工,口,木,A,test,q1',
          'Radical,「河」的部首是？,氵,氵,可,口,A,test,q2',
          'Radical,「松」的部首是？,木, 木 ,公,木,B,test,q3',
          'Radical,「林」的部首是？,木,林,木,林,A,test,q4',
          'Radical,「湖」的部首是？,氵,胡,月,古,A,test,q5',
        ]),
      },
    ]);
    const found = identicalOptions(items);
    expect(found.count).toBe(3);
    expect(found.examples.map((e) => [e.id.split('/').at(-1), e.letters])).toEqual([
      ['q2', ['A', 'B']],
      ['q3', ['A', 'B', 'D']],
      ['q4', ['A', 'B', 'C', 'D']],
    ]);
  });

  it('are found when they only look the same: hidden characters, another Unicode form, spaces inside (issue 46)', () => {
    const { items } = adaptAncientBench([
      {
        path: 'mine.csv',
        bytes: csv([
          'Radical,「河」的部首是？,氵,氵\u200b,\u2060氵,氵\u200d,A,test,hidden',
          'Radical,「豈」是？,\uf900,\u8c48,口,木,A,test,compat',
          'Radical,「林」是？,\u00e9,e\u0301,木 木,木  木,A,test,forms',
          // Look alike but are not: a variation selector picks another glyph; full-width and ASCII letters differ.
          'Radical,「葛」是？,葛,葛\u{e0100},Ａ,A,A,test,different',
        ]),
      },
    ]);
    const found = identicalOptions(items);
    expect(found.count).toBe(3);
    expect(found.examples.map((e) => [e.id, e.letters])).toEqual([
      ['hidden', ['A', 'B', 'C', 'D']],
      ['compat', ['A', 'B']],
      ['forms', ['A', 'B', 'C', 'D']],
    ]);
  });

  it('keep at most three examples but count every one', () => {
    const rows = Array.from({ length: 5 }, (_, i) => `Radical,题${i},甲,甲,乙,丙,A,test,r${i}`);
    const found = identicalOptions(adaptAncientBench([{ path: 'mine.csv', bytes: csv(rows) }]).items);
    expect(found.count).toBe(5);
    expect(found.examples).toHaveLength(3);
  });
});
