// float16 logits read as float32 (workers/logits.ts), on bit patterns worked out by hand:
// value = (−1)^sign · 2^(exponent − 15) · (1 + fraction/1024), subnormals 2^−24 · fraction.
import { describe, expect, it } from 'vitest';
import { halfToFloat, logitsRows } from '../../../workers/logits.ts';

const KNOWN: readonly [number, number][] = [
  [0x0000, 0],
  [0x3c00, 1],
  [0xbc00, -1],
  [0x4000, 2],
  [0xc500, -5], // exponent 17, fraction 256: 4 · 1.25
  [0x3555, 0.333251953125], // exponent 13, fraction 341: (1 + 341/1024) / 4
  [0x3e00, 1.5],
  [0x7bff, 65504], // the largest finite half: 2^15 · (1 + 1023/1024)
  [0x0400, 2 ** -14], // the smallest normal
  [0x03ff, 1023 * 2 ** -24], // the largest subnormal
  [0x0001, 2 ** -24], // the smallest subnormal
  [0x8001, -(2 ** -24)],
  [0x7c00, Infinity],
  [0xfc00, -Infinity],
];

describe('halfToFloat', () => {
  it('decodes normals, subnormals and infinities', () => {
    for (const [bits, value] of KNOWN) expect(halfToFloat(bits), `0x${bits.toString(16)}`).toBe(value);
  });

  it('keeps the sign of zero and gives NaN for every NaN pattern', () => {
    expect(Object.is(halfToFloat(0x8000), -0)).toBe(true);
    expect(Object.is(halfToFloat(0x0000), 0)).toBe(true);
    for (const bits of [0x7e00, 0x7c01, 0xfe00, 0x7fff]) expect(halfToFloat(bits)).toBeNaN();
  });
});

describe('logitsRows', () => {
  const bits = Uint16Array.from(KNOWN.map(([b]) => b));
  const values = KNOWN.map(([, v]) => v);

  it('converts raw half bits (a browser without Float16Array)', () => {
    expect(Array.from(logitsRows({ type: 'float16', data: bits }))).toEqual(values.map((v) => Math.fround(v)));
    expect(Array.from(logitsRows({ type: 'float16', data: bits }, 3, 6))).toEqual([2, -5, 0.333251953125]);
  });

  it('takes a Float16Array’s elements as they are (stood in for by a plain array in Node 20)', () => {
    expect(Array.from(logitsRows({ type: 'float16', data: [1.5, -2, 65504] }, 1))).toEqual([-2, 65504]);
  });

  it('copies float32 rows, and refuses a type that is not a float', () => {
    const f = Float32Array.of(1, 2, 3, 4);
    const row = logitsRows({ type: 'float32', data: f }, 1, 3);
    expect(Array.from(row)).toEqual([2, 3]);
    row[0] = 9;
    expect(f[1]).toBe(2);
    expect(() => logitsRows({ type: 'int64', data: BigInt64Array.of(1n) })).toThrow(/int64/);
  });

  it('differs from the old read (`logits.data as Float32Array`), which took the bits for values', () => {
    const old = (bits as unknown as Float32Array).slice(0, 3);
    expect(Array.from(old)).toEqual([0, 0x3c00, 0xbc00]);
    expect(Array.from(logitsRows({ type: 'float16', data: bits }, 0, 3))).toEqual([0, 1, -1]);
  });
});
