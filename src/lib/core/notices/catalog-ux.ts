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
  'ux.no-tasks-chosen': {
    en: () => 'Choose at least one task to start a run.',
    zh: () => '请至少选择一个任务再开始评测。',
  },
};
