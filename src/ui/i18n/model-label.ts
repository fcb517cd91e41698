// How a model is named everywhere on the site (run list, run page, Compare), in either language.
// Pure (no Svelte state), so Node tests and language-free code can use it; names.ts picks the
// interface language.
import type { ModelSource } from '../../lib/core/models/model-types.ts';
import type { Locale } from './choose.ts';

/**
 * Whether the source is one of the test models this site ships (`jiangu-*`, made by
 * scripts/fixtures with random weights): they check the pipeline, their scores mean nothing.
 */
export function isFixtureModel(source: ModelSource): boolean {
  return source.kind === 'site' && source.name.startsWith('jiangu-');
}

/** The model's id as data: the hub id with its revision (and a host other than the hub), or the site's folder name. */
export function modelId(source: ModelSource): string {
  if (source.kind === 'site') return source.name;
  const id = `${source.id}${source.revision ? `@${source.revision}` : ''}`;
  return source.host ? `${id} (${source.host})` : id;
}

/** The model as a reader would name it in `lang`: its id, and for the site's own folders what they are. */
export function modelLabel(source: ModelSource, lang: Locale): string {
  const id = modelId(source);
  if (source.kind === 'hub') return id;
  if (isFixtureModel(source)) return lang === 'zh' ? `${id}（测试模型，随机权重）` : `${id} (test model, random weights)`;
  // Converted by scripts/fixtures from llama2.c's 260K-parameter TinyStories checkpoint: trained, but on
  // English children's stories, so it reads classical Chinese only as UTF-8 bytes.
  if (source.name === 'stories260k') return lang === 'zh' ? `${id}（测试模型，英文童话训练）` : `${id} (test model, trained on English stories)`;
  return lang === 'zh' ? `${id}（本站模型）` : `${id} (this site's model)`;
}
