// Messages of the import area, by code ('import.<what-happened>'): each in English and Chinese.
// Two kinds: refusals of a run file (formats/*/import-*.ts, store/runs.ts importRun), each said as
// "<file>: <what, where>", and the warnings an import writes into run.warnings.
//
// A refusal's place is a parameter (`results[12].prediction`, `line 4: filtered_resps[1]`), and so is
// what was expected and what was found, as small coded values (Expected, Found), so the Chinese
// sentence is Chinese apart from quoted values, paths and format names.
import type { NoticeText } from './notice.ts';
import { enList, expectedText, foundText, q, zhList, zhPlace, type Expected, type Found } from './catalog-import-fields.ts';
import { backupRefusals } from './catalog-backup.ts';

type Place = { path: string };
/** A JSON Lines line (`line 4`), or null for the whole file. */
type MaybePlace = { path: string | null };
const at = {
  en: (p: MaybePlace) => (p.path === null ? '' : `${p.path}: `),
  zh: (p: MaybePlace) => (p.path === null ? '' : `${zhPlace(p.path)}：`),
};

const UNKNOWN_FORMAT = {
  en: 'is not a run file this site reads: expected a Jiangu run export ("format": "jiangu-run") or an lm-evaluation-harness results file with per-sample records ("samples")',
  zh: '不是本站能读的评测记录文件：应为鉴古导出的评测记录（"format": "jiangu-run"），或含逐题记录（"samples"）的 lm-evaluation-harness 结果文件',
};

/**
 * What is wrong with a run file, without the file's name (FieldProblem carries these; a
 * RunImportError adds the name). Each is also in importNotices, there with `fileName`.
 */
