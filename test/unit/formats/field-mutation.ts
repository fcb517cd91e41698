// What the mutation tests share: every leaf of a parsed JSON value with its path, the mutations tried on
// each, and how a refusal's path is matched against the field table (fields/field-class.ts).
import type { FieldClass, FieldTable } from '../../../src/lib/core/formats/fields/index.ts';

export type PathPart = string | number;

/** `results[3].logprob[0]` from ['results', 3, 'logprob', 0]. */
export const pathText = (parts: readonly PathPart[]): string => parts.reduce<string>((s, p) => (typeof p === 'number' ? `${s}[${p}]` : s ? `${s}.${p}` : p), '');
/** List positions as [*]: the table's form. */
export const general = (path: string): string => path.replace(/\[\d+\]/g, '[*]');

/** Every leaf (number, string, boolean, null, empty list or object) with its path; of a list of numbers or strings only its first and last entries, which stand for the rest. */
export function leaves(value: unknown, at: PathPart[] = []): PathPart[][] {
  if (Array.isArray(value)) {
    if (value.length === 0) return [at];
    const objects = value.some((v) => typeof v === 'object' && v !== null);
    const picked = objects ? value.map((_, i) => i) : value.length === 1 ? [0] : [0, value.length - 1];
    return picked.flatMap((i) => leaves(value[i], [...at, i]));
  }
  if (typeof value === 'object' && value !== null) {
    const keys = Object.keys(value);
    if (keys.length === 0) return [at];
    return keys.flatMap((k) => leaves((value as Record<string, unknown>)[k], [...at, k]));
  }
  return [at];
}

/** Every leaf path, no sampling (the completeness test). */
export function allPaths(value: unknown, at = ''): string[] {
  if (Array.isArray(value)) return value.length === 0 ? [at] : value.flatMap((v, i) => allPaths(v, `${at}[${i}]`));
  if (typeof value === 'object' && value !== null) {
    const keys = Object.keys(value);
    return keys.length === 0 ? [at] : keys.flatMap((k) => allPaths((value as Record<string, unknown>)[k], at ? `${at}.${k}` : k));
  }
  return [at];
}

/** The table's entry for a path, or for the nearest field above it (an entry covers what is under it). */
export function classOf(table: FieldTable, path: string): { key: string; field: FieldClass } | null {
  let p = general(path);
  for (;;) {
    if (Object.hasOwn(table, p)) return { key: p, field: table[p] };
    // A list named as a whole (its length): its entries' class.
    if (Object.hasOwn(table, `${p}[*]`)) return { key: `${p}[*]`, field: table[`${p}[*]`] };
    const cut = Math.max(p.lastIndexOf('.'), p.lastIndexOf('['));
    if (cut <= 0) return null;
    p = p.slice(0, cut);
  }
}

export interface Mutation {
  name: string;
  value: unknown;
}

/** The hostile values tried on one leaf: out of any range, off by a little, of another kind, absent. */
export function mutationsOf(value: unknown): Mutation[] {
  const out: Mutation[] = [{ name: 'removed', value: undefined }];
  if (typeof value === 'number') {
    out.push({ name: '+1', value: value + 1 }, { name: '−1.79e308', value: -1.79e308 }, { name: '1e308', value: 1e308 }, { name: 'negated', value: -value - 0.5 }, { name: 'string', value: String(value) });
  } else if (typeof value === 'string') {
    out.push({ name: 'other text', value: `${value}x` }, { name: 'date 9999', value: '9999-12-31T00:00:00.000Z' }, { name: 'number', value: 7 });
    // A hash is only changed by another hash: anything else fails its form before it is compared.
    if (/^[0-9a-f]{64}$/.test(value)) out.push({ name: 'another hash', value: `${value[0] === '0' ? '1' : '0'}${value.slice(1)}` });
  } else if (typeof value === 'boolean') {
    out.push({ name: 'flipped', value: !value });
  } else if (value === null) {
    out.push({ name: 'number', value: 1 }, { name: 'text', value: 'x' });
  } else if (Array.isArray(value)) {
    out.push({ name: 'one entry', value: [1] });
  } else {
    out.push({ name: 'a number', value: 2 });
  }
  return out;
}

/** A deep copy of `root` with the leaf at `parts` set to `value` (removed when undefined). */
export function mutated<T>(root: T, parts: readonly PathPart[], value: unknown): T {
  const copy = structuredClone(root) as Record<string | number, unknown>;
  let at = copy;
  for (const part of parts.slice(0, -1)) at = at[part] as Record<string | number, unknown>;
  const last = parts[parts.length - 1];
  if (value === undefined) {
    if (Array.isArray(at)) at.splice(last as number, 1);
    else delete at[last];
  } else at[last] = value;
  return copy as T;
}

/**
 * Whether a refusal at `refused` names mutated field `field` (both concrete paths): the field itself,
 * a field under it or above it, or a field the table says is derived from it or checked against it.
 */
export function namesField(table: FieldTable, refused: string, field: string): boolean {
  if (general(refused) === general(field) || refused === field || refused.startsWith(`${field}.`) || refused.startsWith(`${field}[`) || field.startsWith(`${refused}.`) || field.startsWith(`${refused}[`)) return true;
  const entry = classOf(table, refused);
  if (!entry) return false;
  const g = general(field);
  const mentions = (p: string) => g === p || g.startsWith(`${p}.`) || g.startsWith(`${p}[`);
  return entry.field.class === 'derived' ? entry.field.from.some(mentions) : entry.field.check.includes(classOf(table, field)?.key ?? '\u0000');
}
