// Logits as float32, whatever the graph returned. fp16 and q4f16 graphs return float16 logits, which
// onnxruntime-common hands back as a Float16Array where the JavaScript engine has one and as the raw
// IEEE half bits in a Uint16Array where it does not; read as a Float32Array, either gives wrong
// numbers (the bits read as values, or half as many values as expected).

/** The part of a tensor this reads (transformers.js' Tensor and onnxruntime's both fit). */
export interface LogitsTensor {
  readonly type: string;
  readonly data: ArrayLike<number> | ArrayLike<bigint> | readonly string[];
}

/** The float value of IEEE 754 half-precision bits (subnormals, ±0, ±inf and NaN included). */
export function halfToFloat(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exponent = (bits >> 10) & 0x1f;
  const fraction = bits & 0x3ff;
  if (exponent === 0) return sign * fraction * 2 ** -24;
  if (exponent === 0x1f) return fraction === 0 ? sign * Infinity : NaN;
  return sign * (1 + fraction / 1024) * 2 ** (exponent - 15);
}

/** Elements [start, end) of a logits tensor as float32 (a copy). */
export function logitsRows(tensor: LogitsTensor, start = 0, end?: number): Float32Array<ArrayBuffer> {
  const data = tensor.data;
  const stop = end ?? data.length;
  if (tensor.type === 'float32') return (data as Float32Array<ArrayBuffer>).slice(start, stop);
  if (tensor.type !== 'float16') throw new Error(`logits of type ${tensor.type} cannot be read as numbers`);
  const out = new Float32Array(Math.max(0, stop - start));
  if (data instanceof Uint16Array) {
    for (let i = 0; i < out.length; i++) out[i] = halfToFloat(data[start + i]);
  } else {
    // A Float16Array: its elements are the values already.
    const values = data as ArrayLike<number>;
    for (let i = 0; i < out.length; i++) out[i] = values[start + i];
  }
  return out;
}
