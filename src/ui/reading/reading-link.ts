// The reading page's share link (issue 37): `#/reading/<query>`, the view, the passage, the model and
// its dtype, and the 断句 threshold, so a teacher's link opens the same view on the same passage. A
// link never loads a model by itself: the page shows the link's model chosen, and the class presses
// Load (a hub model from the hub; a site model from this site). A link carries no host: a mirror is
// the reader's own setting (hosts.ts), so a link cannot make the page contact a host nobody chose.
import type { Dtype, ModelSource } from '../../lib/core/models/model-types.ts';
import { DTYPES } from '../../lib/engine/messages.ts';

export type ReadingViewId = 'tokens' | 'breaks' | 'lens' | 'sampling';
export const READING_VIEWS: readonly ReadingViewId[] = ['tokens', 'breaks', 'lens', 'sampling'];

/** The sampling view's settings (core/reading/sampling.ts). */
export interface SamplingSetting {
  temperature: number;
  topK: number;
  seed: number;
  maxNewTokens: number;
}

export const DEFAULT_SAMPLING: SamplingSetting = { temperature: 0.8, topK: 40, seed: 1, maxNewTokens: 32 };
/** The most tokens the page asks a continuation for: a class reads a sentence or two. */
export const MAX_SAMPLED_TOKENS = 256;

export interface ReadingLink {
  view: ReadingViewId;
  text: string;
  model: ModelSource | null;
  dtype: Dtype | null;
  /** A second model read side by side. */
  model2?: ModelSource | null;
  dtype2?: Dtype | null;
  threshold: number | null;
  sampling?: SamplingSetting | null;
}

/** A passage longer than this is not put in a link (the page says so and offers no link). */
export const LINK_TEXT_LIMIT = 2_000;

const MODEL_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,95}$/;
const HUB_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,95}\/[A-Za-z0-9][A-Za-z0-9._-]{0,95}$/;

function modelParam(source: ModelSource): string | null {
  if (source.kind === 'site') return `site:${source.name}`;
  if (source.kind === 'hub' && !source.host) return `hub:${source.id}`;
  return null;
}

/** The fragment for a link, or null when the passage is too long or the model cannot be named in one. */
export function readingHash(link: ReadingLink): string | null {
  if ([...link.text].length > LINK_TEXT_LIMIT) return null;
  const query = new URLSearchParams({ view: link.view, text: link.text });
  for (const [key, source, dtype] of [['', link.model, link.dtype], ['2', link.model2, link.dtype2]] as const) {
    if (!source) continue;
    const model = modelParam(source);
    if (model === null) return null;
    query.set(`model${key}`, model);
    if (dtype) query.set(`dtype${key}`, dtype);
  }
  if (link.threshold !== null) query.set('threshold', String(link.threshold));
  if (link.sampling) {
    query.set('t', String(link.sampling.temperature));
    query.set('k', String(link.sampling.topK));
    query.set('seed', String(link.sampling.seed));
    query.set('n', String(link.sampling.maxNewTokens));
  }
  return `#/reading/${encodeURIComponent(query.toString())}`;
}

/** Whether a setting is one the page's controls can make. */
export function samplingInRange(s: SamplingSetting): boolean {
  return (
    Number.isFinite(s.temperature) && s.temperature >= 0 && s.temperature <= 2 &&
    Number.isInteger(s.topK) && s.topK >= 0 && s.topK <= 1000 &&
    Number.isInteger(s.seed) && s.seed >= 0 && s.seed <= 0xffffffff &&
    Number.isInteger(s.maxNewTokens) && s.maxNewTokens >= 1 && s.maxNewTokens <= MAX_SAMPLED_TOKENS
  );
}

function sourceOf(model: string | null): ModelSource | null {
  if (model?.startsWith('site:') && MODEL_NAME.test(model.slice(5))) return { kind: 'site', name: model.slice(5) };
  if (model?.startsWith('hub:') && HUB_ID.test(model.slice(4))) return { kind: 'hub', id: model.slice(4), revision: 'main' };
  return null;
}

const dtypeOf = (dtype: string | null): Dtype | null => (dtype && (DTYPES as readonly string[]).includes(dtype) ? (dtype as Dtype) : null);

/** What a link asks for, each part checked; a part that is not valid is left out, never guessed. */
export function parseReadingParam(param: string | null): Partial<ReadingLink> {
  if (!param) return {};
  const query = new URLSearchParams(param);
  const out: Partial<ReadingLink> = {};
  const view = query.get('view');
  if (view && (READING_VIEWS as readonly string[]).includes(view)) out.view = view as ReadingViewId;
  const text = query.get('text');
  if (text !== null && [...text].length <= LINK_TEXT_LIMIT) out.text = text;
  out.model = sourceOf(query.get('model'));
  out.dtype = dtypeOf(query.get('dtype'));
  out.model2 = sourceOf(query.get('model2'));
  out.dtype2 = dtypeOf(query.get('dtype2'));
  const threshold = Number(query.get('threshold'));
  if (query.has('threshold') && Number.isFinite(threshold) && threshold > 0 && threshold < 1) out.threshold = threshold;
  if (query.has('seed')) {
    const sampling = { temperature: Number(query.get('t')), topK: Number(query.get('k')), seed: Number(query.get('seed')), maxNewTokens: Number(query.get('n')) };
    // Each setting within what the page's own controls allow; a link with any other is not followed in part.
    if (samplingInRange(sampling)) out.sampling = sampling;
  }
  return out;
}
