// The bytes a byte piece stands for, so a class sees "E6 96" rather than a vocabulary's private
// spelling of them. Two spellings exist in the models Jiangu loads: SentencePiece's byte fallback
// (Llama 2, stories260k: a token named <0xE6>) and byte-level BPE (GPT-2, Qwen: every byte spelled
// as one printable character, bytes_to_unicode in GPT-2's encoder.py: the printable Latin-1 bytes as
// themselves, the other 68 as U+0100 onwards in byte order).
const BYTE_OF_SYMBOL = (() => {
  const map = new Map<string, number>();
  const printable = (b: number) => (b >= 0x21 && b <= 0x7e) || (b >= 0xa1 && b <= 0xac) || (b >= 0xae && b <= 0xff);
  let next = 0;
  for (let b = 0; b < 256; b++) map.set(String.fromCodePoint(printable(b) ? b : 256 + next++), b);
  return map;
})();

/** The bytes of a vocabulary string: <0xNN> (SentencePiece) or byte-level symbols (BPE); null for any other. */
export function bytesOfPiece(token: string): number[] | null {
  const fallback = /^<0x([0-9A-Fa-f]{2})>$/.exec(token);
  if (fallback) return [parseInt(fallback[1], 16)];
  const bytes: number[] = [];
  for (const char of token) {
    const b = BYTE_OF_SYMBOL.get(char);
    if (b === undefined) return null;
    bytes.push(b);
  }
  return bytes.length > 0 ? bytes : null;
}

/** "E6 96": the bytes in hex, as the page shows a byte piece. */
export const hexBytes = (bytes: readonly number[]): string => bytes.map((b) => b.toString(16).toUpperCase().padStart(2, '0')).join(' ');
