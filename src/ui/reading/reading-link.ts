// The Reading page's link (issue 37; a lesson link since issue 45): `#/reading/<query>`, one
// URLSearchParams string (percent-encoded once), so a teacher's link opens the same view on the same
// passage with the same positions and settings on every student's screen. A link never loads a model
// by itself: the page shows the link's model chosen, and the class presses Load (a hub model from the
// hub; a site model from this site). A link carries no host: a mirror is the reader's own setting
// (hosts.ts), so a link cannot make the page contact a host nobody chose.
//
// What a link asks for and the page cannot take (a passage over the limit, a model it cannot name, a
// setting out of range) is never replaced by a default in silence: parseReadingLink lists each such
// part with its reason, and the page says so, so a class never sees another passage or continuation
// than the teacher's without being told.
import type { Dtype, ModelSource } from '../../lib/core/models/model-types.ts';
import { DTYPES } from '../../lib/engine/messages.ts';

export type ReadingViewId = 'tokens' | 'breaks' | 'lens' | 'attention' | 'predict' | 'sampling';
export const READING_VIEWS: readonly ReadingViewId[] = ['tokens', 'predict', 'breaks', 'lens', 'attention', 'sampling'];

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
/** The text sizes the page offers, in percent of the page's own (a projector wants 150–250). */
export const TEXT_SIZES: readonly number[] = [100, 125, 150, 175, 200, 250, 300];
/** The most positions a lesson asks the class to predict. */
export const MAX_PREDICT_POSITIONS = 50;

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
  /** The chosen character (0-based) whose token the tokens, lens and attention views open on. */
  at?: number | null;
  /** Predict before reveal: the class sees the first k characters and guesses the next, for each k. */
  ask?: number[] | null;
  /** Text size in percent (TEXT_SIZES). */
  size?: number | null;
  /** The temperature dial's setting (0–2). */
  temperature?: number | null;
  /** The attention view's head (0-based), or null for the heads averaged. */
  head?: number | null;
  /** The attention view's chosen token (0-based, in the model's own tokens: the first model's). */
  token?: number | null;
}

/** A passage longer than this is not put in a link (the page says so and offers no link). */
export const LINK_TEXT_LIMIT = 2_000;

/** A part of a link the page did not take, and why (the page words it). */
export interface DroppedPart {
  part: 'view' | 'text' | 'model' | 'dtype' | 'model2' | 'dtype2' | 'threshold' | 'sampling' | 'at' | 'ask' | 'size' | 'temperature' | 'head' | 'token';
  reason: 'too-long' | 'not-a-model' | 'unknown' | 'out-of-range';
  /** What the link said, cut to 40 characters. */
  value: string;
}

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
  if (link.at !== undefined && link.at !== null) query.set('at', String(link.at));
  if (link.ask && link.ask.length > 0) query.set('ask', link.ask.join(','));
  if (link.size !== undefined && link.size !== null && link.size !== 100) query.set('size', String(link.size));
  if (link.temperature !== undefined && link.temperature !== null) query.set('temp', String(link.temperature));
  if (link.head !== undefined && link.head !== null) query.set('head', String(link.head));
  if (link.token !== undefined && link.token !== null) query.set('token', String(link.token));
  return `#/reading/${query.toString()}`;
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

function sourceOf(model: string): ModelSource | null {
  if (model.startsWith('site:') && MODEL_NAME.test(model.slice(5))) return { kind: 'site', name: model.slice(5) };
  if (model.startsWith('hub:') && HUB_ID.test(model.slice(4))) return { kind: 'hub', id: model.slice(4), revision: 'main' };
  return null;
}

const isDtype = (dtype: string): dtype is Dtype => (DTYPES as readonly string[]).includes(dtype);
const cut = (value: string) => ([...value].length > 40 ? `${[...value].slice(0, 40).join('')}…` : value);
const wholeIn = (x: number, lo: number, hi: number) => Number.isInteger(x) && x >= lo && x <= hi;

/**
 * The query of a reading link, from the fragment as it stands after `#/reading/` (not decoded: the
 * query decodes itself). Links made before issue 45 encoded the query twice (`view%3Dtokens%26…`):
 * such a fragment, with no `=` of its own, is decoded once first.
 */
