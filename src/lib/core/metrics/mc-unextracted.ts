// Multiple choice by generation: answers from which no letter could be extracted. They count as
// wrong in the accuracy; this says how many there were, so a low score can be told apart from a
// model that did not answer in a usable form.
export function countUnextracted(results: readonly { prediction: string | null; generated?: unknown }[]): number {
  return results.filter((r) => r.generated !== undefined && r.prediction === null).length;
}

/** Items that could not be run (too long for the model, or the model failed on them): counted apart, as unextracted answers are. */
export function countFailed(results: readonly { failure?: unknown }[]): number {
  return results.filter((r) => r.failure !== undefined).length;
}
