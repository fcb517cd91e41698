// Messages about loading and running a model (workers/model.worker.ts, src/lib/engine/model-errors.ts).
import type { LogitsRefusalParams } from '../models/logits-rewrite.ts';
import { formatBytes } from '../benchmarks/byte-text.ts';

/** Which model: a hub id (with its revision) or one of the site's folders. */
export interface ModelWhere {
  source: 'hub' | 'site';
  /** The hub id with `@revision`, or the folder name. */
  name: string;
}
const where = {
  en: (p: ModelWhere) => (p.source === 'hub' ? p.name : `the site's model folder /models/${p.name}/`),
  zh: (p: ModelWhere) => (p.source === 'hub' ? p.name : `本站的模型文件夹 /models/${p.name}/`),
};

/** Why the rewrite refused, in each language; null for a reason this build does not know. Op, node and tensor names are identifiers, quoted as they are. */
const refusalReason = {
  en: (p: LogitsRefusalParams): string | null => {
    switch (p.reason) {
      case 'unknown-op':
        return `the logits come from ${p.op} node "${p.node}", an op the rewrite does not know`;
      case 'two-activations':
        return `the logits come from ${p.op} node "${p.node}", which combines two activations (not a bias or a scale)`;
      case 'weight-not-constant':
        return `${p.op} node "${p.node}" does not multiply one activation by constant weights`;
      case 'not-quantized-rows':
        return `${p.op} node "${p.node}" does not read DynamicQuantizeLinear's output and constant weights`;
      case 'rows-2d':
        return `the logits come from ${p.op} node "${p.node}", which takes 2-D rows: there is no sequence axis to slice`;
      case 'hidden-rank':
        return `${p.op} node "${p.node}" reads "${p.tensor}" of rank ${p.rank}, not [batch, sequence, hidden]`;
      case 'logits-rank':
        return `the logits output has rank ${p.rank}, not [batch, sequence, vocabulary]`;
      case 'no-logits-output':
        return `the graph has no output named "logits" (its outputs: ${p.outputs.join(', ') || 'none'})`;
      case 'opset':
        return `the graph imports ONNX opset ${p.opset}, and a Slice whose starts are an input needs opset 10`;
      case 'no-producer':
        return `no node computes "${p.tensor}"`;
      case 'head-too-long':
        return `the head is longer than ${p.nodes} nodes`;
      case 'name-taken':
        return `the graph already has a tensor or node named "${p.name}" that is not an input`;
      case 'malformed':
        return `the file could not be read as an ONNX model (the reader said: "${p.message}")`;
      case 'not-bytes':
        return 'the model file did not reach the session as bytes';
      case 'rewrite-threw':
        return `the rewrite itself failed (error: "${p.message}")`;
      default:
        return null;
    }
  },
  zh: (p: LogitsRefusalParams): string | null => {
    switch (p.reason) {
      case 'unknown-op':
        return `logits 来自 ${p.op} 节点“${p.node}”，改写程序不认识这种算子`;
      case 'two-activations':
        return `logits 来自 ${p.op} 节点“${p.node}”，它把两个激活值相结合（不是偏置或缩放）`;
      case 'weight-not-constant':
        return `${p.op} 节点“${p.node}”不是一个激活值乘以常量权重`;
      case 'not-quantized-rows':
        return `${p.op} 节点“${p.node}”读取的不是 DynamicQuantizeLinear 的输出和常量权重`;
      case 'rows-2d':
        return `logits 来自 ${p.op} 节点“${p.node}”，它接受二维的行，没有可以切片的序列轴`;
      case 'hidden-rank':
        return `${p.op} 节点“${p.node}”读取的“${p.tensor}”是 ${p.rank} 维的，而不是 [批次, 序列, 隐藏维]`;
      case 'logits-rank':
        return `logits 输出是 ${p.rank} 维的，而不是 [批次, 序列, 词表]`;
      case 'no-logits-output':
        return `计算图没有名为“logits”的输出（它的输出：${p.outputs.join('、') || '无'}）`;
      case 'opset':
        return `计算图导入的是 ONNX 算子集 ${p.opset}，而以输入给出起点的 Slice 需要算子集 10`;
      case 'no-producer':
        return `没有任何节点计算“${p.tensor}”`;
      case 'head-too-long':
        return `输出头超过 ${p.nodes} 个节点`;
      case 'name-taken':
        return `计算图中已有名为“${p.name}”的张量或节点，而它不是输入`;
      case 'malformed':
        return `文件无法作为 ONNX 模型读取（读取器报告：“${p.message}”）`;
      case 'not-bytes':
        return '模型文件没有以字节形式交给会话';
      case 'rewrite-threw':
        return `改写程序本身出错（错误信息：“${p.message}”）`;
      default:
        return null;
    }
  },
};

