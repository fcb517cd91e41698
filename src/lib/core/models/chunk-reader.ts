// Reading a protobuf message from a stream of chunks as its fields need the bytes: a byte, a varint,
// a run of bytes copied into a buffer of its own, or skipped. Shared by the model file's scan
// (onnx-scan.ts) and its split into graph and weights (weights-stream.ts), each with its own error.

export type ReadError = (message: string, offset: number) => Error;

/** Pulls bytes from the chunks as fields need them; `pos` counts every byte consumed. */
export class ChunkReader {
  pos = 0;
  private chunk: Uint8Array = new Uint8Array(0);
  private at = 0;
  private readonly decoder = new TextDecoder();

  /**
   * `releaseChunks`: the chunks are this reader's alone (not shared with a tee's other branch), so
   * each is freed (detached) once read: a network chunk is garbage then, but V8 collects the old
   * generation seldom, and a 511 MB download left about as much garbage in the worker as the file
   * itself until after the session was made (scripts/bench/memory-stages.ts).
   */
  constructor(
    private readonly source: AsyncIterator<Uint8Array>,
    private readonly fail: ReadError,
    private readonly releaseChunks = false,
  ) {}

  /** Makes at least one byte available; false at the end of the stream. */
  private async fill(): Promise<boolean> {
    while (this.at >= this.chunk.length) {
      if (this.releaseChunks) releaseChunk(this.chunk);
      const next = await this.source.next();
      if (next.done) return false;
      this.chunk = next.value;
      this.at = 0;
    }
    return true;
  }

  async atEnd(): Promise<boolean> {
    return !(await this.fill());
  }

  async byte(): Promise<number> {
    if (this.at >= this.chunk.length && !(await this.fill())) throw this.fail('the file ends inside a field', this.pos);
    this.pos++;
    return this.chunk[this.at++];
  }

  /** A varint as a number (exact up to 2^53, which every length and dimension is) and its bytes as written. */
  async varintRaw(): Promise<{ value: number; raw: Uint8Array }> {
    const raw: number[] = [];
    let value = 0;
    let scale = 1;
    for (let i = 0; i < 10; i++) {
      const b = await this.byte();
      raw.push(b);
      value += (b & 0x7f) * scale;
      if (b < 0x80) return { value, raw: Uint8Array.from(raw) };
      scale *= 128;
    }
    throw this.fail('a varint is longer than 10 bytes', this.pos);
  }

  async varint(): Promise<number> {
    return (await this.varintRaw()).value;
  }

  async skip(n: number): Promise<void> {
    let left = n;
    while (left > 0) {
      if (!(await this.fill())) throw this.fail(`the file ends ${left} bytes before a field's end`, this.pos);
      const step = Math.min(left, this.chunk.length - this.at);
      this.at += step;
      this.pos += step;
      left -= step;
    }
  }

  /** The next `n` bytes, copied into a buffer of their own. */
  async bytes(n: number): Promise<Uint8Array> {
    const out = new Uint8Array(n);
    let got = 0;
    while (got < n) {
      if (!(await this.fill())) throw this.fail(`the file ends ${n - got} bytes before a field's end`, this.pos);
      const step = Math.min(n - got, this.chunk.length - this.at);
      out.set(this.chunk.subarray(this.at, this.at + step), got);
      this.at += step;
      this.pos += step;
      got += step;
    }
    return out;
  }

  /** A length-delimited string field's value (its length read here); '' when longer than `max` (skipped). */
  async string(max: number): Promise<string> {
    const n = await this.varint();
    if (n > max) {
      await this.skip(n);
      return '';
    }
    return this.decoder.decode(await this.bytes(n));
  }
}

/** Detaches a chunk that owns its whole buffer, freeing it now rather than at the next collection. */
function releaseChunk(chunk: Uint8Array): void {
  const buffer = chunk.buffer as ArrayBuffer & { transfer?: (length: number) => ArrayBuffer; detached?: boolean };
  if (chunk.byteLength === 0 || buffer.detached || chunk.byteOffset !== 0 || chunk.byteLength !== buffer.byteLength) return;
  if (typeof SharedArrayBuffer !== 'undefined' && (buffer as unknown) instanceof SharedArrayBuffer) return;
  buffer.transfer?.(0);
}
