// Shapes shared by the generation metrics.

/** One scored generation: what the model wrote and what was expected. */
export interface GenerationPair {
  /** The model's raw output; each metric applies the documented post-processing itself. */
  output: string;
  /** The expected output(s), as GenerationItem.references. */
  references: readonly string[];
}

/** The reference of a single-reference task (NER, punctuation): the first; an item without one is refused. */
export function firstReference(pair: GenerationPair, index: number): string {
  if (pair.references.length === 0) throw new RangeError(`item ${index + 1} has no reference`);
  return pair.references[0];
}