/** A model file that could not be fetched: the model, the file, the host (as the URL names it) and whether the browser says it is offline. */
export interface OfflineParams extends ModelWhere {
  file: string;
  host: string;
  offline: boolean;
}
/** The site, the hub, or a mirror, named by its host. */
const offlineHost = {
  en: (p: OfflineParams) => (p.source === 'site' ? `the site (${p.host})` : /^(huggingface\.co|hf\.co)$/.test(p.host) ? `the Hugging Face hub (${p.host})` : `the model host ${p.host}`),
  zh: (p: OfflineParams) => (p.source === 'site' ? `本站（${p.host}）` : /^(huggingface\.co|hf\.co)$/.test(p.host) ? ` Hugging Face hub（${p.host}）` : `模型主机 ${p.host}`),
};

/**
 * Why the host may not answer and what to do: offline, connect; the site or the hub unreachable while
 * the browser is online, the network is the likely cause; a model host the user or a link named may be
 * down, mistyped or refuse this site (no CORS).
 */
const unreachableWhy = {
  en: (p: OfflineParams) =>
    p.offline
      ? ': the browser is offline. Connect to the network once and load the model'
      : p.source === 'site' || /^(huggingface\.co|hf\.co)$/.test(p.host)
        ? '. Connect to the network once and load the model'
        : ' (it is down, the address is wrong, or it refuses this site). Check the address, or load the model once while that host answers',
  zh: (p: OfflineParams) =>
    p.offline
      ? '：浏览器处于离线状态。请联网后加载一次此模型'
      : p.source === 'site' || /^(huggingface\.co|hf\.co)$/.test(p.host)
        ? '。请联网后加载一次此模型'
        : '（服务器未运行、地址有误，或拒绝本站访问）。请检查地址，或在该服务器可以连接时加载一次此模型',
};

/** A sentence's first letter in capitals, for a site folder's name ("the site's …"); a hub id is an identifier, kept as it is. */
const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** Whether a dtype is already 4-bit, so no smaller dtype is left to suggest. */
const fourBit = (dtype: string | undefined) => dtype === 'q4' || dtype === 'q4f16';

/** The model and dtype that ran out of memory, where known, and which memory: the GPU's or the tab's. */
export interface OutOfMemoryParams {
  on: 'gpu' | 'tab';
  source?: ModelWhere['source'];
  name?: string;
  dtype?: string;
}

/** What a memory failure leaves untouched: IndexedDB is not the tab's memory, and a run resumes from its last stored item. */
const KEPT = {
  en: 'Stored runs and data are kept; a stopped run resumes from its last stored item.',
  zh: '已保存的评测和数据都不会丢失；中断的评测可从最后保存的题目继续。',
};

