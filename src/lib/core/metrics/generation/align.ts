// Character alignment for the punctuation task: which input character each output character stands
// for, when the model changed, dropped or added characters while punctuating.
//  1. The common prefix and suffix align one to one (the usual case is no change at all, which
//     costs one pass).
//  2. The middle is aligned by a longest common subsequence (dynamic programming; on equal lengths
//     the backtrack prefers to skip an output character first, which keeps matches as early in the
//     output as possible and so is deterministic).
//  3. Between two consecutive LCS anchors, the unmatched input and output characters are paired in
//     order (a changed character, e.g. a variant form, stands where the original stood); the
//     surplus on the longer side stays unaligned.
// Memory is (a + 1)(b + 1) cells for middles of a and b characters: sentences, not books.

/** alignment[o] = index of the input character output character o stands for, or −1 when it has none. */
export function alignCharacters(input: readonly string[], output: readonly string[]): Int32Array {
  const alignment = new Int32Array(output.length).fill(-1);
  let prefix = 0;
  while (prefix < input.length && prefix < output.length && input[prefix] === output[prefix]) {
    alignment[prefix] = prefix;
    prefix++;
  }
  let suffix = 0;
  while (
    suffix < input.length - prefix &&
    suffix < output.length - prefix &&
    input[input.length - 1 - suffix] === output[output.length - 1 - suffix]
  ) {
    alignment[output.length - 1 - suffix] = input.length - 1 - suffix;
    suffix++;
  }
  const a = input.length - prefix - suffix;
  const b = output.length - prefix - suffix;
  if (a === 0 || b === 0) return alignment;

  // lcs[i * (b + 1) + j] = LCS length of input[prefix + i ..] and output[prefix + j ..] (suffix tables).
  const width = b + 1;
  const lcs = new Uint32Array((a + 1) * width);
  for (let i = a - 1; i >= 0; i--) {
    for (let j = b - 1; j >= 0; j--) {
      lcs[i * width + j] =
        input[prefix + i] === output[prefix + j] ? lcs[(i + 1) * width + j + 1] + 1 : Math.max(lcs[(i + 1) * width + j], lcs[i * width + j + 1]);
    }
  }
  // Walk the table, collecting anchors; pair the unmatched stretch before each anchor (and at the end).
  let i = 0;
  let j = 0;
  let runInput = 0;
  let runOutput = 0;
  const pairRun = (): void => {
    const pairs = Math.min(i - runInput, j - runOutput);
    for (let k = 0; k < pairs; k++) alignment[prefix + runOutput + k] = prefix + runInput + k;
  };
  while (i < a && j < b) {
    if (input[prefix + i] === output[prefix + j] && lcs[i * width + j] === lcs[(i + 1) * width + j + 1] + 1) {
      pairRun();
      alignment[prefix + j] = prefix + i;
      i++;
      j++;
      runInput = i;
      runOutput = j;
    } else if (lcs[i * width + j + 1] >= lcs[(i + 1) * width + j]) {
      j++;
    } else {
      i++;
    }
  }
  i = a;
  j = b;
  pairRun();
  return alignment;
}
