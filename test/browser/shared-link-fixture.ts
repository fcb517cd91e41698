// A share link made in Node for a run that never ran: a fabricated multiple-choice run over the
// first items of the CMMLU 古汉语 test split (read from ../shared/data), with predictions cycling
// A, B, C, D. It lets a browser test open a link over a catalog dataset the fresh context has to
// download (through the local mirror), and know every row it should show.
import { adaptDataset } from '../../src/lib/core/benchmarks/adapters/index.ts';
import { getDataset } from '../../src/lib/core/benchmarks/catalog.ts';
import type { MultipleChoiceItem, OptionLetter } from '../../src/lib/core/benchmarks/types.ts';
import { mcSummary } from '../../src/lib/core/metrics/run-summary.ts';
import { fabricatedMcRun } from '../../scripts/fixtures/fabricated-run.ts';
import { encodeShareLink } from '../../src/lib/core/formats/share-link/share-link.ts';
import { deflateRaw, frame, fromBase64Url, inflateRaw, toBase64Url, unframe } from '../../src/lib/core/formats/share-link/share-bytes.ts';
import { readCatalogFiles, SHARED_DATA } from '../unit/benchmarks/shared-data.ts';

export interface FabricatedLink {
  payload: string;
  /** The link's rows as the page must show them. */
  rows: { itemId: string; prediction: OptionLetter; gold: OptionLetter | null; correct: boolean | null }[];
}

/**
 * `hostile`: a string with markup put in the model id and a task name. `modelHost`: a hub model
 * served from that host (a link that names its own model host).
 */
export async function fabricatedCmmluLink(count: number, options: { tamperSummary?: boolean; hostile?: string; modelHost?: string } = {}): Promise<FabricatedLink> {
  const datasetId = 'cmmlu-ancient' as const;
  const items = adaptDataset(datasetId, readCatalogFiles(SHARED_DATA, datasetId))
    .items.filter((item): item is MultipleChoiceItem => item.kind === 'multiple-choice' && item.split === 'test')
    .slice(0, count);
  const letters: OptionLetter[] = ['A', 'B', 'C', 'D'];
  const { run, results } = await fabricatedMcRun({
    id: 'fabricated',
    datasetId,
    model: {
      source: options.hostile
        ? { kind: 'hub', id: options.hostile }
        : options.modelHost
          ? { kind: 'hub', id: 'fixture/jiangu-tiny', revision: 'main', host: options.modelHost }
          : { kind: 'site', name: 'jiangu-tiny' },
      dtype: 'fp32',
      backend: 'wasm',
    },
    tasks: ['ancient_chinese'],
    datasetFiles: getDataset(datasetId).files.map((f) => ({ path: f.path, sha256: f.sha256! })),
    limitPerTask: count,
    items: items.map((item, index) => ({ id: item.id, task: item.task, gold: item.answer, prediction: letters[index % 4] })),
    createdAt: '2026-11-30T12:00:00.000Z',
  });
  const summary = mcSummary(datasetId, results);
  if (options.tamperSummary) summary.overall = (summary.overall ?? 0) + 10;
  // A summary's keys are a run summary's (share-check.ts): markup goes where a link has free text, the app version.
  if (options.hostile) run.config.appVersion = options.hostile;
  return {
    payload: await encodeShareLink(run, results, summary),
    rows: results.map((r) => ({ itemId: r.itemId, prediction: r.prediction!, gold: r.gold, correct: r.correct })),
  };
}

/** One malformed link of each kind the issue lists, with the message the page must give. */
export async function malformedLinks(): Promise<{ what: string; payload: string; message: RegExp }[]> {
  const { payload } = await fabricatedCmmluLink(4);
  const bytes = fromBase64Url(payload);
  const { version, header, packed } = unframe(await inflateRaw(bytes, 1 << 20), 1 << 20);
  const json = JSON.parse(new TextDecoder().decode(header)) as { config: Record<string, unknown> };
  const craft = async (headerText: string, v = version) => toBase64Url(await deflateRaw(frame(v, new TextEncoder().encode(headerText), packed)));
  return [
    { what: 'malformed base64', payload: 'abc$def', message: /not valid base64url/ },
    { what: 'malformed deflate', payload: toBase64Url(bytes.subarray(0, bytes.length >> 1)), message: /not valid deflate data/ },
    { what: 'a header that is not JSON', payload: await craft('{"kind": "multiple-choice", '), message: /not valid UTF-8 JSON/ },
    { what: 'a wrong type', payload: await craft(JSON.stringify({ ...json, config: { ...json.config, shots: '5' } })), message: /`config\.shots` is the string "5"/ },
    { what: 'an oversized field', payload: await craft(JSON.stringify({ ...json, config: { ...json.config, appVersion: 'x'.repeat(501) } })), message: /`config\.appVersion` is 501 characters long/ },
    { what: 'an unknown version', payload: await craft(new TextDecoder().decode(header), 2), message: /format version 2; this page reads version 1 only/ },
    { what: 'a deflate bomb', payload: toBase64Url(await deflateRaw(new Uint8Array(10_000_000))), message: /inflates to more than/ },
    // A `%` not followed by two hex digits used to throw URIError in the router: nothing rendered.
    { what: 'a stray percent sign', payload: `${payload.slice(0, 20)}%zz${payload.slice(23)}`, message: /not valid base64url: character "%"/ },
    // A createdAt that is no date used to pass, then throw in the date formatter: "Opening the link…" forever.
    { what: 'a createdAt that is not a date', payload: await craft(JSON.stringify({ ...json, createdAt: 'yesterday' })), message: /`createdAt` is the string "yesterday"; expected an ISO date/ },
  ];
}
