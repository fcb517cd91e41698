// The wording of what an import expected in a field and what it found there: the Expected and Found
// values that `import.field-wrong` (import-validate.ts's `fail`) carries, and their English and Chinese
// sentences, with the place and list helpers the import messages share. It is apart from
// catalog-import.ts, which holds the import refusals and warnings themselves, because these field
// expectations are a vocabulary of their own that grows with every format the site reads.

export const q = (s: string): string => JSON.stringify(s);
export const enList = (xs: readonly (string | number)[]): string => xs.join(', ');
export const zhList = (xs: readonly (string | number)[]): string => xs.join('、');

/**
 * Where in the file, in Chinese. Paths are the file's own names and stay as they are; the few
 * words our readers put around them (a JSON Lines line, a summary key, the prompt) are translated.
 */
export function zhPlace(path: string): string {
  return path
    .replace(/^line (\d+):? ?/, (_, n: string) => `第 ${n} 行 `)
    .replace(/ key (".*")$/, ' 的键 $1')
    .replace(/ \(prompt\)$/, '（提示词）')
    .trimEnd();
}

/** What a field should have held. */
export type Expected =
  | { expected: 'object' | 'value' | 'string' | 'non-empty-string' | 'sha256' | 'git-commit-or-null' | 'iso-date' | 'boolean' | 'list' | 'warning' }
  | { expected: 'option-letters' | 'references' | 'doc-index' | 'responses' | 'two-to-four-choices' | 'loglik-shape' | 'loglik-greedy' | 'loglik' | 'zero-or-one' | 'sample-list' }
  | { expected: 'integer'; min: number; max: number }
  /** null: no bound on that side. */
  | { expected: 'finite'; min: number | null; max: number | null }
  | { expected: 'one-of'; set: readonly string[] }
  | { expected: 'letter-or-null'; letters: readonly string[] }
  | { expected: 'protocol-of-dataset'; protocolId: string; datasetId: string }
  | { expected: 'run-id'; runId: string }
  /** The value of another field (`sameAs`, a path). */
  | { expected: 'same-as'; value: string; sameAs: string }
  /** The run's tasks, the first ten; `moreTasks` when it has more. */
  | { expected: 'run-task'; tasks: readonly string[]; moreTasks: boolean }
  | { expected: 'item-position'; position: number; itemId: string }
  | { expected: 'per-letter'; count: number; orNone: boolean }
  | { expected: 'highest-letter'; letter: string }
  | { expected: 'correct-from'; correct: boolean | null; prediction: string | null; gold: string | null }
  | { expected: 'generation-task-of'; generationTask: string; datasetId: string; task: string }
  | { expected: 'gold-choice'; choices: number; lastLetter: string }
  | { expected: 'choice-letter'; choice: string }
  /** A circular run's rotation numbers: 1, 2, … in order after the item itself (rotation 0). */
  | { expected: 'rotation-number'; rotation: number; itemId: string }
  | { expected: 'rotated-gold'; gold: string | null; rotation: number }
  | { expected: 'estimation-set'; seed: number; share: number }
  /** A derived list: the softmax over the letters of the list at `of` (a path), `value` its entries as recomputed. */
  | { expected: 'softmax-of'; of: string; value: string }
  /** A date between two (a memorization run file's: not before 2023, not after the import). */
  | { expected: 'date-between'; earliest: string; latest: string }
  /** An item of the benchmark as this browser stores it (a memorization run file's item ids). */
  | { expected: 'stored-item'; datasetId: string; task: string };

/** What a field held instead, briefly (import-validate.ts describe). */
export type Found =
  | { found: 'missing' | 'null' | 'object' }
  | { found: 'list'; length: number }
  /** `quoted`: JSON-quoted, at most 40 characters of it; `cut` when the string is longer. */
  | { found: 'string'; quoted: string; length: number; cut: boolean }
  /** An object, with its first field names (quoted); `moreFields` when it has more. */
  | { found: 'fields'; fields: readonly string[]; moreFields: boolean }
  /** A number, a boolean, or a bare NaN/Infinity, as written. */
  | { found: 'other'; text: string };

const bounds = {
  en: (min: number | null, max: number | null) =>
    min !== null && max !== null ? `a finite number from ${min} to ${max}` : min !== null ? `a finite number ≥ ${min}` : max !== null ? `a finite number ≤ ${max}` : 'a finite number',
  zh: (min: number | null, max: number | null) =>
    min !== null && max !== null ? `${min} 到 ${max} 之间的有限数` : min !== null ? `≥ ${min} 的有限数` : max !== null ? `≤ ${max} 的有限数` : '有限数',
};

