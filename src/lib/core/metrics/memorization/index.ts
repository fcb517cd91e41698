// Memorization and contamination probes (issue 26): has the model seen the test? Min-K% Prob and
// Min-K%++ per item, their distributions and a two-model comparison, the exchangeability test per
// benchmark file, and what a share link carries of them. Every number here is relative or a test
// with a one-sided meaning; each file says what its number can and cannot show. Verbatim recall is
// the classroom's demonstration: how much of a passage's second half the model writes from its first.
export * from './min-k-prob.ts';
export * from './min-k-plus-plus.ts';
export * from './item-scores.ts';
export * from './score-summary.ts';
export * from './compare-min-k.ts';
export * from './exchangeability-plan.ts';
export * from './exchangeability-test.ts';
export * from './student-t.ts';
export * from './link-scores.ts';
export * from './probe-run-summary.ts';
export * from './verbatim-recall.ts';
