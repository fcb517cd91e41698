// Messages of the Evaluate and Compare pages ('ux.*', 'compare.*'): each in English and Chinese.
// Dataset titles come as parameters (the page looks them up in the catalog): notices know no catalog.

type Kind = 'multiple-choice' | 'generation';
const kindEn = (k: Kind) => (k === 'multiple-choice' ? 'multiple-choice' : 'generation');
const kindZh = (k: Kind) => (k === 'multiple-choice' ? '选择题' : '生成题');

export const uxNotices = {
  'compare.link-empty': {
    en: () => 'Paste a share link (…#/shared/…) or its payload into the box first.',
    zh: () => '请先在输入框中粘贴分享链接（…#/shared/…）或其内容。',
  },
  'compare.link-already-added': {
    en: () => 'This link is already in the comparison: each run can be chosen once.',
    zh: () => '这个链接已经在比较中：每次评测只能选择一次。',
  },
  'compare.link-other-benchmark': {
    en: (p: { title: string; kind: Kind; referenceTitle: string; referenceKind: Kind }) =>
      `This link is a ${p.title} ${kindEn(p.kind)} run; the comparison holds ${p.referenceTitle} ${kindEn(p.referenceKind)} runs only. Start a new comparison for it, or choose another baseline.`,
    zh: (p: { title: string; kind: Kind; referenceTitle: string; referenceKind: Kind }) =>
      `这个链接是 ${p.title} ${kindZh(p.kind)}评测；当前比较只包含 ${p.referenceTitle} ${kindZh(p.referenceKind)}评测。请为它另开一次比较，或换一个基准。`,
  },
  'compare.run-other-benchmark': {
    en: (p: { referenceTitle: string; referenceKind: Kind }) =>
      `Only ${p.referenceTitle} ${kindEn(p.referenceKind)} runs can join this comparison (the baseline's benchmark and kind).`,
    zh: (p: { referenceTitle: string; referenceKind: Kind }) => `只能加入 ${p.referenceTitle} ${kindZh(p.referenceKind)}评测（与基准相同的评测集和题型）。`,
  },
  'compare.runs-not-stored': {
    en: (p: { ids: readonly string[] }) => `Not stored in this browser (deleted, or made in another browser), so left out: ${p.ids.join(', ')}. Import their run files on the Evaluate page to compare them.`,
    zh: (p: { ids: readonly string[] }) => `这个浏览器里没有这些评测（已被删除，或是在别的浏览器中做的），已略去：${p.ids.join('、')}。可在“评测”页导入它们的评测文件后再比较。`,
  },
  'compare.paired-no-order': {
    en: () => 'This run was not asked in a random order (it predates random samples, or asked its items task by task), so another model cannot be run on its sample with a paired stop.',
    zh: () => '这次评测不是按随机顺序提问的（早于随机抽样，或按任务逐个提问），因此不能让另一个模型在它的样本上运行并按配对差值停止。',
  },
  'compare.paired-other-items': {
    en: () => 'The new run would not ask the same items in the same order as the baseline here (the stored data may differ), so it was not started.',
    zh: () => '新评测在此处不会按与基准相同的顺序提问相同的题目（存储的数据可能不同），因此没有开始。',
  },
  'ux.no-tasks-chosen': {
    en: () => 'Choose at least one task to start a run.',
    zh: () => '请至少选择一个任务再开始评测。',
  },
};
