// The metrics room: the only place where a number a user sees is computed. Generation metrics (F1s,
// BLEU) join here.
export * from './accuracy.ts';
export * from './mc-aggregate.ts';
export * from './mc-tally.ts';
export * from './generation/index.ts';
export * from './generation-run.ts';
export * from './mc-unextracted.ts';
export * from './run-summary.ts';
export * from './classroom.ts';
export * from './calibration.ts';
export * from './compare.ts';
export * from './difference-intervals.ts';
export * from './goodness-of-fit.ts';
export * from './marginal-homogeneity.ts';
export * from './letter-bias.ts';
export * from './circular.ts';
export * from './pride.ts';