export const modelNotices = {
  'model.not-found': {
    en: (p: ModelWhere) => `No model found at ${where.en(p)}: check the model id (for example onnx-community/Qwen3-0.6B-ONNX) or the folder name.`,
    zh: (p: ModelWhere) => `在 ${where.zh(p)} 找不到模型：请检查模型 ID（例如 onnx-community/Qwen3-0.6B-ONNX）或文件夹名。`,
  },
  'model.no-dtype': {
    en: (p: ModelWhere & { dtype: string; file: string }) => `${where.en(p)} has no ${p.dtype} weights (${p.file} was not found). Pick another dtype.`,
    zh: (p: ModelWhere & { dtype: string; file: string }) => `${where.zh(p)} 没有 ${p.dtype} 权重（找不到 ${p.file}）。请换一种量化精度。`,
  },
  'model.no-shader-f16': {
    en: (p: { dtype: string }) => `This GPU cannot run ${p.dtype} (it lacks the shader-f16 feature). Use fp32, q8 or q4, or the WASM backend.`,
    zh: (p: { dtype: string }) => `这块 GPU 不能运行 ${p.dtype}（缺少 shader-f16 功能）。请改用 fp32、q8 或 q4，或 WASM 后端。`,
  },
  'model.damaged': {
    en: (p: ModelWhere & { file: string }) => `${where.en(p)} could not be read: ${p.file} or its configuration is damaged or not what transformers.js expects. Download it again or pick another model.`,
    zh: (p: ModelWhere & { file: string }) => `无法读取 ${where.zh(p)}：${p.file} 或其配置已损坏，或不是 transformers.js 能读的格式。请重新下载或换一个模型。`,
  },
  'model.dtype-backend': {
    en: (p: ModelWhere & { dtype: string; backend: string }) => `The ${p.dtype} weights of ${where.en(p)} cannot run on ${p.backend}. Pick another dtype or backend.`,
    zh: (p: ModelWhere & { dtype: string; backend: string }) => `${where.zh(p)} 的 ${p.dtype} 权重不能在 ${p.backend} 上运行。请换一种量化精度或后端。`,
  },
  'model.webgpu-unavailable': {
    en: () => 'WebGPU is not available in this browser. Choose WASM (slower, works everywhere) or enable WebGPU.',
    zh: () => '此浏览器不能使用 WebGPU。请选择 WASM（较慢，但处处可用），或启用 WebGPU。',
  },
  // Why Auto chose WASM (BackendInfo.fallbackNotice; fallbackReason keeps the English for the record).
  'model.fallback-no-webgpu': {
    en: () => 'this browser has no WebGPU (navigator.gpu is missing)',
    zh: () => '此浏览器没有 WebGPU（缺少 navigator.gpu）',
  },
  'model.fallback-no-adapter': {
    en: () => 'WebGPU gave no adapter',
    zh: () => 'WebGPU 没有给出可用的显卡适配器',
  },
  'model.fallback-webgpu-failed': {
    en: (p: { detail: string }) => `WebGPU failed: ${p.detail}`,
    zh: (p: { detail: string }) => `WebGPU 出错：${p.detail}`,
  },
  'model.fallback-no-shader-f16': {
    en: (p: { dtype: string }) => `this GPU has no shader-f16, which ${p.dtype} needs on WebGPU`,
    zh: (p: { dtype: string }) => `这块 GPU 没有 shader-f16 功能，而 ${p.dtype} 在 WebGPU 上需要它`,
  },
  'model.webgpu-requested': {
    en: (p: { reason: string }) => `WebGPU was requested but is not available here (${p.reason}). Choose WASM or Auto, or enable WebGPU in the browser.`,
    zh: (p: { reason: string }) => `选择了 WebGPU，但此处不可用（${p.reason}）。请选择 WASM 或“自动”，或在浏览器中启用 WebGPU。`,
  },
  // A model that ran out of memory while it ran (or whose worker an uncaught allocation failure took
  // down). Records from before this version stored `{ on }` alone: the model and dtype are optional.
  'model.out-of-memory': {
    en: (p: OutOfMemoryParams) =>
      `${p.name === undefined ? 'The model' : `${p.source === 'site' ? capital(where.en({ source: 'site', name: p.name })) : p.name}${p.dtype ? ` (${p.dtype})` : ''}`} ran out of ${p.on === 'gpu' ? 'GPU memory' : 'this tab’s memory'}. ${fourBit(p.dtype) ? 'Load a smaller model' : 'Load it again with a smaller dtype (q4 instead of fp32, or q8)'}, keep one model loaded at a time and close other tabs${p.on === 'gpu' ? ', or run it on WASM' : ''}. ${KEPT.en}`,
    zh: (p: OutOfMemoryParams) =>
      `${p.name === undefined ? '模型' : `${where.zh({ source: p.source ?? 'hub', name: p.name })}${p.dtype ? `（${p.dtype}）` : ''}`}运行时${p.on === 'gpu' ? ' GPU ' : '本标签页'}内存不足。${fourBit(p.dtype) ? '请换更小的模型' : '请换更小的量化精度重新加载（用 q4 代替 fp32，或用 q8）'}，同一时间只加载一个模型，并关闭其他标签页${p.on === 'gpu' ? '，或改在 WASM 上运行' : ''}。${KEPT.zh}`,
  },
  'model.load-out-of-memory': {
    en: (p: ModelWhere & { file: string; dtype: string; on: 'gpu' | 'tab' }) =>
      p.on === 'gpu'
        ? `Loading ${p.file} (${p.dtype}) of ${where.en(p)} ran out of GPU memory. Pick a smaller dtype (q4), close other tabs, or run on WASM. ${KEPT.en}`
        : `Loading ${p.file} (${p.dtype}) of ${where.en(p)} ran out of this tab's memory: on WASM its weights and what onnxruntime builds from them must fit in 4 GB. Pick q4 or q8 (a 0.5B model's fp32 and fp16 files may not fit), or WebGPU; keep one model loaded at a time and close other tabs. ${KEPT.en}`,
    zh: (p: ModelWhere & { file: string; dtype: string; on: 'gpu' | 'tab' }) =>
      p.on === 'gpu'
        ? `加载 ${where.zh(p)} 的 ${p.file}（${p.dtype}）时 GPU 内存不足。请换更小的精度（q4）、关闭其他标签页，或改用 WASM。${KEPT.zh}`
        : `加载 ${where.zh(p)} 的 ${p.file}（${p.dtype}）时本标签页内存不足：在 WASM 上，权重及 onnxruntime 由其生成的数据须放进 4 GB。请改用 q4 或 q8（0.5B 模型的 fp32、fp16 文件可能放不下），或改用 WebGPU；同一时间只加载一个模型，并关闭其他标签页。${KEPT.zh}`,
  },
  // The user chose not to load after the memory check (src/ui/models/memory-check.svelte.ts) said the
  // model needs more than the device reports room for: nothing was fetched but the files' sizes.
  'model.memory-declined': {
    en: (p: ModelWhere & { dtype: string; need: number; room: number; smaller: string | null }) =>
      `Not loaded: ${where.en(p)} (${p.dtype}) needs about ${formatBytes(p.need)} of memory, more than the about ${formatBytes(p.room)} this device has room for in a tab. Nothing was downloaded. ${p.smaller ? `Choose a smaller dtype (${p.smaller}) or a smaller model` : 'Choose a smaller model'}, or load it anyway.`,
    zh: (p: ModelWhere & { dtype: string; need: number; room: number; smaller: string | null }) =>
      `未加载：${where.zh(p)}（${p.dtype}）约需 ${formatBytes(p.need)} 内存，超过此设备留给一个标签页的约 ${formatBytes(p.room)}。没有下载任何文件。${p.smaller ? `请换更小的量化精度（${p.smaller}）或更小的模型` : '请换更小的模型'}，或仍然加载。`,
  },
  'model.network': {
    en: () => 'A download failed (network error). Check the connection, or use a model folder served by this site.',
    zh: () => '下载失败（网络错误）。请检查网络，或使用本站提供的模型文件夹。',
  },
  'model.failed': {
    en: (p: { detail: string }) => `The model failed: ${p.detail}`,
    zh: (p: { detail: string }) => `模型运行出错：${p.detail}`,
  },
  'model.no-model': {
    en: () => 'No model is loaded: load one first.',
    zh: () => '还没有加载模型：请先加载一个。',
  },
  'model.bad-sampling': {
    en: (p: { setting: 'temperature' | 'top-k' | 'seed'; value: number }) =>
      p.setting === 'temperature' ? `The temperature must be 0 (greedy) or a positive number, not ${p.value}.` : p.setting === 'top-k' ? `Top-k must be 0 (every token) or a whole number of candidates, not ${p.value}.` : `The seed must be a whole number from 0 to 4,294,967,295, not ${p.value}.`,
    zh: (p: { setting: 'temperature' | 'top-k' | 'seed'; value: number }) =>
      p.setting === 'temperature' ? `温度必须是 0（贪心）或正数，而不是 ${p.value}。` : p.setting === 'top-k' ? `top-k 必须是 0（全部词元）或候选数（整数），而不是 ${p.value}。` : `种子必须是 0 到 4,294,967,295 之间的整数，而不是 ${p.value}。`,
  },
  'model.empty-prompt': {
    en: () => 'The prompt is empty.',
    zh: () => '提示词是空的。',
  },
  'model.no-candidates': {
    en: () => 'Nothing to score: no candidates.',
    zh: () => '没有可打分的候选项。',
  },
  'model.candidate-no-token': {
    en: (p: { candidate: string }) => `Candidate "${p.candidate}" encodes to no token.`,
    zh: (p: { candidate: string }) => `候选项“${p.candidate}”编码后没有任何词元。`,
  },
  'model.no-chat-template': {
    en: () => 'This model has no chat template: score raw prompts (the papers do) or pick an instruction model.',
    zh: () => '这个模型没有对话模板：请直接用原始提示词打分（论文就是这样做的），或选一个指令模型。',
  },
  'model.cancelled': {
    en: () => 'Cancelled.',
    zh: () => '已取消。',
  },
  'model.worker-crashed': {
    en: () => 'The model worker crashed; reload the model.',
    zh: () => '模型工作线程崩溃了；请重新加载模型。',
  },
  'model.worker-bad-message': {
    en: () => 'The model worker sent a message that could not be read.',
    zh: () => '模型工作线程发来了无法读取的消息。',
  },
  'model.worker-stopped': {
    en: () => 'The model worker was stopped.',
    zh: () => '模型工作线程已停止。',
  },
  'model.letter-several-tokens-in-context': {
    en: (p: { letter: string; tokenIds: string[]; tokenId: number }) =>
      `After the answer cue the letter ${p.letter} is written as ${p.tokenIds.length} tokens [${p.tokenIds.join(', ')}]; only the first (${p.tokenId}) is scored, so its probability is an approximation.`,
    zh: (p: { letter: string; tokenIds: string[]; tokenId: number }) =>
      `在答案提示之后，字母 ${p.letter} 被写成 ${p.tokenIds.length} 个词元 [${p.tokenIds.join('、')}]；只对第一个（${p.tokenId}）打分，所以它的概率只是近似值。`,
  },
  'model.letters-share-token': {
    en: (p: { first: string; second: string; tokenId: number }) =>
      `The letters ${p.first} and ${p.second} both become token ${p.tokenId} after the answer cue, so the model's choice between them cannot be read. The run stopped before scoring anything; try another model, or turn the chat template off or on.`,
    zh: (p: { first: string; second: string; tokenId: number }) =>
      `字母 ${p.first} 和 ${p.second} 在答案提示之后都是词元 ${p.tokenId}，无法分辨模型选了哪一个。评测在打分之前已停止；请换一个模型，或切换是否使用对话模板。`,
  },
  // Why a graph without num_logits_to_keep is prefilled in chunks rather than rewritten at load
  // (workers/logits-rewrite-hook.ts and the check in model.worker.ts). Scores are the same either way.
  'model.logits-unrecognised': {
    en: (p: LogitsRefusalParams) =>
      `Jiangu did not recognise the part of this graph that makes the logits (${refusalReason.en(p) ?? `${p.code}: ${p.detail}`}), so it left the graph as its author wrote it and prefills prompts in chunks. Scores are the same; it is slower and uses more memory.`,
    zh: (p: LogitsRefusalParams) =>
      `鉴古未能识别此计算图中生成 logits 的部分（${refusalReason.zh(p) ?? `${p.code}：${p.detail}`}），因此保留作者原来的计算图，把提示分块预填充。得分不受影响，只是更慢、更占内存。`,
  },
  'model.logits-check-failed': {
    en: (p: { tokens: number; maxAbsDiff: number; tolerance: number }) =>
      `Jiangu rewrote this graph to compute only the last logits row, but on a ${p.tokens}-token test prompt the rewritten graph's log-probabilities differed from the original's by ${p.maxAbsDiff.toPrecision(3)} (more than ${p.tolerance}). It loaded the original graph again and prefills prompts in chunks, so scores are the author's graph's own.`,
    zh: (p: { tokens: number; maxAbsDiff: number; tolerance: number }) =>
      `鉴古把此计算图改写为只计算最后一行 logits，但在一个 ${p.tokens} 个词元的测试提示上，改写后的对数概率与原图相差 ${p.maxAbsDiff.toPrecision(3)}（超过 ${p.tolerance}）。因此重新加载了原计算图，把提示分块预填充，得分来自作者原来的计算图。`,
  },
  'model.logits-session-refused': {
    en: (p: { detail: string }) =>
      `ONNX Runtime would not load the graph Jiangu rewrote to compute only the last logits row (its message: "${p.detail}"), so the original graph is used and prompts are prefilled in chunks. Scores are the same; it is slower.`,
    zh: (p: { detail: string }) =>
      `ONNX Runtime 无法加载鉴古改写后只计算最后一行 logits 的计算图（它的报错：“${p.detail}”），因此使用原计算图，把提示分块预填充。得分不受影响，只是更慢。`,
  },
  'model.logits-rewrite-off': {
    en: () => 'The load-time rewrite to one logits row is turned off, so prompts are prefilled in chunks on the graph as its author wrote it.',
    zh: () => '加载时改写为只算一行 logits 的功能已关闭，因此在作者原来的计算图上把提示分块预填充。',
  },
  // Why per-position statistics (option texts' log-likelihoods, the memorization probes) are computed
  // in the worker from whole logits rows rather than by Jiangu's statistics graph (stats-rewrite.ts,
  // checked at load in workers/statistics-check.ts). The numbers are the same either way.
  'model.statistics-unrecognised': {
    en: (p: { detail: string }) =>
      `Jiangu could not add its per-position statistics to this graph (${p.detail}), so they are computed in the worker from whole logits rows. The numbers are the same; it is slower.`,
    zh: (p: { detail: string }) => `鉴古无法在此计算图上加入逐位置统计（${p.detail}），因此改由 worker 从整行 logits 计算。数字不受影响，只是更慢。`,
  },
  'model.statistics-check-failed': {
    en: (p: { tokens: number; maxAbsDiff: number; tolerance: number }) =>
      `Jiangu's per-position statistics disagreed with the same graph's whole logits rows on a ${p.tokens}-token test text by ${p.maxAbsDiff.toPrecision(3)} (more than ${p.tolerance}), so it loaded the graph without them and computes them in the worker from whole rows. The numbers are the graph's own; it is slower.`,
    zh: (p: { tokens: number; maxAbsDiff: number; tolerance: number }) =>
      `在一段 ${p.tokens} 个词元的测试文本上，鉴古的逐位置统计与同一计算图的整行 logits 相差 ${p.maxAbsDiff.toPrecision(3)}（超过 ${p.tolerance}），因此重新加载了不带它们的计算图，改由 worker 从整行计算。数字来自计算图本身，只是更慢。`,
  },
  'model.lens-unrecognised': {
    en: (p: { detail: string }) => `Jiangu cannot show this model's logit lens: it does not understand the graph (${p.detail}). The other views work as before.`,
    zh: (p: { detail: string }) => `鉴古无法显示此模型的逐层透镜：它看不懂这个计算图（${p.detail}）。其他视图不受影响。`,
  },
  'model.lens-check-failed': {
    en: (p: { tokens: number; maxProbDiff: number; tolerance: number }) =>
      `The logit lens's last layer disagreed with the model's own output on a ${p.tokens}-token test text by ${p.maxProbDiff.toPrecision(3)} in probability (more than ${p.tolerance}), so Jiangu does not show it for this model.`,
    zh: (p: { tokens: number; maxProbDiff: number; tolerance: number }) =>
      `在 ${p.tokens} 个词元的测试文本上，逐层透镜最后一层与模型自身输出的概率相差 ${p.maxProbDiff.toPrecision(3)}（超过 ${p.tolerance}），因此鉴古不为此模型显示透镜。`,
  },
  'model.lens-session-refused': {
    en: (p: { detail: string }) => `ONNX Runtime would not load the graph with Jiangu's logit lens (its message: "${p.detail}"), so the lens cannot be shown for this model.`,
    zh: (p: { detail: string }) => `ONNX Runtime 无法加载带鉴古逐层透镜的计算图（它的报错：“${p.detail}”），因此无法为此模型显示透镜。`,
  },
  'model.lens-not-loaded': {
    en: () => 'This model was loaded without the logit lens: load it for the lens first.',
    zh: () => '此模型加载时没有带逐层透镜：请先为透镜加载它。',
  },
  'model.statistics-session-refused': {
    en: (p: { detail: string }) =>
      `ONNX Runtime would not load the graph with Jiangu's per-position statistics (its message: "${p.detail}"), so they are computed in the worker from whole logits rows. The numbers are the same; it is slower.`,
    zh: (p: { detail: string }) => `ONNX Runtime 无法加载带鉴古逐位置统计的计算图（它的报错：“${p.detail}”），因此改由 worker 从整行 logits 计算。数字不受影响，只是更慢。`,
  },
  // Why Auto chose WASM although WebGPU gave an adapter: it renders on the CPU (workers/backend-choice.ts).
  'model.fallback-software-adapter': {
    en: (p: { adapter: string }) => `WebGPU here is a software adapter (${p.adapter}), slower than WASM; using WASM. Choose WebGPU to use it anyway.`,
    zh: (p: { adapter: string }) => `此处的 WebGPU 是软件模拟的适配器（${p.adapter}），比 WASM 慢；因此使用 WASM。如仍要使用它，请选择 WebGPU。`,
  },
  // A model file could not be fetched because its host could not be reached (a TypeError from fetch:
  // offline, the host down, or the service worker with no copy), and no cache holds it. Not a 404.
  'model.not-stored-offline': {
    en: (p: OfflineParams) =>
      `${where.en(p)} is not stored in this browser for offline use (${p.file} is not kept here), and ${offlineHost.en(p)} cannot be reached${unreachableWhy.en(p)}: it is then kept, and loads without a connection.`,
    zh: (p: OfflineParams) =>
      `${where.zh(p)} 没有保存在此浏览器中以供离线使用（这里没有 ${p.file}），而且无法连接${offlineHost.zh(p)}${unreachableWhy.zh(p)}：之后它会被保存，没有网络也能加载。`,
  },
};

