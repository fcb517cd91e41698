// The rotation planes of a share link (circular runs, and PriDe's estimation items): after the
// letter planes, three more planes of 2-bit codes (share-bytes.ts's pack2):
//   counts   n codes, ceil(n/4) bytes: how many rotations (1 … c, c ≤ 3) item i carries.
//   letters  `slots` codes (the sum of the counts), item by item, rotation by rotation: A=0 … D=3,
//            a position in that rotation's order (0 where there is no letter).
//   status   only when the header's `rotations.gaps` is true, `slots` codes: 0 a letter, 1 scored
//            with no extractable letter, 2 the rotation failed, 3 invalid.
// A count plane rather than a rotation count per option number keeps the link readable without the
// data: the decoder needs no item to know where each item's letters are; the page then checks each
// count against the item's options.
import type { OptionLetter } from '../../benchmarks/types.ts';
import { isFailed, type McItemResult } from '../../record/run.ts';
import { pack2, unpack2 } from './share-bytes.ts';
import { shareLinkError, type SharedRotation } from './share-types.ts';
import { int, object } from './share-validate.ts';

const LETTERS: readonly OptionLetter[] = ['A', 'B', 'C', 'D'];
const LETTER = 0;
const NO_LETTER = 1;
const FAILED = 2;
/** Four options give three rotations beyond the benchmark's order: the most a 2-bit count holds. */
const MAX_ROTATIONS = 3;

/** What the header says about the rotation planes. */
export interface RotationsHeader {
  slots: number;
  gaps: boolean;
}

/**
 * The planes for items 0 … n − 1 (`byIndex[i]` the result of item i, if any), or null when no
 * result has a rotation. Rotations are taken in order from 1 while they run on (a result's are
 * appended in order, so that is all of them).
 */
export function packRotations(byIndex: ReadonlyMap<number, McItemResult>, n: number): { header: RotationsHeader; bytes: Uint8Array } | null {
  const counts: number[] = [];
  const letters: number[] = [];
  const status: number[] = [];
  for (let i = 0; i < n; i++) {
    const rotations = byIndex.get(i)?.rotations ?? [];
    let c = 0;
    while (c < rotations.length && c < MAX_ROTATIONS && rotations[c].rotation === c + 1) {
      const r = rotations[c];
      letters.push(r.prediction ? LETTERS.indexOf(r.prediction) : 0);
      status.push(isFailed(r) ? FAILED : r.prediction === null ? NO_LETTER : LETTER);
      c++;
    }
    counts.push(c);
  }
  if (letters.length === 0) return null;
  const gaps = status.some((code) => code !== LETTER);
  const planes = [pack2(counts), pack2(letters), ...(gaps ? [pack2(status)] : [])];
  const bytes = new Uint8Array(planes.reduce((sum, p) => sum + p.length, 0));
  let at = 0;
  for (const p of planes) {
    bytes.set(p, at);
    at += p.length;
  }
  return { header: { slots: letters.length, gaps }, bytes };
}

/**
 * Reads the planes back (the header's `rotations` field and the bytes after the letter planes) into
 * one list of rotations per item. `unscored` items (no result) may carry none.
 */
export function unpackRotations(value: unknown, bytes: Uint8Array, n: number, unscored: ReadonlySet<number>): SharedRotation[][] {
  const h = object(value, 'rotations', ['slots', 'gaps']);
  const slots = int(h.slots, 'rotations.slots', 1, MAX_ROTATIONS * n);
  if (typeof h.gaps !== 'boolean') throw shareLinkError('link.field-invalid', { path: 'rotations.gaps', found: JSON.stringify(h.gaps) ?? 'missing', expected: 'true or false' });
  const countBytes = Math.ceil(n / 4);
  const plane = Math.ceil(slots / 4);
  const expected = countBytes + (h.gaps ? 2 * plane : plane);
  if (bytes.length !== expected) throw shareLinkError('link.rotations-size', { bytes: bytes.length, slots, n, expected, more: bytes.length > expected });
  const counts = unpack2(bytes.subarray(0, countBytes), n);
  const total = counts.reduce((sum, c) => sum + c, 0);
  if (total !== slots) throw shareLinkError('link.rotations-count', { total, slots });
  const letters = unpack2(bytes.subarray(countBytes, countBytes + plane), slots);
  const status = h.gaps ? unpack2(bytes.subarray(countBytes + plane), slots) : null;
  const out: SharedRotation[][] = [];
  let slot = 0;
  counts.forEach((c, i) => {
    if (c > 0 && unscored.has(i)) throw shareLinkError('link.rotations-unscored', { index: i, count: c });
    const mine: SharedRotation[] = [];
    for (let k = 1; k <= c; k++, slot++) {
      const code = status ? status[slot] : LETTER;
      if (code !== LETTER && code !== NO_LETTER && code !== FAILED) throw shareLinkError('link.rotation-status', { index: i, rotation: k, code });
      mine.push({ prediction: code === LETTER ? LETTERS[letters[slot]] : null, failed: code === FAILED });
    }
    out.push(mine);
  });
  return out;
}

/** The most bytes the rotation planes of `items` slots can take, for the inflate limit. */
export function maxRotationBytes(items: number): number {
  return Math.ceil(items / 4) + 2 * Math.ceil((MAX_ROTATIONS * items) / 4);
}
