// The reading page's share link (issue 37): `#/reading/<query>`, the view, the passage, the model and
// its dtype, and the 断句 threshold, so a teacher's link opens the same view on the same passage. A
// link never loads a model by itself: the page shows the link's model chosen, and the class presses
// Load (a hub model from the hub; a site model from this site). A link carries no host: a mirror is
// the reader's own setting (hosts.ts), so a link cannot make the page contact a host nobody chose.
import type { Dtype, ModelSource } from '../../lib/core/models/model-types.ts';
import { DTYPES } from '../../lib/engine/messages.ts';

export type ReadingViewId = 'tokens' | 'breaks';
export const READING_VIEWS: readonly ReadingViewId[] = ['tokens', 'breaks'];

export interface ReadingLink {
  view: ReadingViewId;
  text: string;
  model: ModelSource | null;
  dtype: Dtype | null;
  /** A second model read side by side. */
  model2?: ModelSource | null;
  dtype2?: Dtype | null;
  threshold: number | null;
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
  return `#/reading/${encodeURIComponent(query.toString())}`;
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
  return out;
}
