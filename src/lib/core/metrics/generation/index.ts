// Generation metrics: the documented post-processing, then one scorer per C3Bench task
// (classification, retrieval, NER, punctuation, translation), the overall average, bootstrap
// intervals, and answer extraction for multiple choice by generation. Each task exports a per-item
// function (the inspector's view) and a corpus function (the numbers, with a signature).
export * from './types.ts';
export * from './postprocess.ts';
export * from './bootstrap.ts';
export * from './prf.ts';
export * from './classification.ts';
export * from './retrieval.ts';
export * from './ner.ts';
export * from './align.ts';
export * from './punctuation.ts';
export * from './bleu-tokenizer-zh.ts';
export * from './bleu.ts';
export * from './translation.ts';
export * from './overall.ts';
export * from './extract-choice.ts';
