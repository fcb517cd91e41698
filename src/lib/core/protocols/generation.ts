// The C3Bench generation protocol: the paper's fixed Chinese prompts (Table 4), one per task, with
// [文言文] replaced by the item's text. WenMind's five matching tasks use it too; its 白文翻译 runs
// modern → classical, so it gets the mirrored translation prompt, and its classification lists
// WenMind's own labels (the references use them).
import { findTask } from '../benchmarks/catalog.ts';
import { C3_CATEGORIES } from '../benchmarks/catalog-tasks.ts';
import type { GenerationItem, GenerationTask } from '../benchmarks/types.ts';
import { sha256Hex, type TemplateHashOptions } from './template-hash.ts';
import { CHAT_TEMPLATE_RULE } from './chat-template.ts';

export type GenerationPromptKey = GenerationTask | 'translation-to-classical';

export interface GenerationProtocol {
  id: 'c3bench';
  version: number;
  /** `{text}` is the item's input; `{labels}` the task's category labels joined by 、. */
  prompts: Readonly<Record<GenerationPromptKey, string>>;
  labelSeparator: string;
  /** The prompt is the user turn of the model's chat template when the run asks for it (the paper's setup), else the raw prompt. */
  chatTemplate: 'optional';
}

export const C3BENCH_PROTOCOL: GenerationProtocol = {
  id: 'c3bench',
  version: 1,
  prompts: {
    classification: '不需要解释，直接从“{labels}”中选择一个类别输出，判断下列文言文的类别：{text}',
    retrieval: '不需要解释，直接给出下列文言文出处书名：{text}',
    ner: '找出下列文言文中的命名实体。若无实体，输出“无”；若有实体，直接输出实体，多个实体之间用“、”分隔：{text}',
    punctuation: '不需要解释，直接输出下列文言文添加标点符号后的结果：{text}',
    translation: '不需要解释，直接输出下列文言文的白话文翻译：{text}',
    // Not in the paper (C3Bench translates one way only): WenMind's 白文翻译, mirrored.
    'translation-to-classical': '不需要解释，直接输出下列白话文的文言文翻译：{text}',
  },
  labelSeparator: '、',
  chatTemplate: 'optional',
};

/** The label set a classification item is judged against: its task's labels, else C3Bench's ten. */
export function classificationLabels(item: Pick<GenerationItem, 'datasetId' | 'task'>): readonly string[] {
  return findTask(item.datasetId, item.task)?.labels ?? C3_CATEGORIES;
}

export function promptKeyFor(item: Pick<GenerationItem, 'datasetId' | 'task' | 'generationTask'>): GenerationPromptKey {
  const direction = findTask(item.datasetId, item.task)?.direction;
  return item.generationTask === 'translation' && direction === 'modern-to-classical' ? 'translation-to-classical' : item.generationTask;
}

export function buildGenerationPrompt(item: GenerationItem, protocol: GenerationProtocol = C3BENCH_PROTOCOL): string {
  const template = protocol.prompts[promptKeyFor(item)];
  return template.replace('{labels}', classificationLabels(item).join(protocol.labelSeparator)).replace('{text}', item.input);
}

/** Every string and rule that shapes a generation prompt, in a fixed order, for the hash. */
export function generationTemplateText(protocol: GenerationProtocol = C3BENCH_PROTOCOL, options: TemplateHashOptions = {}): string {
  const keys = Object.keys(protocol.prompts).sort() as GenerationPromptKey[];
  return [
    `id=${protocol.id}`,
    `version=${protocol.version}`,
    `labelSeparator=${protocol.labelSeparator}`,
    `chatTemplate=${protocol.chatTemplate}`,
    `defaultLabels=${C3_CATEGORIES.join(',')}`,
    ...keys.map((key) => `prompt.${key}=${protocol.prompts[key]}`),
    ...(options.chatTemplate ? [CHAT_TEMPLATE_RULE] : []),
  ].join('\n');
}

export async function generationTemplateHash(protocol: GenerationProtocol = C3BENCH_PROTOCOL, options: TemplateHashOptions = {}): Promise<string> {
  return sha256Hex(generationTemplateText(protocol, options));
}
