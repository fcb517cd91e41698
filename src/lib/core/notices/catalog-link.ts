// Messages of the link area, by code ('link.<what-happened>'): each in English and Chinese. They cover
// the share-link codec (a link is untrusted input: each message names the field and what was
// expected), the hosts a link or a URL parameter asks the page to contact, reproducing a shared run,
// classroom mode and the playground.

type Field = { path: string };

export const linkNotices = {
  // The share-link codec.
  'link.empty': {
    en: () => 'The link is empty: nothing follows #/shared/.',
    zh: () => '链接是空的：#/shared/ 后面什么也没有。',
  },
  'link.payload-too-long': {
    en: (p: { chars: number; max: number }) => `The link payload is ${p.chars} characters; the most is ${p.max}.`,
    zh: (p: { chars: number; max: number }) => `链接内容有 ${p.chars} 个字符，最多 ${p.max} 个。`,
  },
  'link.base64-length': {
    en: (p: { chars: number }) => `The link is not valid base64url: its length (${p.chars}) cannot come from any bytes; it was probably cut off when copied.`,
    zh: (p: { chars: number }) => `链接不是有效的 base64url：长度 ${p.chars} 不可能由任何字节得到，可能复制时被截断了。`,
  },
  'link.base64-char': {
    en: (p: { char: string; at: number }) => `The link is not valid base64url: character ${p.char} at position ${p.at} is not one of A–Z a–z 0–9 - _.`,
    zh: (p: { char: string; at: number }) => `链接不是有效的 base64url：第 ${p.at} 位的字符 ${p.char} 不属于 A–Z a–z 0–9 - _。`,
  },
  'link.inflates-too-big': {
    en: (p: { max: number }) => `The link inflates to more than ${p.max} bytes, the most a share link may hold.`,
    zh: (p: { max: number }) => `链接解压后超过 ${p.max} 字节，超出分享链接的上限。`,
  },
  'link.bad-deflate': {
    en: () => 'The link is not valid deflate data: it is truncated or corrupted (was all of it copied?).',
    zh: () => '链接不是有效的 deflate 数据：已被截断或损坏（是否完整复制了？）。',
  },
  'link.frame-too-short': {
    en: (p: { bytes: number }) => `The link's data is ${p.bytes} bytes, too short for even its version and header length.`,
    zh: (p: { bytes: number }) => `链接数据只有 ${p.bytes} 字节，连版本号和头部长度都放不下。`,
  },
  'link.header-too-big': {
    en: (p: { bytes: number; max: number }) => `The link's header is ${p.bytes} bytes; the most is ${p.max}.`,
    zh: (p: { bytes: number; max: number }) => `链接头部有 ${p.bytes} 字节，最多 ${p.max} 字节。`,
  },
  'link.header-cut': {
    en: (p: { bytes: number; follow: number }) => `The link's header says ${p.bytes} bytes but only ${p.follow} follow.`,
    zh: (p: { bytes: number; follow: number }) => `链接头部声明 ${p.bytes} 字节，但后面只有 ${p.follow} 字节。`,
  },
  'link.version': {
    en: (p: { version: number; supported: number }) => `The link has format version ${p.version}; this page reads version ${p.supported} only (it may come from a newer Jiangu).`,
    zh: (p: { version: number; supported: number }) => `链接的格式版本为 ${p.version}；本页只能读取版本 ${p.supported}（它可能来自更新的鉴古）。`,
  },
  'link.header-not-json': {
    en: () => 'The link inflates correctly but its header is not valid UTF-8 JSON.',
    zh: () => '链接能解压，但其头部不是有效的 UTF-8 JSON。',
  },
  'link.unreadable': {
    en: (p: { detail: string }) => `The link could not be read: ${p.detail}`,
    zh: (p: { detail: string }) => `无法读取链接：${p.detail}`,
  },
  'link.field-invalid': {
    en: (p: Field & { found: string; expected: string }) => `The link's field \`${p.path}\` is ${p.found}; expected ${p.expected}.`,
    zh: (p: Field & { found: string; expected: string }) => `链接字段 \`${p.path}\` 的值是 ${p.found}；应为 ${p.expected}。`,
  },
  'link.field-unknown': {
    en: (p: Field & { key: string; known: string[] }) => `The link's field \`${p.path}\` has an unknown field ${p.key}; this version knows ${p.known.join(', ')}.`,
    zh: (p: Field & { key: string; known: string[] }) => `链接字段 \`${p.path}\` 含有未知字段 ${p.key}；此版本只认识 ${p.known.join('、')}。`,
  },
  'link.field-too-long': {
    en: (p: Field & { chars: number; max: number }) => `The link's field \`${p.path}\` is ${p.chars} characters long; the most is ${p.max}.`,
    zh: (p: Field & { chars: number; max: number }) => `链接字段 \`${p.path}\` 有 ${p.chars} 个字符，最多 ${p.max} 个。`,
  },
  'link.field-control-char': {
    en: (p: Field & { codepoint: string; at: number }) => `The link's field \`${p.path}\` contains the control character U+${p.codepoint} at position ${p.at}; link strings may not hold control characters.`,
    zh: (p: Field & { codepoint: string; at: number }) => `链接字段 \`${p.path}\` 在第 ${p.at} 位含控制字符 U+${p.codepoint}；链接中的字符串不能含控制字符。`,
  },
  'link.list-too-long': {
    en: (p: Field & { entries: number; max: number }) => `The link's field \`${p.path}\` has ${p.entries} entries; the most is ${p.max}.`,
    zh: (p: Field & { entries: number; max: number }) => `链接字段 \`${p.path}\` 有 ${p.entries} 项，最多 ${p.max} 项。`,
  },
  'link.dataset-mismatch': {
    en: (p: { header: string; config: string }) => `The link's field \`datasetId\` (${p.header}) differs from \`config.datasetId\` (${p.config}).`,
    zh: (p: { header: string; config: string }) => `链接字段 \`datasetId\`（${p.header}）与 \`config.datasetId\`（${p.config}）不一致。`,
  },
  'link.kind-unknown': {
    en: (p: { found: string }) => `The link's field \`kind\` is ${p.found}; expected "multiple-choice" or "generation".`,
    zh: (p: { found: string }) => `链接字段 \`kind\` 的值是 ${p.found}；应为 "multiple-choice" 或 "generation"。`,
  },
  'link.too-many-predictions': {
    en: (p: { n: number; items: number }) => `The link holds ${p.n} predictions but its run has ${p.items} items (\`n\` must not exceed \`config.itemCount\`).`,
    zh: (p: { n: number; items: number }) => `链接带有 ${p.n} 个预测，但其评测只有 ${p.items} 题（\`n\` 不能超过 \`config.itemCount\`）。`,
  },
  'link.predictions-size': {
    en: (p: { bytes: number; n: number; expected: number; more: boolean }) =>
      `The link's predictions take ${p.bytes} bytes; ${p.n} predictions need exactly ${p.expected} (${p.more ? 'more predictions than the header says' : 'the data is cut short'}).`,
    zh: (p: { bytes: number; n: number; expected: number; more: boolean }) =>
      `链接的预测占 ${p.bytes} 字节；${p.n} 个预测应正好占 ${p.expected} 字节（${p.more ? '预测比头部声明的多' : '数据被截断了'}）。`,
  },
  'link.prediction-status': {
    en: (p: { index: number; code: number }) => `The link's status for prediction ${p.index} is ${p.code}; expected 0 (letter), 1 (no letter) or 2 (no result).`,
    zh: (p: { index: number; code: number }) => `链接中第 ${p.index} 个预测的状态是 ${p.code}；应为 0（字母）、1（无字母）或 2（无结果）。`,
  },
  'link.rotations-size': {
    en: (p: { bytes: number; slots: number; n: number; expected: number; more: boolean }) =>
      `The link's rotation letters take ${p.bytes} bytes; ${p.n} items with ${p.slots} rotations need exactly ${p.expected} (${p.more ? 'more than the header says' : 'the data is cut short'}).`,
    zh: (p: { bytes: number; slots: number; n: number; expected: number; more: boolean }) =>
      `链接的轮换字母占 ${p.bytes} 字节；${p.n} 题共 ${p.slots} 个轮换应正好占 ${p.expected} 字节（${p.more ? '比头部声明的多' : '数据被截断了'}）。`,
  },
  'link.rotations-count': {
    en: (p: { total: number; slots: number }) => `The link's rotation counts add up to ${p.total}, but its field \`rotations.slots\` says ${p.slots}.`,
    zh: (p: { total: number; slots: number }) => `链接中各题的轮换数合计为 ${p.total}，但字段 \`rotations.slots\` 声明的是 ${p.slots}。`,
  },
  'link.rotations-unscored': {
    en: (p: { index: number; count: number }) => `The link carries ${p.count} rotations for item ${p.index}, which it lists as having no result.`,
    zh: (p: { index: number; count: number }) => `链接为第 ${p.index} 题带了 ${p.count} 个轮换，但又说该题没有结果。`,
  },
  'link.rotation-status': {
    en: (p: { index: number; rotation: number; code: number }) =>
      `The link's status for rotation ${p.rotation} of item ${p.index} is ${p.code}; expected 0 (letter), 1 (no letter) or 2 (failed).`,
    zh: (p: { index: number; rotation: number; code: number }) => `链接中第 ${p.index} 题第 ${p.rotation} 个轮换的状态是 ${p.code}；应为 0（字母）、1（无字母）或 2（失败）。`,
  },
  'link.generation-extra-bytes': {
    en: (p: { bytes: number }) => `A generation link carries no predictions, but ${p.bytes} bytes follow its header.`,
    zh: (p: { bytes: number }) => `生成任务的链接不带预测，但头部之后还有 ${p.bytes} 字节。`,
  },
  'link.cannot-share': {
    en: (p: { en: string; zh: string }) => `This run cannot be shared as a link: ${p.en}`,
    zh: (p: { en: string; zh: string }) => `此评测无法生成分享链接：${p.zh}`,
  },

  // Hosts: see src/lib/data/hosts.ts.
  'link.not-a-url': {
    en: (p: { value: string }) => `"${p.value}" is not a URL.`,
    zh: (p: { value: string }) => `“${p.value}”不是网址。`,
  },
  'link.not-http': {
    en: (p: { value: string; scheme: string }) => `"${p.value}" is a ${p.scheme} address; a mirror or model host must be an http(s) URL.`,
    zh: (p: { value: string; scheme: string }) => `“${p.value}”是 ${p.scheme} 地址；镜像或模型服务器必须是 http(s) 网址。`,
  },
  'link.host-not-agreed': {
    en: (p: { host: string }) => `Nothing was fetched from ${p.host}: that host came with a link or the page address, and you have not agreed to it on this page. Open the link again and allow it, or type it as the model host on the Playground to trust it on this device.`,
    zh: (p: { host: string }) => `没有从 ${p.host} 获取任何内容：这个服务器来自链接或页面地址，而你尚未在本页同意使用它。请重新打开链接并允许，或在“试模型”页把它填为模型服务器，以在本设备上信任它。`,
  },

  // Reproducing a shared run, and its questions.
  'link.data-missing': {
    en: (p: { dataset: string }) => `Reproducing needs ${p.dataset}: download or import it on the Data page first.`,
    zh: (p: { dataset: string }) => `复现需要 ${p.dataset}：请先在“数据”页下载或导入。`,
  },
  'link.data-differs': {
    en: (p: { dataset: string; difference: string }) => `The stored ${p.dataset} is not the data the link was made on (${p.difference}): import the same files and try again.`,
    zh: (p: { dataset: string; difference: string }) => `本地保存的 ${p.dataset} 不是链接所用的数据（${p.difference}）：请导入相同的文件后重试。`,
  },
  'link.other-items': {
    en: () => 'The same configuration selects different items here than in the shared run, so its results cannot be compared.',
    zh: () => '同样的配置在此处选出的题目与分享的评测不同，因此无法比较结果。',
  },
  'link.no-public-files': {
    en: (p: { title: string }) => `${p.title} has no public files: import the same file the link was made on (on the Data page), then open the link again.`,
    zh: (p: { title: string }) => `${p.title} 没有公开文件：请在“数据”页导入链接所用的同一文件，再打开链接。`,
  },
  'link.not-catalog-files': {
    en: (p: { title: string; difference: string }) => `The link was made on other ${p.title} files than the catalog's pinned ones (${p.difference}); nothing was downloaded.`,
    zh: (p: { title: string; difference: string }) => `链接所用的 ${p.title} 文件不是目录中固定的版本（${p.difference}）；没有下载任何内容。`,
  },
  'link.other-selection': {
    en: (p: { dataset: string }) => `This browser's ${p.dataset} selects other items for the link's tasks than the sharer's did, so its letters cannot be matched to questions.`,
    zh: (p: { dataset: string }) => `本浏览器的 ${p.dataset} 为链接的任务选出的题目与分享者的不同，因此无法把字母对应到题目。`,
  },
  /** A sampled link (config.sampling) whose draw over this browser's copy does not give the link's items (count and hash). */
  'link.other-sample': {
    en: (p: { dataset: string; draw: string; seed: number }) => `This browser's ${p.dataset} draws other items for the link's sample (${p.draw === 'random' ? `random, seed ${p.seed}` : 'first in file order'}) than the sharer's did, so its letters cannot be matched to questions.`,
    zh: (p: { dataset: string; draw: string; seed: number }) => `本浏览器的 ${p.dataset} 为链接的样本（${p.draw === 'random' ? `随机，种子 ${p.seed}` : '按文件顺序'}）抽出的题目与分享者的不同，因此无法把字母对应到题目。`,
  },
  'link.other-estimation-set': {
    en: (p: { share: number; seed: number; count: number; drawn: number }) =>
      `The link's PriDe estimation set (${p.count} items, share ${p.share}, seed ${p.seed}) is not the set this browser draws from the same items and seed (${p.drawn} items): its rotations cannot be matched to questions.`,
    zh: (p: { share: number; seed: number; count: number; drawn: number }) =>
      `链接的 PriDe 估计集（${p.count} 题，比例 ${p.share}，种子 ${p.seed}）与本浏览器用同样题目和种子抽出的集合（${p.drawn} 题）不同，无法把其轮换对应到题目。`,
  },
  'link.rotations-too-many': {
    en: (p: { itemId: string; carried: number; options: number }) => `The link carries ${p.carried} rotations for item ${p.itemId}, which has ${p.options} options here (so at most ${Math.max(0, p.options - 1)} rotations).`,
    zh: (p: { itemId: string; carried: number; options: number }) => `链接为题目 ${p.itemId} 带了 ${p.carried} 个轮换，但该题在此处只有 ${p.options} 个选项（最多 ${Math.max(0, p.options - 1)} 个轮换）。`,
  },
  'link.rotation-letter': {
    en: (p: { itemId: string; rotation: number; letter: string; options: number }) => `The link's letter ${p.letter} for rotation ${p.rotation} of item ${p.itemId} is not one of its ${p.options} options here.`,
    zh: (p: { itemId: string; rotation: number; letter: string; options: number }) => `链接中题目 ${p.itemId} 第 ${p.rotation} 个轮换的字母 ${p.letter} 不在该题此处的 ${p.options} 个选项之内。`,
  },
  'link.shared-failed': {
    en: () => 'This rotation could not be run where the link was made (the link does not say why; the run file does).',
    zh: () => '此轮换在分享者那里未能运行（链接不带原因，评测记录文件中有）。',
  },
  'link.item-not-mc': {
    en: (p: { itemId: string }) => `Item ${p.itemId} of the link is not a multiple-choice item here.`,
    zh: (p: { itemId: string }) => `链接中的题目 ${p.itemId} 在此处不是选择题。`,
  },
  'link.reproduction-stopped': {
    en: (p: { status: string }) => `The reproduction stopped (${p.status}); resume it from its run page.`,
    zh: (p: { status: string }) => `复现已停止（${p.status}）；请在其评测页继续。`,
  },
  'link.reproduction-failed': {
    en: (p: { detail: string }) => `The reproduction failed: ${p.detail}`,
    zh: (p: { detail: string }) => `复现失败：${p.detail}`,
  },

  // Classroom mode.
  'link.classroom-needs-mc-run': {
    en: () => 'Classroom mode needs a multiple-choice run stored in this browser.',
    zh: () => '课堂模式需要本浏览器中保存的选择题评测。',
  },
  'link.classroom-generation-link': {
    en: () => 'Classroom mode needs a multiple-choice run; this link is of a generation run.',
    zh: () => '课堂模式需要选择题评测；此链接是生成任务的评测。',
  },
  'link.classroom-questions-missing': {
    en: (p: { dataset: string }) => `The questions come from this browser's copy of ${p.dataset}, which does not hold them: download or import it on the Data page first.`,
    zh: (p: { dataset: string }) => `题目取自本浏览器中的 ${p.dataset} 副本，但其中没有这些题：请先在“数据”页下载或导入。`,
  },
  'link.classroom-no-results': {
    en: () => 'This run has no results yet.',
    zh: () => '此评测还没有结果。',
  },

  // The playground.
  'link.max-new-tokens': {
    en: (p: { value: string; max: number }) => `Max new tokens must be a whole number from 1 to ${p.max}, not ${p.value}.`,
    zh: (p: { value: string; max: number }) => `最多生成的 token 数必须是 1 到 ${p.max} 之间的整数，而不是 ${p.value}。`,
  },
  'link.recall-too-long': {
    en: (p: { tokens: number; asked: number; max: number }) =>
      `The second half of this passage is ${p.tokens} tokens for this model; with the margin a recall would ask for ${p.asked} new tokens, and the playground generates at most ${p.max}. Paste a shorter passage.`,
    zh: (p: { tokens: number; asked: number; max: number }) =>
      `这段文字的后半在此模型中有 ${p.tokens} 个词元，加上余量需要生成 ${p.asked} 个词元，而试模型页最多生成 ${p.max} 个。请换一段较短的文字。`,
  },
  'link.hub-model-id': {
    en: (p: { value: string; chars: number }) => `"${p.value}"${p.chars > 200 ? ` (${p.chars} characters)` : ''} is not a hub model id: owner/name, letters, digits, ".", "-" and "_", at most 96 characters each, no "..".`,
    zh: (p: { value: string; chars: number }) => `“${p.value}”${p.chars > 200 ? `（${p.chars} 个字符）` : ''}不是模型库的模型 ID：格式为 owner/name，只能用字母、数字、“.”、“-”和“_”，每段最多 96 个字符，不能有“..”。`,
  },
  'link.hub-revision': {
    en: (p: { value: string }) => `"${p.value}" is not a revision: a branch, tag or commit hash (letters, digits, ".", "-", "_", "/"; no "..").`,
    zh: (p: { value: string }) => `“${p.value}”不是有效的版本：应为分支、标签或提交哈希（字母、数字、“.”、“-”、“_”、“/”；不能有“..”）。`,
  },
  /** A field computed from others that the link states otherwise (issue 34): a link changed after it was made. */
  'link.derived-differs': {
    en: (p: Field & { found: string; recomputed: string; from: string }) => `The link's field \`${p.path}\` is ${p.found}, but ${p.from} give ${p.recomputed}: the link was changed after it was made, and is not shown.`,
    zh: (p: Field & { found: string; recomputed: string; from: string }) => `链接字段 \`${p.path}\` 的值是 ${p.found}，但由 ${p.from} 算出的是 ${p.recomputed}：链接在生成后被改动过，不予显示。`,
  },
  'link.task-not-in-run': {
    en: (p: Field & { task: string; tasks: string }) => `The link's field \`${p.path}\` names the task ${p.task}, which is not among the link's tasks (${p.tasks}).`,
    zh: (p: Field & { task: string; tasks: string }) => `链接字段 \`${p.path}\` 提到任务 ${p.task}，但它不在链接的任务（${p.tasks}）之中。`,
  },
  'link.task-not-in-dataset': {
    en: (p: Field & { task: string; dataset: string }) => `The link's field \`${p.path}\` names the task ${p.task}, which ${p.dataset} does not have (as a multiple-choice task): the link mixes benchmarks.`,
    zh: (p: Field & { task: string; dataset: string }) => `链接字段 \`${p.path}\` 提到任务 ${p.task}，但 ${p.dataset} 没有这个（选择题）任务：链接混用了不同的评测集。`,
  },
  'link.date-out-of-range': {
    en: (p: Field & { date: string; earliest: string; latest: string }) => `The link's field \`${p.path}\` is ${p.date}; a link is dated from ${p.earliest} to ${p.latest} (today).`,
    zh: (p: Field & { date: string; earliest: string; latest: string }) => `链接字段 \`${p.path}\` 的值是 ${p.date}；链接的日期应在 ${p.earliest} 到 ${p.latest}（今天）之间。`,
  },
  'link.design-out-of-range': {
    en: (p: Field & { items: number; shards: number; orders: number; maxShards: number; maxOrders: number }) =>
      `The link's field \`${p.path}\` says ${p.shards} shards × ${p.orders} orders over ${p.items} items; the file-order test allows 2 to ${p.maxShards} shards (two items a shard at least) and 1 to ${p.maxOrders} orders a shard.`,
    zh: (p: Field & { items: number; shards: number; orders: number; maxShards: number; maxOrders: number }) =>
      `链接字段 \`${p.path}\` 写的是 ${p.items} 道题分 ${p.shards} 个分片 × ${p.orders} 种顺序；文件顺序检验允许 2 到 ${p.maxShards} 个分片（每片至少两题），每片 1 到 ${p.maxOrders} 种顺序。`,
  },
  'link.site-model-name': {
    en: (p: { name: string }) => `"${p.name}" is not a model folder name this site serves: letters, digits, ".", "-" and "_" only, no "..", no slashes.`,
    zh: (p: { name: string }) => `“${p.name}”不是本站可提供的模型文件夹名：只能用字母、数字、“.”、“-”和“_”，不能有“..”或斜杠。`,
  },
};
