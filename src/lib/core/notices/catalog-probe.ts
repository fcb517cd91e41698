// Messages of memorization runs (issue 26): what a run could not test, and why. Each in English and Chinese.
import type { NoticeTexts } from './notice.ts';

export const probeNotices = {
  'probe.file-too-small': {
    en: (p: { tasks: string }) =>
      `The file-order test needs at least 4 items in a task (two shards of two, each with an order of its own to compare); these tasks have fewer in this run and are not tested: ${p.tasks}. Their items are still scored.`,
    zh: (p: { tasks: string }) => `文件顺序检验要求一个任务至少有 4 道题（两个分片，每片两题，才有别的顺序可比）；本次评测中以下任务的题目不够，不做检验：${p.tasks}。这些题目照样逐题打分。`,
  },
  'probe.not-stored': {
    en: (p: { runId: string }) => `No memorization run ${p.runId} is stored in this browser. It may have been deleted, or made in another browser.`,
    zh: (p: { runId: string }) => `本浏览器中没有记忆检测 ${p.runId}。它可能已被删除，或是在别的浏览器中做的。`,
  },
  'probe.list-failed': {
    en: (p: { detail: string }) => `The memorization runs stored in this browser could not be listed (${p.detail}). Nothing stored was changed: try again, or reload the page.`,
    zh: (p: { detail: string }) => `无法列出本浏览器中保存的记忆检测（${p.detail}）。已保存的内容没有改变：请重试，或刷新页面。`,
  },
} satisfies NoticeTexts;
