// Messages of the export area ('export.*'): the lm-evaluation-harness export, in the page and in
// `npm run export:lm-eval`. Each in English and Chinese.
const q = (s: string): string => JSON.stringify(s);

export const exportNotices = {
  'export.bad-shots': {
    en: (p: { dataset: string; shots: string; max: number }) => `Export of ${p.dataset}: shots must be a whole number from 0 to ${p.max}, got ${q(p.shots)}.`,
    zh: (p: { dataset: string; shots: string; max: number }) => `导出 ${p.dataset}：示例数须为 0 到 ${p.max} 的整数，收到的是 ${q(p.shots)}。`,
  },
  'export.bad-max-new-tokens': {
    en: (p: { value: string }) => `The most new tokens to generate must be a whole number of at least 1, got ${q(p.value)}.`,
    zh: (p: { value: string }) => `最多生成词元数须为不小于 1 的整数，收到的是 ${q(p.value)}。`,
  },
  'export.worker-failed': {
    en: (p: { detail: string }) => `The export stopped in its background worker (${p.detail}); nothing was downloaded. Reload the page and try again.`,
    zh: (p: { detail: string }) => `导出在后台线程中停止了（${p.detail}）；没有下载任何内容。请刷新页面后重试。`,
  },
  'export.no-items': {
    en: (p: { dataset: string }) => `Export of ${p.dataset}: there are no test items to export. Import the dataset first (Data page).`,
    zh: (p: { dataset: string }) => `导出 ${p.dataset}：没有可导出的测试题目。请先在“数据”页导入该数据集。`,
  },
  'export.items-not-stored': {
    en: (p: { dataset: string; missing: number; first: string }) => `Export of ${p.dataset}: ${p.missing} of the chosen test items are not stored in this browser (the first: ${p.first}); nothing was exported. Download the dataset again (Data page), or export from a run made on the stored copy.`,
    zh: (p: { dataset: string; missing: number; first: string }) => `导出 ${p.dataset}：所选测试题中有 ${p.missing} 道未存于本浏览器（第一道：${p.first}），未导出任何内容。请在“数据”页重新下载该数据集，或从用当前存储副本做的评测导出。`,
  },
  /** A stopped run's export (issue 44): its stop point is not inside its planned order. */
  'export.stop-point': {
    en: (p: { dataset: string; asked: number; planned: number }) => `Export of ${p.dataset}: the run says it stopped after ${p.asked} of its ${p.planned} planned items, which is no stop inside its plan; nothing was exported.`,
    zh: (p: { dataset: string; asked: number; planned: number }) => `导出 ${p.dataset}：这次评测自称在计划的 ${p.planned} 道题中做完 ${p.asked} 道后停止，这不是计划之内的停止点；未导出任何内容。`,
  },
  /** A stopped run's order is not what its sampling draws from the stored items, so the import could not find its plan again. */
  'export.stop-not-drawn': {
    en: (p: { dataset: string; index: number; found: string; drawn: string }) =>
      `Export of ${p.dataset}: the stopped run's items are not what its sample draws from the items stored in this browser (the first difference at item ${p.index}: ${q(p.found)}, drawn ${q(p.drawn)}), so the harness's results could not be read back as this run; nothing was exported. Download the dataset again (Data page), the copy the run was made on.`,
    zh: (p: { dataset: string; index: number; found: string; drawn: string }) =>
      `导出 ${p.dataset}：这次中途停止的评测的题目，与其样本从本浏览器所存题目中抽出的不同（第一处不同在第 ${p.index} 项：${q(p.found)}，应为 ${q(p.drawn)}），lm-eval 的结果将无法读回为这次评测；未导出任何内容。请在“数据”页重新下载该评测所用的数据集副本。`,
  },
  'export.unknown-dataset': {
    en: (p: { dataset: string; known: readonly string[] }) => `Unknown dataset ${q(p.dataset)}: the export knows ${p.known.join(', ')}.`,
    zh: (p: { dataset: string; known: readonly string[] }) => `未知的数据集 ${q(p.dataset)}：可导出的数据集有 ${p.known.join('、')}。`,
  },
  'export.missing-file': {
    en: (p: { dataset: string; path: string }) => `Export of ${p.dataset}: the data file ${q(p.path)} is missing. Point --data at a folder laid out like ../shared/data.`,
    zh: (p: { dataset: string; path: string }) => `导出 ${p.dataset}：缺少数据文件 ${q(p.path)}。请用 --data 指向与 ../shared/data 结构相同的文件夹。`,
  },
  'export.missing-own-file': {
    en: (p: { dataset: string; path: string }) => `Export of ${p.dataset}: the file ${q(p.path)} does not exist. Give your own file with --file <csv or jsonl>, or leave --file out to export the project's sample.`,
    zh: (p: { dataset: string; path: string }) => `导出 ${p.dataset}：文件 ${q(p.path)} 不存在。请用 --file <csv 或 jsonl> 指定你自己的文件，或省略 --file 以导出本项目的示例。`,
  },
  'export.out-not-empty': {
    en: (p: { path: string }) => `The output folder ${q(p.path)} exists and is not empty: nothing was written. Choose a new folder or empty this one.`,
    zh: (p: { path: string }) => `输出文件夹 ${q(p.path)} 已存在且不为空：未写入任何文件。请换一个新文件夹或先清空它。`,
  },
  'export.cloze-circular': {
    en: (p: { dataset: string }) =>
      `Export of ${p.dataset}: circular evaluation and option-text (cloze) scoring do not go together: a cloze context never shows the lettered options, so every rotation would score the same. Export one or the other.`,
    zh: (p: { dataset: string }) => `导出 ${p.dataset}：循环评测不能与选项文本（完形）评分同用：完形的上下文不给模型看带字母的选项，每种轮换的得分都一样。请二者择一导出。`,
  },
  'export.cloze-no-mc': {
    en: (p: { dataset: string }) => `Export of ${p.dataset}: it has no multiple-choice tasks, so there are no options to score as text. Export it without option-text (cloze) scoring.`,
    zh: (p: { dataset: string }) => `导出 ${p.dataset}：它没有选择题任务，没有可按文本打分的选项。请不用选项文本（完形）评分导出。`,
  },
  'export.bad-arguments': {
    en: (p: { problem: string }) =>
      `${p.problem}. Usage: npm run export:lm-eval -- --dataset <id> --shots <n> --out <dir> [--data <folder>] [--file <own AncientBench file>] [--max-new-tokens <n>] [--circular | --cloze] (--cloze: score the options' texts, not their letters)`,
    zh: (p: { problem: string }) =>
      `${p.problem}。用法：npm run export:lm-eval -- --dataset <id> --shots <n> --out <dir> [--data <folder>] [--file <自己的 AncientBench 文件>] [--max-new-tokens <n>] [--circular | --cloze]（--cloze：按选项文本而非字母打分）`,
  },
};