export const expectedText = {
  en(e: Expected): string {
    switch (e.expected) {
      case 'object': return 'an object';
      case 'value': return 'a value';
      case 'string': return 'a string';
      case 'non-empty-string': return 'a non-empty string';
      case 'sha256': return '64 lower-case hex digits (a sha256)';
      case 'git-commit-or-null': return '40 lower-case hex digits (a git commit) or null';
      case 'iso-date': return 'an ISO 8601 date-time';
      case 'boolean': return 'true or false';
      case 'list': return 'a list';
      case 'warning': return 'a warning: a string, or a notice with a code and parameters';
      case 'option-letters': return '2 to 4 option letters';
      case 'references': return 'at least one reference';
      case 'doc-index': return 'a document index (an integer from 0 to 199,999: no task has more documents)';
      case 'responses': return 'a list with one log-likelihood per choice (filtered_resps or resps)';
      case 'two-to-four-choices': return '2 to 4 choices (this site reads letter-choice tasks)';
      case 'loglik-shape': return 'a log-likelihood: a number, [loglik, is_greedy] or [[loglik, is_greedy]]';
      case 'loglik-greedy': return "[loglik, is_greedy] or [[loglik, is_greedy]] (an option-text task's response: its log-likelihood and whether every token was the greedy one)";
      case 'loglik': return 'a log-likelihood (≤ 0)';
      case 'zero-or-one': return '0 or 1';
      case 'sample-list': return 'a list of per-sample records';
      case 'integer': return `an integer from ${e.min} to ${e.max}`;
      case 'finite': return bounds.en(e.min, e.max);
      case 'one-of': return `one of ${enList(e.set)}`;
      case 'letter-or-null': return `one of ${enList(e.letters)} or null`;
      case 'protocol-of-dataset': return `${q(e.protocolId)} (the protocol of dataset ${e.datasetId})`;
      case 'run-id': return `${q(e.runId)} (the run's id)`;
      case 'same-as': return `${q(e.value)} (${e.sameAs})`;
      case 'run-task': return `one of the run's tasks (${enList(e.tasks)}${e.moreTasks ? ', …' : ''})`;
      case 'item-position': return `${e.position} (the position of ${e.itemId} in run.config.itemIds)`;
      case 'per-letter': return `${e.count} entries (one per letter)${e.orNone ? ' or none' : ''}`;
      case 'highest-letter': return `${q(e.letter)} (the letter with the highest log-probability)`;
      case 'correct-from': return `${e.correct} (prediction ${e.prediction ?? 'none'}, gold ${e.gold ?? 'none'})`;
      case 'generation-task-of': return `${q(e.generationTask)} (how ${e.datasetId}'s task ${e.task} is scored)`;
      case 'gold-choice': return `the gold choice as a 0-based index below ${e.choices} or a letter A–${e.lastLetter}`;
      case 'choice-letter': return `the choice ${q(e.choice)} (this site reads tasks whose choices are the letters A–D in order)`;
      case 'rotation-number': return `${e.rotation} (the rotations of ${e.itemId} are numbered 1, 2, … in order)`;
      case 'rotated-gold': return `${e.gold ?? 'null'} (the item's gold letter moved by rotation ${e.rotation})`;
      case 'estimation-set': return `the items seed ${e.seed} draws at share ${e.share}, in run order`;
      case 'softmax-of': return `[${e.value}] (the softmax of ${e.of} over the letters, which this list is computed from)`;
      case 'date-between': return `an ISO date from ${e.earliest} to ${e.latest}`;
      case 'stored-item': return `an item of ${e.task} in ${e.datasetId} as stored in this browser`;
    }
  },
  zh(e: Expected): string {
    switch (e.expected) {
      case 'object': return '一个对象';
      case 'value': return '一个值';
      case 'string': return '字符串';
      case 'non-empty-string': return '非空字符串';
      case 'sha256': return '64 位小写十六进制数字（sha256）';
      case 'git-commit-or-null': return '40 位小写十六进制数字（git 提交）或 null';
      case 'iso-date': return 'ISO 8601 日期时间';
      case 'boolean': return 'true 或 false';
      case 'list': return '列表';
      case 'warning': return '一条警告：字符串，或带代码和参数的提示';
      case 'option-letters': return '2 到 4 个选项字母';
      case 'references': return '至少一个参考答案';
      case 'doc-index': return '文档序号（0 到 199,999 之间的整数：没有任务的文档比这更多）';
      case 'responses': return '每个选项一个对数似然的列表（filtered_resps 或 resps）';
      case 'two-to-four-choices': return '2 到 4 个选项（本站只读字母选择题）';
      case 'loglik-shape': return '对数似然：一个数、[loglik, is_greedy] 或 [[loglik, is_greedy]]';
      case 'loglik-greedy': return '[loglik, is_greedy] 或 [[loglik, is_greedy]]（选项文本任务的回应：对数似然，以及每个词元是否都是贪心选择）';
      case 'loglik': return '对数似然（≤ 0）';
      case 'zero-or-one': return '0 或 1';
      case 'sample-list': return '逐题记录的列表';
      case 'integer': return `${e.min} 到 ${e.max} 之间的整数`;
      case 'finite': return bounds.zh(e.min, e.max);
      case 'one-of': return `${zhList(e.set)} 之一`;
      case 'letter-or-null': return `${zhList(e.letters)} 之一或 null`;
      case 'protocol-of-dataset': return `${q(e.protocolId)}（数据集 ${e.datasetId} 的协议）`;
      case 'run-id': return `${q(e.runId)}（本次评测的 ID）`;
      case 'same-as': return `${q(e.value)}（与 ${e.sameAs} 相同）`;
      case 'run-task': return `本次评测的任务之一（${zhList(e.tasks)}${e.moreTasks ? '……' : ''}）`;
      case 'item-position': return `${e.position}（${e.itemId} 在 run.config.itemIds 中的位置）`;
      case 'per-letter': return `${e.count} 项（每个字母一项）${e.orNone ? '或空列表' : ''}`;
      case 'highest-letter': return `${q(e.letter)}（对数概率最高的字母）`;
      case 'correct-from': return `${e.correct}（预测 ${e.prediction ?? '无'}，标准答案 ${e.gold ?? '无'}）`;
      case 'generation-task-of': return `${q(e.generationTask)}（${e.datasetId} 的任务 ${e.task} 的评分方式）`;
      case 'gold-choice': return `标准答案：小于 ${e.choices} 的序号（从 0 起）或字母 A–${e.lastLetter}`;
      case 'choice-letter': return `选项 ${q(e.choice)}（本站只读选项依次为字母 A–D 的任务）`;
      case 'rotation-number': return `${e.rotation}（${e.itemId} 的轮换须按 1、2……依次编号）`;
      case 'rotated-gold': return `${e.gold ?? 'null'}（题目的标准答案经第 ${e.rotation} 种轮换后的字母）`;
      case 'estimation-set': return `随机种子 ${e.seed} 按比例 ${e.share} 抽出的题目（按评测顺序）`;
      case 'softmax-of': return `[${e.value}]（由 ${e.of} 在各字母上归一化得到的概率，此列表由它算出）`;
      case 'date-between': return `${e.earliest} 到 ${e.latest} 之间的日期时间`;
      case 'stored-item': return `本浏览器所存 ${e.datasetId} 中任务 ${e.task} 的题目`;
    }
  },
};

export const foundText = {
  en(f: Found): string {
    switch (f.found) {
      case 'missing': return 'nothing (the field is missing)';
      case 'null': return 'null';
      case 'object': return 'an object';
      case 'list': return `a list of ${f.length}`;
      case 'string': return f.cut ? `${f.quoted}… (${f.length} characters)` : f.quoted;
      case 'fields': return `an object with the fields ${enList(f.fields)}${f.moreFields ? ', …' : ''}`;
      case 'other': return f.text;
    }
  },
  zh(f: Found): string {
    switch (f.found) {
      case 'missing': return '空（缺少这个字段）';
      case 'null': return 'null';
      case 'object': return '一个对象';
      case 'list': return `含 ${f.length} 项的列表`;
      case 'string': return f.cut ? `${f.quoted}…（共 ${f.length} 个字符）` : f.quoted;
      case 'fields': return `含字段 ${zhList(f.fields)}${f.moreFields ? '……' : ''} 的对象`;
      case 'other': return f.text;
    }
  },
};