export const importRefusals = {
  ...backupRefusals,
  /** A field of the wrong type or value: the workhorse of import-validate.ts's `fail`. */
  'import.field-wrong': {
    en: (p: Place & Expected & Found) => `${p.path}: expected ${expectedText.en(p)}, got ${foundText.en(p)}`,
    zh: (p: Place & Expected & Found) => `${zhPlace(p.path)}：应为${expectedText.zh(p)}，实际是${foundText.zh(p)}`,
  },
  'import.too-long': {
    en: (p: Place & { max: number; length: number }) => `${p.path}: expected at most ${p.max} characters, got ${p.length}`,
    zh: (p: Place & { max: number; length: number }) => `${zhPlace(p.path)}：最多 ${p.max} 个字符，实际有 ${p.length} 个`,
  },
  'import.too-many-entries': {
    en: (p: Place & { max: number; count: number }) => `${p.path}: expected at most ${p.max} entries, got ${p.count}`,
    zh: (p: Place & { max: number; count: number }) => `${zhPlace(p.path)}：最多 ${p.max} 项，实际有 ${p.count} 项`,
  },
  /** `codePoint`: `U+202E`; `position`: 0-based, in UTF-16 code units. */
  'import.control-character': {
    en: (p: Place & { codePoint: string; position: number }) =>
      `${p.path}: contains the invisible or control character ${p.codePoint} at position ${p.position}; names and ids may not hold control, invisible or direction characters`,
    zh: (p: Place & { codePoint: string; position: number }) =>
      `${zhPlace(p.path)}：在位置 ${p.position}（从 0 起）有不可见字符或控制字符 ${p.codePoint}；名称和 ID 不能含控制字符、不可见字符或文字方向字符`,
  },
  /** `character`: JSON-quoted. line and column within the text parsed (a JSON Lines line: within that line). */
  'import.not-json': {
    en: (p: MaybePlace & { character: string; line: number; column: number }) => `${at.en(p)}not JSON: unexpected ${p.character} at line ${p.line}, column ${p.column}`,
    zh: (p: MaybePlace & { character: string; line: number; column: number }) => `${at.zh(p)}不是 JSON：第 ${p.line} 行第 ${p.column} 列出现了意外的 ${p.character}`,
  },
  'import.json-cut-off': {
    en: (p: MaybePlace & { line: number; column: number }) => `${at.en(p)}not JSON: the file ends too early (line ${p.line}, column ${p.column}); it may be cut off`,
    zh: (p: MaybePlace & { line: number; column: number }) => `${at.zh(p)}不是 JSON：文件在第 ${p.line} 行第 ${p.column} 列提前结束，可能不完整`,
  },
  /** The JSON parser's own words, where we could not find the place ourselves (nesting too deep). */
  'import.not-json-other': {
    en: (p: MaybePlace & { detail: string }) => `${at.en(p)}not JSON: ${p.detail}`,
    zh: (p: MaybePlace & { detail: string }) => `${at.zh(p)}不是 JSON：${p.detail}`,
  },
  /** A backup of every run (core/formats/backup): `mib` with one decimal, as text. */
  'import.backup-too-large': {
    en: (p: { mib: string; limitMib: number }) => `the backup is ${p.mib} MiB; the most this site reads is ${p.limitMib} MiB. Export the runs as separate run files instead.`,
    zh: (p: { mib: string; limitMib: number }) => `备份文件大小为 ${p.mib} MiB，本站最多读取 ${p.limitMib} MiB。请改为逐个导出评测记录文件。`,
  },
  /** `mib`: the size with one decimal, as text. */
  'import.file-too-large': {
    en: (p: { mib: string; limitMib: number }) => `the file is ${p.mib} MiB; the most a run file may be is ${p.limitMib} MiB. Export fewer items (a smaller run) or split an lm-eval file by task.`,
    zh: (p: { mib: string; limitMib: number }) => `文件大小为 ${p.mib} MiB，评测记录文件最多 ${p.limitMib} MiB。请导出更少的题目（更小的评测），或把 lm-eval 文件按任务拆开。`,
  },
  /** `path`: `format` when the file names a format we do not read, null when it names none. */
  'import.unknown-format': {
    en: (p: MaybePlace & Found) => `${at.en(p)}${UNKNOWN_FORMAT.en}; got ${foundText.en(p)}`,
    zh: (p: MaybePlace & Found) => `${at.zh(p)}${UNKNOWN_FORMAT.zh}；实际是${foundText.zh(p)}`,
  },
  'import.format-version': {
    en: (p: Found) => `formatVersion: this version of the site reads Jiangu run files of format version 1, got ${foundText.en(p)}; open the file with the version of the site that wrote it, or update this one (reload the page)`,
    zh: (p: Found) => `formatVersion：本站这一版只读格式版本为 1 的鉴古评测记录，此文件是 ${foundText.zh(p)}；请用写出它的那一版网站打开，或更新本站（重新加载页面）`,
  },
  /** Something failed that is not a property of the file (a bug): the thrown text. */
  'import.unreadable': {
    en: (p: { detail: string }) => `could not be read: ${p.detail}`,
    zh: (p: { detail: string }) => `无法读取：${p.detail}`,
  },
  'import.no-item-in-local-copy': {
    en: (p: { results: number; datasetId: string; first: string }) =>
      `none of its ${p.results} ${p.results === 1 ? 'result names an item' : 'results name items'} of this browser's copy of ${p.datasetId} (the first is ${JSON.stringify(p.first)}): it was made on other data. Nothing was stored.`,
    zh: (p: { results: number; datasetId: string; first: string }) =>
      `其 ${p.results} 条结果没有一条对应本浏览器中 ${p.datasetId} 的题目（第一条为 ${JSON.stringify(p.first)}）：它是在别的数据上做的。未存储任何内容。`,
  },
  /** A sentence made without a code (RunImportError given a string): shown as it is. */
  'import.failed': {
    en: (p: { detail: string }) => p.detail,
    zh: (p: { detail: string }) => p.detail,
  },
  /** store/runs.ts importRun: the browser's storage quota. */
  'import.storage-full': {
    en: (p: { results: number }) => `not enough browser storage to keep this run (${p.results} results). Delete old runs or datasets to make room; nothing was stored.`,
    zh: (p: { results: number }) => `浏览器存储空间不足，放不下这次评测（${p.results} 条结果）。请删除旧的评测或数据集腾出空间；没有保存任何内容。`,
  },
  /** store/runs.ts importRun: a write failed; itemId null when it was the run itself. `detail`: the browser's error name and text. */
  'import.store-failed': {
    en: (p: { itemId: string | null; detail: string }) => `${p.itemId !== null ? `the result for item ${p.itemId} could not be stored` : 'the run could not be stored'} (${p.detail}); nothing was stored.`,
    zh: (p: { itemId: string | null; detail: string }) => `${p.itemId !== null ? `题目 ${p.itemId} 的结果` : '这次评测'}无法保存（${p.detail}）；没有保存任何内容。`,
  },
  /** `first`: the position of the first one. */
  'import.duplicate': {
    en: (p: Place & { value: string; first: number }) => `${p.path}: ${q(p.value)} appears twice (also at [${p.first}])`,
    zh: (p: Place & { value: string; first: number }) => `${zhPlace(p.path)}：${q(p.value)} 出现了两次（另一次在 [${p.first}]）`,
  },
  'import.no-mc-tasks': {
    en: (p: { datasetId: string }) => `run.config.datasetId: ${p.datasetId} has no multiple-choice tasks, so a multiple-choice run on it cannot exist`,
    zh: (p: { datasetId: string }) => `run.config.datasetId：${p.datasetId} 没有选择题任务，不可能有它的选择题评测`,
  },
  'import.no-generation-tasks': {
    en: (p: { datasetId: string }) => `run.config.datasetId: ${p.datasetId} has no generation tasks, so a generation run on it cannot exist`,
    zh: (p: { datasetId: string }) => `run.config.datasetId：${p.datasetId} 没有生成任务，不可能有它的生成评测`,
  },
  'import.unknown-item': {
    en: (p: Place & { itemId: string }) => `${p.path}: ${q(p.itemId)} is not one of the run's items (run.config.itemIds)`,
    zh: (p: Place & { itemId: string }) => `${zhPlace(p.path)}：${q(p.itemId)} 不是本次评测的题目（run.config.itemIds）`,
  },
  'import.letter-twice': {
    en: (p: Place & { letter: string }) => `${p.path}: the letter ${p.letter} appears twice`,
    zh: (p: Place & { letter: string }) => `${zhPlace(p.path)}：字母 ${p.letter} 出现了两次`,
  },
  'import.cloze-in-letter-run': {
    en: (p: Place) => `${p.path}: option-text (cloze) scores belong to a cloze run; this run's scoring is another`,
    zh: (p: Place) => `${zhPlace(p.path)}：选项文本（完形）得分只属于完形评测，而本次评测的评分方式不是完形`,
  },
  'import.generated-in-letter-run': {
    en: (p: Place) => `${p.path}: a letter-logits run has no generated answers; this result has one`,
    zh: (p: Place) => `${zhPlace(p.path)}：按字母 logits 打分的评测没有生成的答案，这条结果却有`,
  },
  'import.too-many-results': {
    en: (p: { count: number; max: number }) => `results: the file has ${p.count} results; the most one import takes is ${p.max}`,
    zh: (p: { count: number; max: number }) => `results：文件有 ${p.count} 条结果，一次最多导入 ${p.max} 条`,
  },
  /** `first`: the index of the other result. */
  'import.two-results': {
    en: (p: Place & { itemId: string; first: number }) => `${p.path}: ${q(p.itemId)} has two results (also results[${p.first}])`,
    zh: (p: Place & { itemId: string; first: number }) => `${zhPlace(p.path)}：${q(p.itemId)} 有两条结果（另一条是 results[${p.first}]）`,
  },
  /** `detail`: why the aggregation refused (its own text). */
  'import.summary-failed': {
    en: (p: { detail: string }) => `results: the summary could not be recomputed from them (${p.detail})`,
    zh: (p: { detail: string }) => `results：无法由这些结果重新计算摘要（${p.detail}）`,
  },
  /** `path`: null when the task comes from the file name; `known`: the tasks this site reads. */
  'import.unknown-task': {
    en: (p: MaybePlace & { task: string; known: readonly string[] }) => `${p.path ?? `file name (task ${q(p.task)})`}: unknown lm-eval task ${q(p.task)}; this site reads ${enList(p.known)}`,
    zh: (p: MaybePlace & { task: string; known: readonly string[] }) => `${p.path === null ? `文件名（任务 ${q(p.task)}）` : zhPlace(p.path)}：未知的 lm-eval 任务 ${q(p.task)}；本站能读 ${zhList(p.known)}`,
  },
  /** `field`: filtered_resps or resps. */
  'import.request-count': {
    en: (p: Place & { requests: number; responses: number; field: string }) => `${p.path}: has ${p.requests} requests for ${p.responses} responses in ${p.field}`,
    zh: (p: Place & { requests: number; responses: number; field: string }) => `${zhPlace(p.path)}：有 ${p.requests} 个请求，而 ${p.field} 中有 ${p.responses} 个回应`,
  },
  'import.no-samples': {
    en: () => 'samples: the file has no samples',
    zh: () => 'samples：文件中没有逐题记录',
  },
  /** `tasks[i]` belongs to `datasets[i]`. */
  'import.mixed-datasets': {
    en: (p: { tasks: readonly string[]; datasets: readonly string[] }) =>
      `samples: all tasks of one file must belong to one dataset, but ${enList(p.tasks.map((t, i) => `${t} is ${p.datasets[i]}`))}; import each dataset's samples_<task>_<time>.jsonl files separately`,
    zh: (p: { tasks: readonly string[]; datasets: readonly string[] }) =>
      `samples：一个文件中的所有任务必须属于同一个数据集，但 ${zhList(p.tasks.map((t, i) => `${t} 属于 ${p.datasets[i]}`))}；请分别导入每个数据集的 samples_<task>_<time>.jsonl 文件`,
  },
  'import.results-without-samples': {
    en: () =>
      'samples: the file has lm-eval results but no per-sample records, so there is nothing to recompute or inspect. Run lm_eval with --log_samples and choose the results_<date>.json together with its samples_<task>_<date>.jsonl files, or dump the dict simple_evaluate(..., log_samples=True) returns.',
    zh: () =>
      'samples：文件中有 lm-eval 的结果，却没有逐题记录，无从重新计算或查看。请用 --log_samples 运行 lm_eval，并把 results_<date>.json 和它的 samples_<task>_<date>.jsonl 文件一起选择，或导出 simple_evaluate(..., log_samples=True) 返回的字典。',
  },
  /** `first`: where the other sample is (a path, or `line 3`). */
  'import.doc-twice': {
    en: (p: Place & { docId: number; first: string }) => `${p.path}: ${p.docId} appears twice (also at ${p.first})`,
    zh: (p: Place & { docId: number; first: string }) => `${zhPlace(p.path)}：${p.docId} 出现了两次（另一次在 ${zhPlace(p.first)}）`,
  },
  'import.samples-file-name': {
    en: () => "file name: expected lm-eval's samples_<task>_<timestamp>.jsonl, which names the task; rename the file as the harness wrote it",
    zh: () => '文件名：应为 lm-eval 的 samples_<task>_<timestamp>.jsonl，文件名里写着任务；请改回 lm-eval 写出时的文件名',
  },
  'import.too-many-samples': {
    en: (p: { count: number; max: number }) => `samples: the file has ${p.count} samples; the most one import takes is ${p.max}`,
    zh: (p: { count: number; max: number }) => `samples：文件有 ${p.count} 条逐题记录，一次最多导入 ${p.max} 条`,
  },
  'import.too-many-lines': {
    en: (p: { max: number }) => `the file has more than ${p.max} samples; the most one import takes is ${p.max}`,
    zh: (p: { max: number }) => `文件的逐题记录超过 ${p.max} 条，一次最多导入 ${p.max} 条`,
  },
  // lm_eval --output_path … --log_samples: a results_<date>.json with its samples_<task>_<date>.jsonl files (lm-eval-files.ts).
  /** `samples`: the lines read before it. */
  'import.lm-eval-truncated-line': {
    en: (p: Place & { samples: number }) => `${p.path}: the file ends in the middle of a sample (after ${p.samples} whole ones); it was cut short. Copy it again from the harness's output folder.`,
    zh: (p: Place & { samples: number }) => `${zhPlace(p.path)}：文件在一条逐题记录中间结束（此前有 ${p.samples} 条完整记录），文件不完整。请从 lm-eval 的输出文件夹重新复制。`,
  },
  /** `expected`: results' n-samples.<task>.effective. */
  'import.lm-eval-truncated': {
    en: (p: { task: string; samples: number; expected: number }) => `has ${p.samples} samples of ${q(p.task)}, but the results file says the harness evaluated ${p.expected}: the file is incomplete. Copy it again from the harness's output folder.`,
    zh: (p: { task: string; samples: number; expected: number }) => `含 ${q(p.task)} 的 ${p.samples} 条逐题记录，而结果文件说 lm-eval 评测了 ${p.expected} 条：文件不完整。请从 lm-eval 的输出文件夹重新复制。`,
  },
  'import.lm-eval-tampered': {
    en: (p: { task: string }) => `the samples of ${q(p.task)} are not the ones the results file was written with (its task_hashes entry is not the sha256 of their doc, prompt and target hashes): the file was changed or belongs to another run`,
    zh: (p: { task: string }) => `${q(p.task)} 的逐题记录不是结果文件写出时的那些（task_hashes 中的值不是这些记录的 doc_hash、prompt_hash、target_hash 连在一起的 sha256）：文件被改过，或属于另一次评测`,
  },
  'import.lm-eval-doc-changed': {
    en: (p: Place) => `${p.path}: the doc is not the one the harness wrote (its doc_hash is not the sha256 of the doc): the file was edited`,
    zh: (p: Place) => `${zhPlace(p.path)}：doc 不是 lm-eval 写出的那个（doc_hash 不是它的 sha256）：文件被编辑过`,
  },
  /** `field`: question, options or answer. */
  // Circular exports (issue 13): one sample per item and rotation, `jiangu_rotation` in the doc.
  'import.lm-eval-rotation-invalid': {
    en: (p: Place & { found: string; choices: number }) => `${p.path}: jiangu_rotation is ${p.found}; expected an integer from 0 to ${p.choices - 1} (the sample has ${p.choices} choices). Nothing was imported.`,
    zh: (p: Place & { found: string; choices: number }) => `${zhPlace(p.path)}：jiangu_rotation 是 ${p.found}；应为 0 到 ${p.choices - 1} 的整数（该记录有 ${p.choices} 个选项）。未导入任何内容。`,
  },
  'import.lm-eval-rotation-twice': {
    en: (p: Place & { itemId: string; rotation: number; first: string }) => `${p.path}: rotation ${p.rotation} of item ${q(p.itemId)} appears twice (also at ${p.first}). Nothing was imported.`,
    zh: (p: Place & { itemId: string; rotation: number; first: string }) => `${zhPlace(p.path)}：题目 ${q(p.itemId)} 的第 ${p.rotation} 个轮换出现了两次（另一次在 ${zhPlace(p.first)}）。未导入任何内容。`,
  },
  'import.lm-eval-rotation-without-item': {
    en: (p: Place & { itemId: string; rotation: number }) =>
      `${p.path}: rotation ${p.rotation} of item ${q(p.itemId)} has no sample of the item in its own order (jiangu_rotation 0), which the run's result is. Import the harness's complete output. Nothing was imported.`,
    zh: (p: Place & { itemId: string; rotation: number }) =>
      `${zhPlace(p.path)}：题目 ${q(p.itemId)} 有第 ${p.rotation} 个轮换，却没有原顺序（jiangu_rotation 0）的记录，而评测结果正是它。请导入 lm-eval 的完整输出。未导入任何内容。`,
  },
  /** `choices`/`ownChoices`: the rotation's and the item's own order's; `found`/`expected` the answers, when the choices agree. */
  'import.lm-eval-rotation-target': {
    en: (p: Place & { itemId: string; rotation: number; choices: number; ownChoices: number; found: string; expected: string }) =>
      `${p.path}: rotation ${p.rotation} of item ${q(p.itemId)} ${
        p.choices !== p.ownChoices ? `has ${p.choices} choices, its own order ${p.ownChoices}` : `has the answer ${p.found} (of ${p.choices} choices), but the answer of its own order moves to ${p.expected} under that rotation`
      }. Nothing was imported.`,
    zh: (p: Place & { itemId: string; rotation: number; choices: number; ownChoices: number; found: string; expected: string }) =>
      `${zhPlace(p.path)}：题目 ${q(p.itemId)} 第 ${p.rotation} 个轮换${
        p.choices !== p.ownChoices ? `有 ${p.choices} 个选项，而原顺序有 ${p.ownChoices} 个` : `的答案是 ${p.found}（共 ${p.choices} 个选项），但原顺序的答案在该轮换下应移到 ${p.expected}`
      }。未导入任何内容。`,
  },
  /** `metric`: acc, acc_norm or acc_bytes; `stated` and `recomputed`: 1 (right) or 0. */
  'import.lm-eval-cloze-disagrees': {
    en: (p: Place & { itemId: string; metric: string; stated: number; recomputed: number; prediction: string; gold: string }) =>
      `${p.path}: item ${q(p.itemId)} has ${p.metric} ${p.stated}, but its per-option log-likelihoods give ${p.recomputed} (${p.metric} predicts ${p.prediction}, the target is ${p.gold}): the log-likelihoods or the sample's scores were changed after the harness wrote them. Nothing was imported.`,
    zh: (p: Place & { itemId: string; metric: string; stated: number; recomputed: number; prediction: string; gold: string }) =>
      `${zhPlace(p.path)}：题目 ${q(p.itemId)} 的 ${p.metric} 是 ${p.stated}，而由各选项的对数似然算出的是 ${p.recomputed}（${p.metric} 预测 ${p.prediction}，标准答案是 ${p.gold}）：对数似然或这条记录的得分在 lm-eval 写出之后被改过。未导入任何内容。`,
  },
  'import.lm-eval-doc-mismatch': {
    en: (p: Place & { itemId: string; field: string }) =>
      `${p.path}: the sample's doc is not the stored item ${q(p.itemId)} (its ${p.field} differs): the harness ran on other data or rows in another order. Nothing was imported.`,
    zh: (p: Place & { itemId: string; field: string }) => `${zhPlace(p.path)}：逐题记录的 doc 与已存储的题目 ${q(p.itemId)} 不同（${p.field} 不一致）：lm-eval 用的是别的数据或别的行序。未导入任何内容。`,
  },
  /** `skipped`: the first twenty task names; `more`: how many others. */
  'import.lm-eval-no-known-task': {
    en: (p: { skipped: readonly string[]; more: number }) =>
      `none of its tasks is one this site reads (${enList(p.skipped)}${p.more ? ` and ${p.more} more` : ''}); it reads Jiangu's exported tasks (jiangu_…), ACLUE's aclue_… and cmmlu_ancient_chinese`,
    zh: (p: { skipped: readonly string[]; more: number }) =>
      `其中没有本站能读的任务（${zhList(p.skipped)}${p.more ? `，另有 ${p.more} 个` : ''}）；本站能读鉴古导出的任务（jiangu_…）、ACLUE 的 aclue_… 和 cmmlu_ancient_chinese`,
  },
  'import.lm-eval-samples-missing': {
    en: (p: { task: string; expected: string }) => `names task ${q(p.task)}, but its samples file (${p.expected}) was not chosen with it; choose the results file and all its samples_….jsonl files together`,
    zh: (p: { task: string; expected: string }) => `写有任务 ${q(p.task)}，但没有一起选择它的逐题记录文件（${p.expected}）；请同时选择结果文件和它所有的 samples_….jsonl 文件`,
  },
  'import.lm-eval-samples-unmatched': {
    en: (p: { results: readonly string[] }) => `its date is not that of any results file chosen (${enList(p.results)}); the harness gives a run's results and samples files the same date`,
    zh: (p: { results: readonly string[] }) => `它的日期与所选的结果文件（${zhList(p.results)}）都不同；lm-eval 给同一次评测的结果文件和逐题记录文件相同的日期`,
  },
  /** `tasks`: the first five Jiangu task names of the samples files; `expected`: the results file name(s) their dates give. */
  'import.lm-eval-jiangu-without-results': {
    en: (p: { tasks: readonly string[]; more: number; expected: readonly string[] }) =>
      `holds samples of Jiangu's exported tasks (${enList(p.tasks)}${p.more ? ` and ${p.more} more` : ''}) without their results file, which carries their protocol, template hash and data hashes (configs.<task>.metadata.jiangu): choose ${enList(p.expected)} from the same folder with them, or import the folder itself. Samples files alone are read for the harness's own tasks (aclue_…, cmmlu_ancient_chinese).`,
    zh: (p: { tasks: readonly string[]; more: number; expected: readonly string[] }) =>
      `含有鉴古导出任务的逐题记录（${zhList(p.tasks)}${p.more ? `，另有 ${p.more} 个` : ''}），但没有它们的结果文件；这些任务的评测协议、模板哈希和数据哈希都记在结果文件中：请把同一文件夹中的 ${zhList(p.expected)} 一起选上，或直接导入整个文件夹。只有 lm-eval 自带的任务（aclue_…、cmmlu_ancient_chinese）可以单独导入逐题记录文件。`,
  },
  'import.lm-eval-task-twice': {
    en: (p: { task: string }) => `a second samples file of task ${q(p.task)}; choose one run's files at a time, or include its results file`,
    zh: (p: { task: string }) => `任务 ${q(p.task)} 的第二个逐题记录文件；请一次选择一次评测的文件，或把它的结果文件一起选上`,
  },
  'import.lm-eval-not-results': {
    en: () => 'is named as lm-eval names a results file but has no "configs"; choose the results_<date>.json the harness wrote',
    zh: () => '文件名像 lm-eval 的结果文件，但没有 "configs"；请选择 lm-eval 写出的 results_<date>.json',
  },
  'import.lm-eval-file-name': {
    en: () => "is neither a results_<date>.json nor a samples_<task>_<date>.jsonl; when choosing several files, choose lm-eval's output files with the names it gave them",
    zh: () => '既不是 results_<date>.json，也不是 samples_<task>_<date>.jsonl；一次选择多个文件时，请选择 lm-eval 的输出文件，并保留它起的文件名',
  },
  /** `files`: how many files the folder holds. */
  'import.zip-unreadable': {
    en: (p: { reason: string }) => `is not a zip archive this site can read (${p.reason}); unpack it and choose the folder lm_eval --output_path wrote`,
    zh: (p: { reason: string }) => `不是本站能读的 zip 压缩包（${p.reason}）；请解压后选择 lm_eval --output_path 写出的文件夹`,
  },
  'import.zip-too-many-entries': {
    en: (p: { entries: number; limit: number }) => `the zip archive lists ${p.entries} entries, more than the ${p.limit} this site reads; nothing was inflated. Zip only the folder lm_eval --output_path wrote`,
    zh: (p: { entries: number; limit: number }) => `zip 压缩包列出了 ${p.entries} 个条目，超过本站读取的上限 ${p.limit} 个；没有解压任何内容。请只压缩 lm_eval --output_path 写出的文件夹`,
  },
  'import.zip-too-large': {
    en: (p: { mib: string; limitMib: number }) => `the harness files in the zip archive would inflate to ${p.mib} MiB together, over the ${p.limitMib} MiB this site reads at once; nothing was inflated. Import the models' subfolders one at a time`,
    zh: (p: { mib: string; limitMib: number }) => `zip 压缩包中的评测框架文件解压后共 ${p.mib} MiB，超过本站一次读取的上限 ${p.limitMib} MiB；没有解压任何内容。请逐个导入各模型的子文件夹`,
  },
  // The file name is the entry's: the archive's own name is a parameter.
  'import.zip-entry-overrun': {
    en: (p: { zipName: string; stated: number; inflatedAtLeast: number }) => `this entry of ${p.zipName} says it is ${p.stated} bytes but inflates to more (${p.inflatedAtLeast} bytes and counting): the archive is damaged or made to flood memory, and was stopped there. Nothing was stored`,
    zh: (p: { zipName: string; stated: number; inflatedAtLeast: number }) => `${p.zipName} 中的这个条目自称 ${p.stated} 字节，解压后却更大（已达 ${p.inflatedAtLeast} 字节）：压缩包已损坏或意在耗尽内存，已在此停止。没有保存任何内容`,
  },
  'import.lm-eval-zip-empty': {
    en: () => 'the zip archive holds no results_<date>.json nor samples_<task>_<date>.jsonl; zip the folder lm_eval --output_path wrote',
    zh: () => 'zip 压缩包里没有 results_<date>.json，也没有 samples_<task>_<date>.jsonl；请压缩 lm_eval --output_path 写出的文件夹',
  },
  'import.lm-eval-folder-empty': {
    en: (p: { files: number }) => `the folder's ${p.files} files hold no results_<date>.json nor samples_<task>_<date>.jsonl; choose the folder lm_eval --output_path wrote`,
    zh: (p: { files: number }) => `文件夹中的 ${p.files} 个文件里没有 results_<date>.json，也没有 samples_<task>_<date>.jsonl；请选择 lm_eval --output_path 写出的文件夹`,
  },
  /** `path`: the metadata field that is wrong. */
  'import.lm-eval-jiangu-metadata': {
    en: (p: Place) => `${p.path}: missing or not what Jiangu's export writes, so the task's protocol cannot be told; export the task again with this version`,
    zh: (p: Place) => `${zhPlace(p.path)}：缺失，或不是鉴古导出时写的内容，无法确定任务的协议；请用本版本重新导出任务`,
  },
  'import.lm-eval-jiangu-protocol-unknown': {
    en: (p: { task: string; protocolId: string; expected: string }) => `task ${q(p.task)} says protocol ${q(p.protocolId)}, but this site scores its benchmark with ${q(p.expected)}`,
    zh: (p: { task: string; protocolId: string; expected: string }) => `任务 ${q(p.task)} 写的协议是 ${q(p.protocolId)}，而本站对这个评测集用的是 ${q(p.expected)}`,
  },
  'import.lm-eval-gen-sample': {
    en: (p: Place) => `${p.path}: not a generate_until sample of a task Jiangu exported (the harness writes resps [[text]], arguments.gen_args_0.arg_0 the prompt, and the doc with jiangu_id and references): the file was edited or is from another task`,
    zh: (p: Place) => `${zhPlace(p.path)}：不是鉴古导出的生成任务（generate_until）的逐题记录（lm-eval 写出 resps [[文本]]、arguments.gen_args_0.arg_0 为提示词，doc 含 jiangu_id 和 references）：文件被编辑过，或来自别的任务`,
  },
  'import.lm-eval-gen-template': {
    en: (p: { task: string }) => `task ${q(p.task)} was exported with another version of the C3Bench prompts than this site's (its template hash differs): export the task again from this version of Jiangu and run it again`,
    zh: (p: { task: string }) => `任务 ${q(p.task)} 导出时用的 C3Bench 提示词与本站这一版不同（模板哈希不一致）：请用这一版鉴古重新导出并重新运行`,
  },
  'import.lm-eval-gen-kwargs': {
    en: (p: Place & { maxNewTokens: number }) => `${p.path}: the harness did not generate with the export's settings (greedy, at most ${p.maxNewTokens} new tokens): the outputs would not be Jiangu's protocol. Run the exported task as it is`,
    zh: (p: Place & { maxNewTokens: number }) => `${zhPlace(p.path)}：lm-eval 生成时没有用导出的设置（贪心解码，最多 ${p.maxNewTokens} 个新词元）：这样的输出不是鉴古的协议。请按导出的原样运行任务`,
  },
  /** `protocols[i]`: the protocol of `tasks[i]` (lm-eval for the harness's own). */
  'import.lm-eval-protocols-mixed': {
    en: (p: { tasks: readonly string[]; protocols: readonly string[] }) =>
      `one benchmark's tasks were run with different prompts (${enList(p.tasks.map((t, i) => `${t}: ${p.protocols[i]}`))}); import Jiangu's tasks and the harness's own from separate runs`,
    zh: (p: { tasks: readonly string[]; protocols: readonly string[] }) =>
      `同一评测集的任务用了不同的提示词（${zhList(p.tasks.map((t, i) => `${t}：${p.protocols[i]}`))}）；请把鉴古的任务和 lm-eval 自带的任务分开导入`,
  },
  /** A run file's sampling (issue 36) whose sizes do not give its item count: `expected` is Σ min(limitPerTask, population). */
  'import.sample-size': {
    en: (p: Place & { items: number; expected: number; perTask: number | null }) => `${p.path}: its sizes (${p.perTask === null ? 'every item' : `${p.perTask} per task`} of each task) give ${p.expected} items, but run.config.itemIds lists ${p.items}: the sampling or the items were edited`,
    zh: (p: Place & { items: number; expected: number; perTask: number | null }) => `${zhPlace(p.path)}：按其中各任务的总题数（${p.perTask === null ? '全部题目' : `每个任务 ${p.perTask} 题`}）应得 ${p.expected} 道题，而 run.config.itemIds 列出 ${p.items} 道：抽样设置或题目被改过`,
  },
  /** The sampling's draw and order over this browser's copy of the benchmark do not give the file's items: a forged seed, or edited items. */
  'import.sample-not-drawn': {
    en: (p: { draw: string; seed: number; index: number; found: string; drawn: string }) => `run.config.sampling (draw ${p.draw}, seed ${p.seed}) draws other items than run.config.itemIds lists, in this browser's copy of the benchmark (the first difference at run.config.itemIds[${p.index}]: ${q(p.found)}, drawn ${q(p.drawn)}): the seed or the items were edited, so the run is not the sample it says it is`,
    zh: (p: { draw: string; seed: number; index: number; found: string; drawn: string }) => `在本浏览器的评测集副本上，run.config.sampling（${p.draw === 'random' ? '随机抽样' : '按文件顺序取前几题'}，种子 ${p.seed}）抽出的题目与 run.config.itemIds 所列的不同（第一处不同在 run.config.itemIds[${p.index}]：${q(p.found)}，应为 ${q(p.drawn)}）：种子或题目被改过，这次评测不是它自称的样本`,
  },
  /** The sampling names a task population this browser's copy does not have. */
  'import.sample-population': {
    en: (p: { task: string; recorded: number; found: number }) => `run.config.sampling.population says task ${q(p.task)} has ${p.recorded} items; this browser's copy of the benchmark has ${p.found}: the sample cannot be checked against it`,
    zh: (p: { task: string; recorded: number; found: number }) => `run.config.sampling 说任务 ${q(p.task)} 共有 ${p.recorded} 道题；本浏览器的评测集副本有 ${p.found} 道：无法据此核对样本`,
  },
  /** A stopped run's export (issue 44): the stop its metadata states is not inside the plan its sampling draws. */
  'import.lm-eval-stop-beyond-plan': {
    en: (p: Place & { asked: number; planned: number }) => `${p.path}: the run stopped after ${p.asked} items, it says, but the sample its metadata states plans ${p.planned}: no stop inside the plan, so the metadata was edited`,
    zh: (p: Place & { asked: number; planned: number }) => `${zhPlace(p.path)}：说评测做完 ${p.asked} 道题后停止，而其元数据所述的样本只计划了 ${p.planned} 道：这不是计划之内的停止点，元数据被改过`,
  },
  /** The harness ran other docs of a stopped run's plan than the first `asked` (`position`: 1-based in the run's order; `ran`: whether that item was run). */
  'import.lm-eval-stop-not-prefix': {
    en: (p: { asked: number; found: number; task: string; index: number; position: number; ran: boolean }) =>
      `the export was of a run stopped after the first ${p.asked} items of its order, but the harness ran ${p.found} items of its plan, not those: the item at place ${p.index} of task ${q(p.task)} (item ${p.position} of the run's order) was ${p.ran ? 'run though the run never asked it' : 'not run though the run asked it'}. Run the export with --samples jiangu_samples.json unedited, as its README says`,
    zh: (p: { asked: number; found: number; task: string; index: number; position: number; ran: boolean }) =>
      `导出的是一次在其顺序中做完前 ${p.asked} 道题后停止的评测，但 lm-eval 运行的是其计划中的 ${p.found} 道题，不是这些：任务 ${q(p.task)} 第 ${p.index} 条（评测顺序中的第 ${p.position} 道）${p.ran ? '评测并未做过，却被运行了' : '评测做过，却没有运行'}。请按导出的 README，用未经修改的 --samples jiangu_samples.json 运行`,
  },
  /** A stopped run's metadata lists another number of planned-but-unasked items of a task than its plan leaves. */
  'import.lm-eval-stop-unasked': {
    en: (p: { task: string; expected: number; found: number }) => `the metadata of task ${q(p.task)} lists ${p.found} planned items the stopped run did not ask, but its plan leaves ${p.expected}: the metadata was edited, so the run's plan cannot be named`,
    zh: (p: { task: string; expected: number; found: number }) => `任务 ${q(p.task)} 的元数据列出中途停止的评测计划中未做的 ${p.found} 道题，而按其计划应为 ${p.expected} 道：元数据被改过，无法确定评测计划中的题目`,
  },
};

