// The Evaluate page's sample choice (SampleChoice.svelte), kept for the tab (sessionStorage: through
// reloads, not into other tabs) rather than the page: a user who runs one model, looks at its run
// page (or reloads) and comes back to run another gets the same seed, so both runs ask the same
// items in the same order and Compare pairs every item. A new tab draws a new seed; the user can
// type any seed (another run's) or re-roll.
import { isSamplingSeed, randomSamplingSeed } from '../../lib/core/protocols/run-sampling.ts';

type Choice = { draw: 'random' | 'first'; seed: number };
const KEY = 'jiangu:sample-choice';

function stored(): Choice | null {
  try {
    const value = JSON.parse(sessionStorage.getItem(KEY) ?? 'null') as Partial<Choice> | null;
    return value && (value.draw === 'random' || value.draw === 'first') && isSamplingSeed(value.seed) ? { draw: value.draw, seed: value.seed } : null;
  } catch {
    // No sessionStorage (a sandboxed frame) or an unreadable value: a fresh choice.
    return null;
  }
}

export const sampleChoice = $state<Choice>(stored() ?? { draw: 'random', seed: randomSamplingSeed() });

/** Keeps the choice for this tab (called whenever it changes). */
export function rememberSampleChoice(choice: Choice): void {
  try {
    sessionStorage.setItem(KEY, JSON.stringify({ draw: choice.draw, seed: choice.seed }));
  } catch {
    // Not kept: the next reload draws another seed, which the page shows.
  }
}