export function readingQuery(raw: string | null): URLSearchParams | null {
  if (!raw) return null;
  let query = raw;
  if (!query.includes('=') && /%3D/i.test(query)) {
    try {
      query = decodeURIComponent(query);
    } catch {
      /* left as it is: the parts it holds are then dropped with their reasons */
    }
  }
  return new URLSearchParams(query);
}

/** What a link asks for, each part checked; a part that is not valid is left out and listed in `dropped`, never guessed. */
export function parseReadingLink(raw: string | null): { link: Partial<ReadingLink>; dropped: DroppedPart[] } {
  const query = readingQuery(raw);
  const link: Partial<ReadingLink> = {};
  const dropped: DroppedPart[] = [];
  if (!query) return { link, dropped };
  const drop = (part: DroppedPart['part'], reason: DroppedPart['reason'], value: string) => dropped.push({ part, reason, value: cut(value) });
  const view = query.get('view');
  if (view !== null) {
    if ((READING_VIEWS as readonly string[]).includes(view)) link.view = view as ReadingViewId;
    else drop('view', 'unknown', view);
  }
  const text = query.get('text');
  if (text !== null) {
    if ([...text].length <= LINK_TEXT_LIMIT) link.text = text;
    else drop('text', 'too-long', text);
  }
  for (const key of ['', '2'] as const) {
    const model = query.get(`model${key}`);
    if (model !== null) {
      const source = sourceOf(model);
      if (source) link[`model${key}`] = source;
      else drop(`model${key}`, 'not-a-model', model);
    }
    const dtype = query.get(`dtype${key}`);
    if (dtype !== null) {
      if (isDtype(dtype)) link[`dtype${key}`] = dtype;
      else drop(`dtype${key}`, 'unknown', dtype);
    }
  }
  if (query.has('threshold')) {
    const value = query.get('threshold') ?? '';
    const threshold = Number(value);
    if (value !== '' && Number.isFinite(threshold) && threshold > 0 && threshold < 1) link.threshold = threshold;
    else drop('threshold', 'out-of-range', value);
  }
  if (query.has('seed') || query.has('t') || query.has('k') || query.has('n')) {
    const num = (key: string) => (query.get(key) === null || query.get(key) === '' ? Number.NaN : Number(query.get(key)));
    const sampling = { temperature: num('t'), topK: num('k'), seed: num('seed'), maxNewTokens: num('n') };
    // Each setting within what the page's own controls allow; a link with any other is not followed in part.
    if (samplingInRange(sampling)) link.sampling = sampling;
    else drop('sampling', 'out-of-range', `t=${query.get('t')} k=${query.get('k')} seed=${query.get('seed')} n=${query.get('n')}`);
  }
  const whole = (part: 'at' | 'size' | 'head' | 'token', key: string, ok: (x: number) => boolean) => {
    const value = query.get(key);
    if (value === null) return;
    const x = value === '' ? Number.NaN : Number(value);
    if (ok(x)) link[part] = x;
    else drop(part, 'out-of-range', value);
  };
  whole('at', 'at', (x) => wholeIn(x, 0, LINK_TEXT_LIMIT - 1));
  whole('size', 'size', (x) => TEXT_SIZES.includes(x));
  whole('head', 'head', (x) => wholeIn(x, 0, 255));
  whole('token', 'token', (x) => wholeIn(x, 0, 4 * LINK_TEXT_LIMIT));
  const temperature = query.get('temp');
  if (temperature !== null) {
    const x = temperature === '' ? Number.NaN : Number(temperature);
    if (Number.isFinite(x) && x >= 0 && x <= 2) link.temperature = x;
    else drop('temperature', 'out-of-range', temperature);
  }
  const ask = query.get('ask');
  if (ask !== null) {
    const positions = ask.split(',').map((s) => (s.trim() === '' ? Number.NaN : Number(s)));
    if (positions.length <= MAX_PREDICT_POSITIONS && positions.every((x) => wholeIn(x, 1, LINK_TEXT_LIMIT - 1))) link.ask = [...new Set(positions)].sort((a, b) => a - b);
    else drop('ask', 'out-of-range', ask);
  }
  return { link, dropped };
}
