// The memory check's sentences (memory-check.svelte.ts) in the interface language: the note beside a
// load and the question before one that will likely fail. Numbers go through the interface's format.
import { loadFactor, RUNTIME_BYTES } from '../../lib/engine/memory-need.ts';
import type { Dtype } from '../../lib/core/models/model-types.ts';
import type { MemoryEstimate } from './memory-check.svelte.ts';
import { byteSize } from '../data/byte-size.ts';
import { fmt, t } from '../i18n/locale.svelte.ts';
import { modelName } from '../i18n/names.ts';

const size = (bytes: number) => byteSize(bytes, fmt.number);
/** What navigator.deviceMemory said, as a size ("2 GB", "0.5 GB"). */
const deviceSize = (gib: number) => `${fmt.number(gib)} GB`;

/** How the need is made up: the files × the dtype's load factor + RUNTIME_BYTES. */
function needParts(files: number, dtype: Dtype): string {
  const factor = loadFactor(dtype);
  return t(
    `its files, ${size(files)}, × ${fmt.number(factor, 1)} for ${dtype}, + ${size(RUNTIME_BYTES)} for the page and runtime`,
    `文件 ${size(files)} × ${fmt.number(factor, 1)}（${dtype}），另加页面与运行时 ${size(RUNTIME_BYTES)}`,
  );
}

/** The note beside a load: what it needs and what the device reports, or why either is not known. */
export function memoryNote(e: MemoryEstimate, pageBytes: number | null): string {
  const v = e.verdict;
  const files = e.files?.bytes ?? 0;
  let text: string;
  if (v.kind === 'size-unknown') {
    text = t(
      `Memory: the size of the model’s files could not be read before the download, so what the load needs is not known${v.deviceGiB === null ? '; this browser does not report the device’s memory either' : `; this device reports ${deviceSize(v.deviceGiB)}`}.`,
      `内存：下载前无法读取模型文件的大小，因此不知道加载需要多少内存${v.deviceGiB === null ? '；此浏览器也不报告设备内存' : `；此设备报告的内存为 ${deviceSize(v.deviceGiB)}`}。`,
    );
  } else if (v.kind === 'device-unknown') {
    text = t(
      `Memory: this load needs about ${size(v.need)} (${needParts(files, e.dtype)}). This browser does not report the device’s memory, so whether it fits cannot be told; the load goes ahead.`,
      `内存：此次加载约需 ${size(v.need)}（${needParts(files, e.dtype)}）。此浏览器不报告设备内存，无法判断是否放得下；照常加载。`,
    );
  } else {
    const head = t(
      `Memory: this load needs about ${size(v.need)} (${needParts(files, e.dtype)}); this device reports ${deviceSize(v.deviceGiB)}, about ${size(v.room)} of it for this tab`,
      `内存：此次加载约需 ${size(v.need)}（${needParts(files, e.dtype)}）；此设备报告的内存为 ${deviceSize(v.deviceGiB)}，其中约 ${size(v.room)} 可供此标签页使用`,
    );
    const tail = v.kind === 'fits' ? t('.', '。') : e.agreed ? t(': more than that, loaded anyway as you chose.', '：超出了，按你的选择仍然加载。') : t(': more than that.', '：超出了。');
    text = head + tail;
  }
  // Measured some seconds after it was asked (memory-check.svelte.ts), so said as the last measurement, not as now.
  if (pageBytes !== null) text += t(` When the browser last measured it, this page used ${size(pageBytes)}.`, `浏览器上次测量时，此页面占用 ${size(pageBytes)}。`);
  return text;
}

/** The question before a load that needs more than the device has room for (only for an `exceeds` verdict). */
export function memoryQuestion(e: MemoryEstimate): { title: string; body: string } {
  const v = e.verdict;
  if (v.kind !== 'exceeds') return { title: '', body: '' };
  const name = t(`${modelName(e.source)} (${e.dtype})`, `${modelName(e.source)}（${e.dtype}）`);
  const margin = v.deviceGiB * 1024 ** 3 - v.room;
  return {
    title: t(`This model needs about ${size(v.need)}; this device reports ${deviceSize(v.deviceGiB)}`, `此模型约需 ${size(v.need)} 内存；此设备报告 ${deviceSize(v.deviceGiB)}`),
    body: t(
      `Loading ${name} needs about ${size(v.need)} of memory (${needParts(e.files?.bytes ?? 0, e.dtype)}). This device reports ${deviceSize(v.deviceGiB)} (navigator.deviceMemory, which browsers round down, and some report at most 8 GB); leaving about ${size(margin)} for the system and the browser, about ${size(v.room)} is left for this tab. The load would likely fail, and the browser could close the tab. Nothing has been downloaded yet.`,
      `加载 ${name} 约需 ${size(v.need)} 内存（${needParts(e.files?.bytes ?? 0, e.dtype)}）。此设备报告的内存为 ${deviceSize(v.deviceGiB)}（navigator.deviceMemory：浏览器会向下取整，有的最多只报告 8 GB）；除去留给系统和浏览器的约 ${size(margin)}，此标签页约有 ${size(v.room)} 可用。加载很可能失败，浏览器也可能关闭此标签页。目前还没有下载任何文件。`,
    ),
  };
}
