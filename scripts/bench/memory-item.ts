// The memory bench's 5-shot item: the first CMMLU 古汉语 test item with the task's five dev items
// as exemplars, read from ../shared/data (never copied into the project); without that folder, the
// first item of the AncientBench sample the site ships (the same CMMLU layout).
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { adaptDataset } from '../../src/lib/core/benchmarks/adapters/index.ts';
import { getDataset } from '../../src/lib/core/benchmarks/catalog.ts';
import type { MultipleChoiceItem } from '../../src/lib/core/benchmarks/types.ts';
import type { McProtocolId } from '../../src/lib/core/protocols/mc-protocols.ts';
import { projectRoot } from '../site-routes.ts';
import { loadSampleItems, SAMPLE_PATH } from './mc-items.ts';

export interface FiveShotItem {
  protocolId: McProtocolId;
  item: MultipleChoiceItem;
  exemplars: MultipleChoiceItem[];
  /** Where it came from, for the report. */
  source: string;
}

const SHARED_DATA = resolve(projectRoot, '../shared/data');

export function fiveShotItem(): FiveShotItem {
  const dataset = getDataset('cmmlu-ancient');
  const folder = join(SHARED_DATA, dataset.mirrorFolder);
  if (existsSync(folder)) {
    const files = dataset.files.map((file) => {
      const bytes = readFileSync(join(folder, file.path));
      return { path: file.path, bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) };
    });
    const mc = adaptDataset('cmmlu-ancient', files).items.filter((i): i is MultipleChoiceItem => i.kind === 'multiple-choice');
    const dev = mc.filter((i) => i.split === 'dev').sort((a, b) => a.order - b.order);
    const test = mc.filter((i) => i.split === 'test').sort((a, b) => a.order - b.order);
    if (test.length > 0 && dev.length >= 5) return { protocolId: 'cmmlu', item: test[0], exemplars: dev, source: `CMMLU 古汉语 ${test[0].id} (../shared/data)` };
  }
  const sample = loadSampleItems();
  const item = sample.items.find((i) => (sample.exemplars[i.task]?.length ?? 0) >= 5);
  if (!item) throw new Error(`No test item with five dev exemplars in ${SAMPLE_PATH}`);
  return { protocolId: 'ancientbench', item, exemplars: sample.exemplars[item.task], source: `AncientBench sample ${item.id} (${SAMPLE_PATH}; ../shared/data is absent)` };
}
