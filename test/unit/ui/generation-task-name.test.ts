import { describe, expect, it } from 'vitest';
import { generationTaskName } from '../../../src/ui/data/generation-task-name.ts';
import type { GenerationTask } from '../../../src/lib/core/benchmarks/types.ts';

describe('generationTaskName', () => {
  it('keeps the scoring kind in English (the C3Bench mapping preview is matched on it)', () => {
    const kinds: GenerationTask[] = ['classification', 'retrieval', 'ner', 'punctuation', 'translation'];
    for (const kind of kinds) expect(generationTaskName(kind, 'en')).toBe(kind);
  });

  it('names each kind in Chinese', () => {
    expect(generationTaskName('classification', 'zh')).toBe('分类');
    expect(generationTaskName('retrieval', 'zh')).toBe('出处检索');
    expect(generationTaskName('ner', 'zh')).toBe('命名实体识别');
    expect(generationTaskName('punctuation', 'zh')).toBe('句读');
    expect(generationTaskName('translation', 'zh')).toBe('翻译');
  });
});
