// Ids that name one thing (issue 46, item 2): a run's id goes into a fragment encoded once and comes
// back decoded once, whatever it holds, so a link opens the run whose row it is on and no other. A
// restored backup may hold any id a file could carry; these are the characters that mean something in
// a URL, one that decodes to another stored id (`%32d43e2d` to `2d43e2d`), and non-ASCII.
import { describe, expect, it } from 'vitest';
import { classroomSharedRoute, classroomSource, encodeId, idsOfRoute, parseRoute, routeTo } from '../../../src/ui/route.ts';

const IDS = ['%', '100%', '%32d43e2d', '%2532', '%zz', 'a/b', '/lead', 'shared/x', 'x#y', 'q?z=1', 'a,b', '%2C', 'two words', ' edge ', 'a&b=c', '+plus+', '基线 q8', '基线·甲', '🧪 run', 'ok-123'];

/** What a browser's location.hash gives back for a fragment the site set: non-ASCII and spaces percent-encoded. */
const asLocationGives = (hash: string) => new URL(`https://example.org/${hash}`).hash;

describe('routeTo and parseRoute', () => {
  it.each(IDS)('a run, a memorization run and the classroom open the id %j itself', (id) => {
    for (const page of ['run', 'probe', 'classroom'] as const) {
      const hash = routeTo(page, id);
      for (const seen of [hash, asLocationGives(hash)]) {
        const route = parseRoute(seen);
        expect(route.page).toBe(page);
        if (page === 'classroom') expect(classroomSource(route.raw!)).toEqual({ kind: 'run', runId: id });
        else expect(route.param).toBe(id);
      }
    }
  });

  it('decodes once: %32 stays %32, and the id it would decode to is another route', () => {
    expect(routeTo('run', '%32d43e2d')).toBe('#/run/%2532d43e2d');
    expect(parseRoute(routeTo('run', '%32d43e2d')).param).toBe('%32d43e2d');
    expect(parseRoute(routeTo('run', '2d43e2d')).param).toBe('2d43e2d');
    expect(routeTo('run', '%32d43e2d')).not.toBe(routeTo('run', '2d43e2d'));
  });

  it('keeps an id’s own / # ? , out of the route’s syntax', () => {
    for (const id of ['a/b', 'x#y', 'q?z=1', 'a,b']) expect(routeTo('run', id).slice('#/run/'.length)).not.toMatch(/[/#?,]/);
  });

  it('Compare reopens several ids in their order, none split or merged', () => {
    for (const order of [IDS, [...IDS].reverse(), ['a,b', 'a', 'b'], ['%2C', ',']]) {
      const hash = routeTo('compare', order);
      for (const seen of [hash, asLocationGives(hash)]) {
        const route = parseRoute(seen);
        expect(route.page).toBe('compare');
        expect(idsOfRoute(route.raw)).toEqual(order);
      }
    }
    // One id is a list of one, on the run page's Compare link too.
    expect(idsOfRoute(parseRoute(routeTo('compare', ['a,b'])).raw)).toEqual(['a,b']);
    expect(routeTo('compare', [])).toBe('#/compare');
    expect(idsOfRoute(null)).toEqual([]);
    // A hand-written link's blanks and repeats are dropped.
    expect(idsOfRoute('a,,%20b ,a')).toEqual(['a', ' b']);
  });

  it('tells a classroom link’s shared payload from a run named shared/…', () => {
    const payload = 'AbC-_09xyz';
    expect(classroomSource(parseRoute(classroomSharedRoute(payload)).raw!)).toEqual({ kind: 'shared', payload });
    expect(classroomSource(parseRoute(routeTo('classroom', `shared/${payload}`)).raw!)).toEqual({ kind: 'run', runId: `shared/${payload}` });
  });

  it('reads a link written before ids were encoded as it was read then', () => {
    expect(parseRoute('#/run/3f2a9c1e-0b7d-4e55-9a61-2c8f0d4b7e10').param).toBe('3f2a9c1e-0b7d-4e55-9a61-2c8f0d4b7e10');
    expect(parseRoute('#/run/a/b').param).toBe('a/b');
    expect(idsOfRoute(parseRoute('#/compare/run-a,run-b').raw)).toEqual(['run-a', 'run-b']);
    expect(classroomSource(parseRoute('#/classroom/run-a').raw!)).toEqual({ kind: 'run', runId: 'run-a' });
  });

  it('never throws on an id no importer stores (a lone surrogate): its link names no run', () => {
    const lone = 'a\uD800b';
    expect(() => routeTo('run', lone)).not.toThrow();
    expect(parseRoute(routeTo('run', lone)).param).toBe('a\uFFFDb');
    expect(encodeId('ok 🧪')).toBe('ok%20%F0%9F%A7%AA');
  });
});