type ParamsOfText<T> = T extends { en: (p: infer P) => string } ? P : never;
/** Each refusal, said after the file's name. */
type InFile<T> = { [C in keyof T]: NoticeText<ParamsOfText<T[C]> & { fileName: string }> };

function inFile<T extends Record<string, NoticeText<never>>>(texts: T): InFile<T> {
  const out: Record<string, NoticeText<{ fileName: string }>> = {};
  for (const [code, text] of Object.entries(texts) as [string, NoticeText<{ fileName: string }>][]) {
    out[code] = { en: (p) => `${p.fileName}: ${text.en(p)}`, zh: (p) => `${p.fileName}：${text.zh(p)}` };
  }
  return out as InFile<T>;
}

/** What an import writes into run.warnings. */
const importWarnings = {
  'import.was-running': {
    en: (p: { results: number; items: number }) => `The file was exported while the run was still running (${p.results} of ${p.items} items); it is imported as stopped.`,
    zh: (p: { results: number; items: number }) => `文件导出时评测仍在进行（${p.items} 道题中完成了 ${p.results} 道）；导入后记为已停止。`,
  },
  /** The run had been imported once already (then exported again); `from`: that import's origin kind. */
  'import.imported-before': {
    en: (p: { from: 'lm-eval' | 'jiangu-file'; fileName: string; importedAt: string }) =>
      `Before this file was exported, the run had been imported from ${p.from === 'lm-eval' ? 'an lm-evaluation-harness file' : 'a run file'} (${p.fileName}) on ${p.importedAt}.`,
    zh: (p: { from: 'lm-eval' | 'jiangu-file'; fileName: string; importedAt: string }) =>
      `导出这个文件之前，这次评测曾于 ${p.importedAt} 从${p.from === 'lm-eval' ? ' lm-evaluation-harness 文件' : '评测记录文件'}（${p.fileName}）导入。`,
  },
  /** `fields`: the first ten paths ([*] for list positions); `more`: how many others. */
  'import.unknown-fields': {
    en: (p: { fields: readonly string[]; more: number }) => `The file had fields this version does not know; they were left out: ${enList(p.fields)}${p.more > 0 ? ` and ${p.more} more` : ''}.`,
    zh: (p: { fields: readonly string[]; more: number }) => `文件中有本版本不认识的字段，已略去：${zhList(p.fields)}${p.more > 0 ? `，另有 ${p.more} 个` : ''}。`,
  },
  'import.lm-eval-protocol': {
    en: (p: { fileName: string; protocolId: string; templateHash: string }) =>
      `Imported from an lm-evaluation-harness file (${p.fileName}): the prompts, few-shot exemplars and scoring are the harness's, not this site's ${p.protocolId} protocol (its template hash is recorded as "${p.templateHash}"). The harness scores each choice by the log-likelihood of its continuation (" A", " B", …) after the prompt; compare with runs made here with that in mind.`,
    zh: (p: { fileName: string; protocolId: string; templateHash: string }) =>
      `从 lm-evaluation-harness 文件（${p.fileName}）导入：提示词、少样本示例和打分方式都是 lm-eval 的，不是本站的 ${p.protocolId} 协议（模板哈希记为 "${p.templateHash}"）。lm-eval 按每个选项的续写（" A"、" B"……）在提示词之后的对数似然打分；与本站的评测比较时请记住这一点。`,
  },
  /** A task Jiangu exported: the run is Jiangu's protocol, run by the harness. */
  'import.lm-eval-jiangu': {
    en: (p: { fileName: string; protocolId: string; templateHash: string; app: string }) =>
      `Imported from lm-evaluation-harness (${p.fileName}), run on tasks Jiangu ${p.app} exported: the prompts, exemplars and scored letters are this site's ${p.protocolId} protocol (template hash ${p.templateHash.slice(0, 12)}…), so it compares with runs made here as the same protocol.`,
    zh: (p: { fileName: string; protocolId: string; templateHash: string; app: string }) =>
      `从 lm-evaluation-harness（${p.fileName}）导入，运行的是鉴古 ${p.app} 导出的任务：提示词、示例和打分的字母都是本站的 ${p.protocolId} 协议（模板哈希 ${p.templateHash.slice(0, 12)}…），与本站的评测按同一协议比较。`,
  },
  'import.lm-eval-jiangu-cloze': {
    en: (p: { fileName: string; protocolId: string; templateHash: string; app: string }) =>
      `Imported from lm-evaluation-harness (${p.fileName}), run on option-text (cloze) tasks Jiangu ${p.app} exported: the contexts, exemplars and option texts are this site's ${p.protocolId} cloze layout (template hash ${p.templateHash.slice(0, 12)}…), so it compares with cloze runs made here as the same protocol. Every acc, acc_norm and acc_bytes a sample states agreed with its log-likelihoods. The harness writes no token counts and makes no answer-cue-only requests, so this run has no token counts and no PMI rule.`,
    zh: (p: { fileName: string; protocolId: string; templateHash: string; app: string }) =>
      `从 lm-evaluation-harness（${p.fileName}）导入，运行的是鉴古 ${p.app} 导出的选项文本（完形）任务：上下文、示例和选项文本都是本站 ${p.protocolId} 协议的完形格式（模板哈希 ${p.templateHash.slice(0, 12)}…），与本站的完形评测按同一协议比较。逐题记录中写明的 acc、acc_norm 和 acc_bytes 都与其对数似然一致。lm-eval 不写词元数，也不单独对答案提示打分，所以这次评测没有词元数，也没有 PMI 规则。`,
  },
  'import.lm-eval-gen-jiangu': {
    en: (p: { fileName: string; maxNewTokens: number; app: string }) =>
      `Imported from lm-evaluation-harness (${p.fileName}), generated on tasks Jiangu ${p.app} exported: the prompts are this site's C3Bench protocol, greedy, at most ${p.maxNewTokens} new tokens, and the outputs are scored here with Jiangu's own metrics. The harness writes the text only: token counts, stop reasons and times are not known.`,
    zh: (p: { fileName: string; maxNewTokens: number; app: string }) =>
      `从 lm-evaluation-harness（${p.fileName}）导入，生成的是鉴古 ${p.app} 导出的任务：提示词是本站的 C3Bench 协议，贪心解码，最多 ${p.maxNewTokens} 个新词元，输出由本站用鉴古自己的指标打分。lm-eval 只写出文本：词元数、停止原因和用时未知。`,
  },
  'import.lm-eval-system-instruction': {
    en: (p: { text: string }) => `The harness was given a system instruction (${q(p.text)}), so its prompts are not the protocol's alone; compare with that in mind.`,
    zh: (p: { text: string }) => `lm-eval 运行时加了系统指令（${q(p.text)}），它的提示词不只是协议本身的；比较时请记住这一点。`,
  },
  /** Tasks the files name that this site does not read: the first few (lm-eval-skipped.ts), and how many in all. */
  'import.lm-eval-tasks-skipped': {
    en: (p: { skipped: readonly string[]; more: number }) => {
      const all = p.skipped.length + p.more;
      return `${all} ${all === 1 ? 'task' : 'tasks'} this site does not read ${all === 1 ? 'was' : 'were'} left out of this run: ${enList(p.skipped)}${p.more ? ` and ${p.more} more` : ''}.`;
    },
    zh: (p: { skipped: readonly string[]; more: number }) => `本次评测略去了 ${p.skipped.length + p.more} 个本站不读的任务：${zhList(p.skipped)}${p.more ? `，另有 ${p.more} 个` : ''}。`,
  },
  /** Tasks a dumped results dict names (configs, results) that have no per-sample records: nothing of them is imported. */
  'import.lm-eval-tasks-without-samples': {
    en: (p: { tasks: readonly string[]; more: number }) => `The file names tasks it has no per-sample records of, so they are not part of this run: ${enList(p.tasks)}${p.more ? ` and ${p.more} more` : ''}.`,
    zh: (p: { tasks: readonly string[]; more: number }) => `文件列出了一些任务，却没有它们的逐题记录，因此这些任务不在本次评测中：${zhList(p.tasks)}${p.more ? `，另有 ${p.more} 个` : ''}。`,
  },
  'import.lm-eval-bfloat16': {
    en: (p: { dtype: string }) => `The harness ran the model in ${q(p.dtype)}; a run record has no bfloat16, so it is recorded as fp16 (the other 16-bit float).`,
    zh: (p: { dtype: string }) => `lm-eval 以 ${q(p.dtype)} 运行模型；评测记录没有 bfloat16，记为 fp16（另一种 16 位浮点）。`,
  },
  /** `loaded`: the dtype the model had once loaded (config.model_dtype); `dtype`: as recorded. */
  'import.lm-eval-dtype-auto': {
    en: (p: { loaded: string; dtype: string }) => `The harness was asked for dtype "auto" (the checkpoint's own), which loaded as ${q(p.loaded)}; recorded as ${p.dtype}.`,
    zh: (p: { loaded: string; dtype: string }) => `lm-eval 用的精度是 "auto"（检查点自带的），加载后为 ${q(p.loaded)}；记为 ${p.dtype}。`,
  },
  'import.lm-eval-data': {
    en: (p: { datasetId: string }) => `The harness loads ${p.datasetId} from its own copy (a Hugging Face dataset), not from this site's pinned files; item ids assume its rows are in the upstream files' order.`,
    zh: (p: { datasetId: string }) => `lm-eval 从它自己的副本（Hugging Face 数据集）读取 ${p.datasetId}，而不是本站固定版本的文件；题目 ID 假定其行序与上游文件一致。`,
  },
  'import.model-unnamed': {
    en: () => 'The file does not name the model (a samples file alone carries no configuration); it is recorded as "unknown".',
    zh: () => '文件没有写明模型（单独的 samples 文件不含配置）；模型记为 "unknown"。',
  },
  /** `dtype`: what model_args says, or null when it says nothing. */
  'import.dtype-unknown': {
    en: (p: { dtype: string | null }) => `lm-eval ran the model with dtype ${p.dtype !== null ? q(p.dtype) : "unstated (the checkpoint's own)"}, which this site has no name for; it is recorded as fp32.`,
    zh: (p: { dtype: string | null }) => `lm-eval 运行模型用的精度${p.dtype !== null ? `是 ${q(p.dtype)}` : '未写明（即检查点自带的精度）'}，本站没有对应的名称；记为 fp32。`,
  },
  'import.shots-unstated': {
    en: (p: { tasks: readonly string[]; shots: number }) => `The file does not say how many few-shot exemplars ${enList(p.tasks)} used; recorded as ${p.shots}.`,
    zh: (p: { tasks: readonly string[]; shots: number }) => `文件没有写明 ${zhList(p.tasks)} 用了几个少样本示例；记为 ${p.shots}。`,
  },
  /** `shotsPerTask[i]`: the exemplars of `tasks[i]`, `?` where the file does not say. */
  'import.shots-differ': {
    en: (p: { tasks: readonly string[]; shotsPerTask: readonly string[]; shots: number }) =>
      `The harness tasks used different numbers of exemplars (${enList(p.tasks.map((t, i) => `${t}: ${p.shotsPerTask[i]}`))}); the run records the largest, ${p.shots}, and each item its own.`,
    zh: (p: { tasks: readonly string[]; shotsPerTask: readonly string[]; shots: number }) =>
      `各个 lm-eval 任务用的示例数不同（${zhList(p.tasks.map((t, i) => `${t}：${p.shotsPerTask[i]}`))}）；评测记下最大的 ${p.shots}，每道题记下它自己的。`,
  },
  /** The first five samples as `tasks[i]` and `docIds[i]`; `more` when there are others. */
  'import.acc-disagrees': {
    en: (p: { count: number; total: number; tasks: readonly string[]; docIds: readonly number[]; more: boolean }) =>
      `${p.count} of ${p.total} samples have an "acc" that disagrees with the prediction recomputed from their log-likelihoods (argmax against the target): ${enList(p.tasks.map((t, i) => `${t} doc ${p.docIds[i]}`))}${p.more ? ', …' : ''}. The recomputed values are used.`,
    zh: (p: { count: number; total: number; tasks: readonly string[]; docIds: readonly number[]; more: boolean }) =>
      `${p.total} 条逐题记录中有 ${p.count} 条的 "acc" 与由对数似然重新算出的预测（取最大者，与标准答案比较）不符：${zhList(p.tasks.map((t, i) => `${t} 第 ${p.docIds[i]} 条`))}${p.more ? '……' : ''}。采用重新计算的值。`,
  },
  /** `missing`: the first items as `itemId rotation k`; `more`: how many others. */
  'import.lm-eval-rotations-missing': {
    en: (p: { items: number; total: number; missing: readonly string[]; more: number }) =>
      `${p.items} of ${p.total} items lack some of their rotations (${enList(p.missing)}${p.more ? ` and ${p.more} more` : ''}), so the run is not marked circular: its circular numbers count those items as incomplete. Every sample that was there is kept.`,
    zh: (p: { items: number; total: number; missing: readonly string[]; more: number }) =>
      `${p.total} 道题中有 ${p.items} 道缺少部分轮换（${zhList(p.missing)}${p.more ? `，另有 ${p.more} 个` : ''}），因此评测不标为循环评测：循环指标把这些题算作未完成。已有的记录全部保留。`,
  },
  /** A Jiangu export of a sampled run (its tasks' metadata.jiangu.sampling) that the harness ran on other documents than the sample (without --samples, or with --limit). */
  'import.lm-eval-other-sample': {
    en: (p: { draw: string; seed: number; perTask: number | null }) => `The export was of a ${p.draw === 'random' ? `random sample (seed ${p.seed})` : 'first-in-file-order sample'}${p.perTask === null ? '' : ` of ${p.perTask} items per task`}, but the harness ran other documents (run it with --samples jiangu_samples.json, as the export's README says): the run is recorded as the items it has, not as that sample.`,
    zh: (p: { draw: string; seed: number; perTask: number | null }) => `导出的是${p.draw === 'random' ? `随机样本（种子 ${p.seed}）` : '按文件顺序的前几题'}${p.perTask === null ? '' : `，每个任务 ${p.perTask} 题`}，但 lm-eval 运行的是别的文档（请按导出的 README 用 --samples jiangu_samples.json 运行）：本次评测按实际包含的题目记录，而不是那个样本。`,
  },
  'import.prompt-hash-disagrees': {
    en: (p: { count: number }) => `${p.count} samples have a prompt_hash that is not the sha256 of their prompt; the hash of the prompt is used.`,
    zh: (p: { count: number }) => `有 ${p.count} 条逐题记录的 prompt_hash 不是其提示词的 sha256；采用提示词的哈希。`,
  },
};

export const importNotices = { ...inFile(importRefusals), ...importWarnings };
