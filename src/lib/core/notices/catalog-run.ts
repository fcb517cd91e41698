// Messages of the run area, by code ('run.<what-happened>'): each in English and Chinese. Raised by
// run setup, the run scheduler and the protocols; stored in run records as warnings, errors and the
// reasons items failed.

export const runNotices = {
  'run.imported-before': {
    en: (p: { copies: number; firstImportedAt: string }) =>
      `The same file was imported before (${p.copies === 1 ? 'one other copy' : `${p.copies} other copies`}, the first on ${p.firstImportedAt.slice(0, 10)}): this run is one more copy of it, with the same numbers.`,
    zh: (p: { copies: number; firstImportedAt: string }) => `同一个文件之前已导入过（另有 ${p.copies} 份，第一份导入于 ${p.firstImportedAt.slice(0, 10)}）：这次评测是它的又一份副本，数字相同。`,
  },
  'run.stored-with-other-results': {
    en: (p: { copies: number; firstAt: string }) =>
      `This run is stored here already (${p.copies === 1 ? 'one copy' : `${p.copies} copies`}, the first from ${p.firstAt.slice(0, 10)}) with other results: this file is stored beside it as another copy. Its numbers are this file's; compare the two to see what differs.`,
    zh: (p: { copies: number; firstAt: string }) => `本浏览器已存有这次评测（${p.copies} 份，第一份来自 ${p.firstAt.slice(0, 10)}），但结果不同：此文件另存为一份副本，其数字按此文件计算；可比较两者，看哪里不同。`,
  },
  'run.questions-replaced': {
    en: (p: { dataset: string }) =>
      `The stored copy of ${p.dataset} was replaced by other files after this run: its numbers are as it was asked, but the questions shown now (item detail, classroom) come from the new copy, and items it no longer has are not shown. Import the file this run was made on to see its own questions.`,
    zh: (p: { dataset: string }) =>
      `本次评测之后，本地的 ${p.dataset} 副本已被其他文件替换：评测的数字仍按当时的题目计算，但现在显示的题目（逐题详情、课堂模式）取自新副本，新副本中没有的题不再显示。要看本次评测自己的题目，请导入它所用的文件。`,
  },
  'run.classroom-questions-replaced': {
    en: (p: { dataset: string }) =>
      `This run's questions are no longer in this browser: the stored copy of ${p.dataset} was replaced by other files. Import the file the run was made on (Data page), then open classroom mode again.`,
    zh: (p: { dataset: string }) => `本浏览器中已没有这次评测的题目：本地的 ${p.dataset} 副本已被其他文件替换。请在“数据”页导入这次评测所用的文件，再打开课堂模式。`,
  },
  'run.not-stored': {
    en: (p: { runId: string }) => `No run ${p.runId} is stored in this browser: it was deleted, or made in another browser (import its run file to see it here).`,
    zh: (p: { runId: string }) => `这个浏览器里没有存储评测记录 ${p.runId}：它已被删除，或是在别的浏览器中做的（导入它的评测文件即可在这里查看）。`,
  },
  'run.list-failed': {
    en: (p: { detail: string }) => `The runs stored in this browser could not be listed (${p.detail}). Nothing stored was changed: try again, or reload the page.`,
    zh: (p: { detail: string }) => `无法列出本浏览器中保存的评测（${p.detail}）。已保存的内容没有改变：请重试，或刷新页面。`,
  },
  'run.locked': {
    en: () => 'This run is already running in another tab or window. Close it there, or wait for it to finish.',
    zh: () => '这个评测已在另一个标签页或窗口中运行。请在那里关闭它，或等它结束。',
  },
  'run.items-missing': {
    en: (p: { count: number; first: string; datasetId: string }) =>
      `${p.count} ${p.count === 1 ? 'item' : 'items'} of this run ${p.count === 1 ? 'is' : 'are'} no longer stored (e.g. ${p.first}): download ${p.datasetId} again on the Data page, then resume.`,
    zh: (p: { count: number; first: string; datasetId: string }) => `这个评测有 ${p.count} 题已不在本地存储中（例如 ${p.first}）：请在“数据”页重新下载 ${p.datasetId}，然后继续。`,
  },
  'run.no-items': {
    en: (p: { kind: string }) => `No ${p.kind} items in the chosen tasks. Choose other tasks, or another split.`,
    zh: (p: { kind: string }) => `所选任务中没有${p.kind === 'generation' ? '生成' : '选择'}题。请换别的任务或数据划分。`,
  },
  'run.dataset-not-stored': {
    en: (p: { datasetId: string }) => `${p.datasetId} is not stored: download or import it on the Data page first.`,
    zh: (p: { datasetId: string }) => `${p.datasetId} 尚未存储：请先在“数据”页下载或导入。`,
  },
  'run.shots-capped': {
    en: (p: { protocol: string; max: number; shots: number }) => `${p.protocol} allows at most ${p.max} shots; the run uses ${p.shots}.`,
    zh: (p: { protocol: string; max: number; shots: number }) => `${p.protocol} 最多允许 ${p.max} 个样例；本次评测使用 ${p.shots} 个。`,
  },
  'run.wenmind-judge': {
    en: () => 'WenMind grades with an LLM judge; these are C3Bench-style metrics on its matching tasks.',
    zh: () => 'WenMind 原本由大模型评判打分；这里是在其对应任务上按 C3Bench 方式计算的指标。',
  },
  'run.letter-multi-token': {
    en: (p: { letter: string; tokenCount: number; tokenId: number }) =>
      `The letter ${p.letter} is ${p.tokenCount} tokens for this tokenizer; only its first token (${p.tokenId}) is scored.`,
    zh: (p: { letter: string; tokenCount: number; tokenId: number }) => `字母 ${p.letter} 在这个分词器中是 ${p.tokenCount} 个词元；只对其第一个词元（${p.tokenId}）打分。`,
  },
  'run.letter-merges': {
    en: (p: { letter: string; tokenId: number }) =>
      `The letter ${p.letter} merges with the prompt's last token when written after it; the scored token ${p.tokenId} is the letter on its own.`,
    zh: (p: { letter: string; tokenId: number }) => `字母 ${p.letter} 紧跟在提示词后时会与最后一个词元合并；打分的词元 ${p.tokenId} 是单独的字母。`,
  },
  'run.item-too-long': {
    en: (p: { itemId: string; tokens: number; limit: number }) =>
      `Item ${p.itemId} is too long for the model: its prompt has ${p.tokens} tokens even with no exemplars, over the ${p.limit}-token context limit. It was not run.`,
    zh: (p: { itemId: string; tokens: number; limit: number }) => `题目 ${p.itemId} 对这个模型来说太长：即使不带示例，其提示词也有 ${p.tokens} 个词元，超过 ${p.limit} 个词元的上下文上限。未运行此题。`,
  },
  'run.items-failed': {
    en: (p: { count: number }) => `${p.count} ${p.count === 1 ? 'item' : 'items'} could not be run (too long for the model, or the model failed on ${p.count === 1 ? 'it' : 'them'}): counted apart, not scored.`,
    zh: (p: { count: number }) => `有 ${p.count} 题无法运行（对模型来说太长，或模型在其上出错）：单独计数，不计分。`,
  },
  'run.worker-died': {
    en: (p: { itemId: string; detail: string }) =>
      `The model worker stopped while running item ${p.itemId} (${p.detail}). Everything before it is kept: Resume starts a new worker and goes on from this item.`,
    zh: (p: { itemId: string; detail: string }) => `运行题目 ${p.itemId} 时模型工作线程停止了（${p.detail}）。之前的结果都已保存：点“继续”会启动新的工作线程，从这题接着运行。`,
  },
  'run.item-options': {
    en: (p: { protocol: string; role: string; itemId: string; options: number; max: number }) =>
      `Protocol "${p.protocol}": ${p.role} ${p.itemId} has ${p.options} options; expected 2 to ${p.max}. Check this item in the data file.`,
    zh: (p: { protocol: string; role: string; itemId: string; options: number; max: number }) =>
      `评测协议“${p.protocol}”：${p.role === 'exemplar' ? '示例' : '题目'} ${p.itemId} 有 ${p.options} 个选项，应为 2 到 ${p.max} 个。请检查数据文件中的这一题。`,
  },
  'run.exemplar-task': {
    en: (p: { protocol: string; exemplarId: string; exemplarTask: string; itemId: string; itemTask: string }) =>
      `Protocol "${p.protocol}": exemplar ${p.exemplarId} is from task "${p.exemplarTask}", the item ${p.itemId} from "${p.itemTask}".`,
    zh: (p: { protocol: string; exemplarId: string; exemplarTask: string; itemId: string; itemTask: string }) =>
      `评测协议“${p.protocol}”：示例 ${p.exemplarId} 属于任务“${p.exemplarTask}”，而题目 ${p.itemId} 属于“${p.itemTask}”。`,
  },
  'run.exemplar-split': {
    en: (p: { protocol: string; exemplarId: string; split: string }) => `Protocol "${p.protocol}": exemplar ${p.exemplarId} is a ${p.split} item; exemplars come from the dev split.`,
    zh: (p: { protocol: string; exemplarId: string; split: string }) => `评测协议“${p.protocol}”：示例 ${p.exemplarId} 是 ${p.split} 划分的题；示例只取自 dev 划分。`,
  },
  'run.exemplar-no-answer': {
    en: (p: { protocol: string; exemplarId: string }) => `Protocol "${p.protocol}": exemplar ${p.exemplarId} has no answer, so it cannot show one. Check the dev split of the data file.`,
    zh: (p: { protocol: string; exemplarId: string }) => `评测协议“${p.protocol}”：示例 ${p.exemplarId} 没有答案，无法作示范。请检查数据文件的 dev 划分。`,
  },
  'run.interrupted': {
    en: () => 'Interrupted: the run was stopped (the tab was closed or reloaded) and no tab is running it now. Resume goes on from the next item.',
    zh: () => '已中断：评测被停下（标签页被关闭或重新加载），现在没有标签页在运行它。点“继续”会从下一题接着运行。',
  },
  'run.running-elsewhere': {
    en: () => 'Running in another tab or window.',
    zh: () => '正在另一个标签页或窗口中运行。',
  },
  /** Beside a disabled Resume (and as its title): the run's lock is held by another tab. */
  'run.resume-elsewhere': {
    en: () => 'This run is running in another tab or window: Resume is possible here once it stops there.',
    zh: () => '这个评测正在另一个标签页或窗口中运行：等它在那里停下后，才能在这里继续。',
  },
  /**
   * The browser's storage quota (store/errors.ts isQuotaError), each saying what was not saved and
   * what is safe: the browser's own error says nothing (Chromium's message is empty).
   */
  'run.storage-full-start': {
    en: () =>
      'Not enough browser storage to start this run: nothing was stored, and your stored runs and benchmarks are unchanged. Delete old runs (Evaluate page) or datasets (Data page) to make room, then start it again.',
    zh: () => '浏览器存储空间不足，无法开始这次评测：没有保存任何内容，已存储的评测和数据集都没有改变。请删除旧的评测（“评测”页）或数据集（“数据”页）腾出空间，然后重新开始。',
  },
  /** A write while the run goes on: `itemId` the result refused, null for the run's own record (its status, environment, …). */
  'run.storage-full': {
    en: (p: { itemId: string | null }) =>
      `Not enough browser storage to save ${p.itemId === null ? 'this run’s progress' : `the result of item ${p.itemId}`}: the run stopped there and ${p.itemId === null ? 'that' : 'that result'} was not saved. Every result saved before it is kept, and your other runs and benchmarks are unchanged. Delete old runs (Evaluate page) or datasets (Data page) to make room, then Resume goes on from there.`,
    zh: (p: { itemId: string | null }) =>
      `浏览器存储空间不足，无法保存${p.itemId === null ? '这次评测的进度' : `题目 ${p.itemId} 的结果`}：评测在此停止，这一${p.itemId === null ? '进度' : '结果'}没有保存。之前保存的结果都还在，其他评测和数据集也没有改变。请删除旧的评测（“评测”页）或数据集（“数据”页）腾出空间，然后点“继续”从那里接着运行。`,
  },
  'run.label-storage-full': {
    en: () =>
      'Not enough browser storage to save the label: the label was not saved, and the run and its results are unchanged. Delete old runs (Evaluate page) or datasets (Data page) to make room, then save it again.',
    zh: () => '浏览器存储空间不足，无法保存标签：标签没有保存，这次评测及其结果都没有改变。请删除旧的评测（“评测”页）或数据集（“数据”页）腾出空间，然后再保存一次。',
  },
  'run.pride-needs-logits': {
    en: (p: { scoring: string }) => `PriDe debiasing needs the letters' log-probabilities; this run's scoring is ${p.scoring}. Choose letter log-probabilities, or leave PriDe off.`,
    zh: (p: { scoring: string }) => `PriDe 去偏需要各选项字母的对数概率；本次评测的评分方式是 ${p.scoring}。请改用字母对数概率评分，或不用 PriDe。`,
  },
  'run.circular-needs-letters': {
    en: () => 'Circular evaluation rotates the lettered options, but option-text (cloze) scoring never shows the options to the model, so every rotation would score the same. Choose letter scoring for a circular run, or leave circular off.',
    zh: () => '循环评测会轮换带字母的选项，而选项文本（完形）评分从不把选项给模型看，每种轮换的得分都一样。要做循环评测请选字母评分，或者关闭循环评测。',
  },
  'run.pride-share': {
    en: (p: { share: string }) => `PriDe's estimation share must be above 0 and at most 1; got ${p.share}.`,
    zh: (p: { share: string }) => `PriDe 估计集的比例必须大于 0 且不超过 1；收到的是 ${p.share}。`,
  },
  'run.pride-seed': {
    en: (p: { seed: string }) => `PriDe's seed must be a whole number from 0 to 4294967295; got ${p.seed}.`,
    zh: (p: { seed: string }) => `PriDe 的随机种子必须是 0 到 4294967295 之间的整数；收到的是 ${p.seed}。`,
  },
  'run.sampling-seed': {
    en: (p: { seed: string }) => `The sample's seed must be a whole number from 0 to 4294967295; got ${p.seed}.`,
    zh: (p: { seed: string }) => `抽样的随机种子必须是 0 到 4294967295 之间的整数；收到的是 ${p.seed}。`,
  },
  'run.unreadable': {
    en: (p: { runId: string; createdAt: string | null }) =>
      `The stored run ${p.runId}${p.createdAt ? ` (started ${p.createdAt.slice(0, 16).replace('T', ' ')})` : ''} cannot be shown: its record is damaged. Export its raw record to keep it, or delete it; nothing else is affected.`,
    zh: (p: { runId: string; createdAt: string | null }) =>
      `存储的评测 ${p.runId}${p.createdAt ? `（开始于 ${p.createdAt.slice(0, 16).replace('T', ' ')}）` : ''}无法显示：它的记录已损坏。可以导出它的原始记录保存，或删除它；其他内容不受影响。`,
  },
  'run.render-failed': {
    en: (p: { detail: string }) => `What went wrong: ${p.detail}`,
    zh: (p: { detail: string }) => `出错原因：${p.detail}`,
  },
  'run.label-too-long': {
    en: (p: { max: number; length: number }) => `A label may have at most ${p.max} characters; this one has ${p.length}.`,
    zh: (p: { max: number; length: number }) => `标签最多 ${p.max} 个字符；这个有 ${p.length} 个。`,
  },
  'run.label-control-character': {
    en: (p: { position: number }) => `A label may not hold an invisible or direction character (found at position ${p.position}).`,
    zh: (p: { position: number }) => `标签中不能有不可见字符或方向控制字符（位于第 ${p.position} 个字符）。`,
  },
  'run.already-stored': {
    en: (p: { fileName: string; runId: string; createdAt: string }) =>
      `${p.fileName}: this run is already stored here, with the same results (run ${p.runId}, started ${p.createdAt.slice(0, 16).replace('T', ' ')}); nothing new was stored.`,
    zh: (p: { fileName: string; runId: string; createdAt: string }) =>
      `${p.fileName}：这次评测已存储在这里，结果相同（评测 ${p.runId}，开始于 ${p.createdAt.slice(0, 16).replace('T', ' ')}）；没有存储新的内容。`,
  },
  'run.classroom-dataset-not-stored': {
    en: (p: { dataset: string }) =>
      `This run's questions are not in this browser: ${p.dataset} is not stored here (it was deleted, or the run was imported without it). The run and its numbers are kept; download or import ${p.dataset} on the Data page, then open classroom mode again.`,
    zh: (p: { dataset: string }) => `本浏览器中没有这次评测的题目：这里没有存储 ${p.dataset}（它已被删除，或导入评测时没有它）。评测及其数字仍保留；请在“数据”页下载或导入 ${p.dataset}，再打开课堂模式。`,
  },
};
