// A p-value as the pages print it: always with its "p", three decimals, and "p < 0.001" below that
// (three decimals would print 0.000, which reads as an impossible exact zero).
import { fmt } from './locale.svelte.ts';

export function pValueText(p: number): string {
  return p < 0.001 ? 'p < 0.001' : `p = ${fmt.number(p, 3)}`;
}
