// The protocols room: prompt templates as data, the prompt builder, template hashes, and the pure
// checks and scoring rule for option letters.
export * from './mc-protocols.ts';
export * from './template-hash.ts';
export * from './build-prompt.ts';
export * from './build-cloze.ts';
export * from './encode-pair.ts';
export * from './letter-tokens.ts';
export * from './mc-scoring.ts';
export { OPTION_LETTERS, formatQuestion, zeroShotPrompt, type MultipleChoiceQuestion } from './multiple-choice.ts';
export * from './generation.ts';
export * from './context-limit.ts';
export * from './decoding.ts';
export * from './chat-template.ts';
