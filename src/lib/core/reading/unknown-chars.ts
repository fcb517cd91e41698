// Characters a model has no token for (issue 45 §1). A character-level vocabulary (jiangu-tiny's, or
// any SentencePiece model without byte fallback) reads such a character as its unknown token, <unk>,
// which decodes to nothing: the decoded passage then lacks the character, and the page used to show
// a grey "<unk>" box and leave the character out of the count without a word. Here each unknown
// token gets back the characters of the passage it stands for, so the page shows the character
// itself, marked, and the count can say which characters were left out and why.
//
// How: the characters the tokens decode to (`decoded`, every unknown token contributing none) are a
// subsequence of the passage's characters; matching them in order, the passage's characters that no
// decoded character matched lie between two tokens, and go to the unknown token(s) there. When
// several unknown tokens sit in a row, each takes one character and the last takes the rest (a
// tokenizer that fuses unknowns gives one token for the run). When the decoded characters are not a
// subsequence of the passage (a tokenizer that normalises what it reads), nothing is placed: null.

/** Where each token ends in the passage's own characters, and those characters. */
export interface PlacedCharacters {
  chars: string[];
  charEnds: number[];
  /** For each unknown token, the characters of the passage it stands for ('' when none was found). */
  unknownText: Map<number, string>;
}

/**
 * `passage` the text the model was given (code points), `decoded` the characters the tokens decode
 * to, `charEnds[j]` how many decoded characters are complete after token j, `unknown[j]` whether
 * token j is the unknown token. Null when `decoded` is not a subsequence of `passage`.
 */
export function placeUnknown(passage: readonly string[], decoded: readonly string[], charEnds: readonly number[], unknown: readonly boolean[]): PlacedCharacters | null {
  // at[i]: the passage index of decoded character i (greedy, in order).
  const at: number[] = [];
  let p = 0;
  for (const c of decoded) {
    while (p < passage.length && passage[p] !== c) p++;
    if (p === passage.length) return null;
    at.push(p++);
  }
  const ends: number[] = [];
  const unknownText = new Map<number, string>();
  let end = 0;
  for (let j = 0; j < charEnds.length; j++) {
    if (!unknown[j]) {
      // A known token ends where its last complete decoded character is in the passage.
      end = charEnds[j] > 0 ? Math.max(end, at[charEnds[j] - 1] + 1) : end;
      ends.push(end);
      continue;
    }
    // An unknown token: the passage's characters from here to the next decoded character's place.
    let run = 0;
    while (j + run + 1 < charEnds.length && unknown[j + run + 1]) run++;
    const nextDecoded = charEnds[j] < decoded.length ? at[charEnds[j]] : passage.length;
    for (let r = 0; r <= run; r++) {
      const to = r === run ? Math.max(end, nextDecoded) : Math.min(Math.max(end, nextDecoded), end + 1);
      unknownText.set(j + r, passage.slice(end, to).join(''));
      end = to;
      ends.push(end);
    }
    j += run;
  }
  return { chars: [...passage.slice(0, Math.max(end, at.length ? at[at.length - 1] + 1 : 0))], charEnds: ends, unknownText };
}
