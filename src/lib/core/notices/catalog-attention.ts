// Messages of the attention view ("Where the model looks", issue 45 §4): why a model's attention
// cannot be shown (src/lib/core/models/attention-rewrite.ts, attention-graph.ts) and why a reading
// was refused (src/lib/core/reading/attention-passes.ts). Op, node and tensor names are
// identifiers, quoted as they are.
import type { AttentionRefusalParams } from '../models/attention-rewrite.ts';
import type { AttentionPassProblem } from '../reading/attention-passes.ts';
import type { NoticeTexts } from './notice.ts';

type Flat<R> = R extends { kind: infer K } ? Omit<R, 'kind'> & { problem: K } : never;
/** The notice model.attention-pass-refused's parameters: the problem flattened (`problem` is its kind). */
export type AttentionPassParams = Flat<AttentionPassProblem>;

export function attentionPassParams(problem: AttentionPassProblem): AttentionPassParams {
  const { kind, ...fields } = problem;
  return { problem: kind, ...fields } as AttentionPassParams;
}

/** Why the graph's attention was not recognised, in each language; null for a reason this build does not know. */
const refusalReason = {
  en: (p: AttentionRefusalParams): string | null => {
    switch (p.reason) {
      case 'no-layer-count':
        return 'the graph has no present.{i}.key outputs, so its layers are not known';
      case 'layer-numbers':
        return `the graph's present.{i}.key outputs skip layer ${p.missing} of ${p.layers}`;
      case 'no-attention':
        return `no attention was found that reads layer ${p.layer}'s keys`;
      case 'two-attentions':
        return `more than one attention reads layer ${p.layer}'s keys (${p.nodes.join(', ')})`;
      case 'score-op':
        return `in layer ${p.layer}, the scores reach Softmax "${p.softmax}" through ${p.op} node "${p.node}", which Jiangu does not compute`;
      case 'key-op':
        return `in layer ${p.layer}, the cached keys reach Softmax "${p.softmax}" through ${p.op} node "${p.node}", which Jiangu does not read`;
      case 'softmax-axis':
        return `in layer ${p.layer}, Softmax "${p.node}" normalises over axis ${p.axis}, not over the keys`;
      case 'gqa-attribute':
        return `in layer ${p.layer}, GroupQueryAttention "${p.node}" has ${p.name} = ${p.value}, which Jiangu does not compute (a score cap, a sliding window or a smoothed softmax)`;
      case 'gqa-unknown-attribute':
        return `in layer ${p.layer}, GroupQueryAttention "${p.node}" has an attribute Jiangu does not know, ${p.name}`;
      case 'gqa-input':
        return p.index >= 9
          ? `in layer ${p.layer}, GroupQueryAttention "${p.node}" is given input ${p.index} (positions, a score bias or a sink), which Jiangu does not read`
          : `in layer ${p.layer}, GroupQueryAttention "${p.node}" lacks input ${p.index}, which Jiangu needs`;
      case 'gqa-present':
        return `GroupQueryAttention "${p.node}" does not write a present.{i}.key output`;
      case 'opset':
        return `the graph imports ONNX opset ${p.opset}; the attention view needs opset 11`;
      case 'name-taken':
        return `the graph already has a tensor or node named "${p.name}"`;
      case 'malformed':
        return `the file is not an ONNX model Jiangu can read (${p.message})`;
      case 'rewrite-threw':
        return `Jiangu's rewrite failed (${p.message})`;
      default:
        return null;
    }
  },
  zh: (p: AttentionRefusalParams): string | null => {
    switch (p.reason) {
      case 'no-layer-count':
        return '计算图没有 present.{i}.key 输出，无从知道它有几层';
      case 'layer-numbers':
        return `计算图的 present.{i}.key 输出缺了第 ${p.missing} 层（共 ${p.layers} 层）`;
      case 'no-attention':
        return `找不到读取第 ${p.layer} 层键的注意力`;
      case 'two-attentions':
        return `第 ${p.layer} 层的键被不止一个注意力读取（${p.nodes.join('、')}）`;
      case 'score-op':
        return `第 ${p.layer} 层的注意力分数经 ${p.op} 节点“${p.node}”才到 Softmax“${p.softmax}”，鉴古不计算这种运算`;
      case 'key-op':
        return `第 ${p.layer} 层缓存的键经 ${p.op} 节点“${p.node}”才到 Softmax“${p.softmax}”，鉴古读不懂这种运算`;
      case 'softmax-axis':
        return `第 ${p.layer} 层的 Softmax“${p.node}”在第 ${p.axis} 轴上归一化，而不是在键上`;
      case 'gqa-attribute':
        return `第 ${p.layer} 层的 GroupQueryAttention“${p.node}”设了 ${p.name} = ${p.value}，鉴古不计算这种情形（分数上限、滑动窗口或平滑 softmax）`;
      case 'gqa-unknown-attribute':
        return `第 ${p.layer} 层的 GroupQueryAttention“${p.node}”有鉴古不认识的属性 ${p.name}`;
      case 'gqa-input':
        return p.index >= 9
          ? `第 ${p.layer} 层的 GroupQueryAttention“${p.node}”接收了第 ${p.index} 个输入（位置、分数偏置或汇点），鉴古不读取它`
          : `第 ${p.layer} 层的 GroupQueryAttention“${p.node}”缺少鉴古需要的第 ${p.index} 个输入`;
      case 'gqa-present':
        return `GroupQueryAttention“${p.node}”没有写出 present.{i}.key 输出`;
      case 'opset':
        return `计算图导入的是 ONNX opset ${p.opset}，注意力视图需要 opset 11`;
      case 'name-taken':
        return `计算图里已经有名为“${p.name}”的张量或节点`;
      case 'malformed':
        return `文件不是鉴古能读的 ONNX 模型（${p.message}）`;
      case 'rewrite-threw':
        return `鉴古的改写失败了（${p.message}）`;
      default:
        return null;
    }
  },
};

const passProblem = {
  en: (p: AttentionPassParams): string => {
    switch (p.problem) {
      case 'missing':
        return `the pass returned no ${p.tensor} for layer ${p.layer}`;
      case 'shape':
        return `layer ${p.layer}'s ${p.tensor} came back as [${p.dims.join(', ')}], where ${p.expected} was expected`;
      case 'check':
        return p.what === 'rotation'
          ? `in layer ${p.layer}, from position ${p.position}, the keys Jiangu rotated differed from the model's own by ${p.maxDiff.toPrecision(3)} (more than ${p.tolerance})`
          : p.what === 'softmax'
            ? `in layer ${p.layer}, at position ${p.position}, the attention Jiangu computed differed from the model's own by ${p.maxDiff.toPrecision(3)} (more than ${p.tolerance})`
            : `layer ${p.layer}'s attention scale changed between passes (by ${p.maxDiff.toPrecision(3)})`;
    }
  },
  zh: (p: AttentionPassParams): string => {
    switch (p.problem) {
      case 'missing':
        return `这一轮计算没有返回第 ${p.layer} 层的 ${p.tensor}`;
      case 'shape':
        return `第 ${p.layer} 层的 ${p.tensor} 形状是 [${p.dims.join(', ')}]，而应是 ${p.expected}`;
      case 'check':
        return p.what === 'rotation'
          ? `第 ${p.layer} 层从位置 ${p.position} 起，鉴古旋转的键与模型自己的相差 ${p.maxDiff.toPrecision(3)}（超过 ${p.tolerance}）`
          : p.what === 'softmax'
            ? `第 ${p.layer} 层在位置 ${p.position}，鉴古算出的注意力与模型自己的相差 ${p.maxDiff.toPrecision(3)}（超过 ${p.tolerance}）`
            : `第 ${p.layer} 层的注意力缩放在两轮计算之间变了（相差 ${p.maxDiff.toPrecision(3)}）`;
    }
  },
};

export const attentionNotices = {
  'model.attention-unrecognised': {
    en: (p: AttentionRefusalParams) => `Jiangu cannot show where this model looks: ${refusalReason.en(p) ?? `${p.code}: ${p.detail}`}. The other views work as before.`,
    zh: (p: AttentionRefusalParams) => `鉴古无法显示此模型看向哪里：${refusalReason.zh(p) ?? `${p.code}：${p.detail}`}。其他视图不受影响。`,
  },
  'model.attention-session-refused': {
    en: (p: { detail: string }) => `ONNX Runtime would not load the graph with Jiangu's attention outputs (its message: "${p.detail}"), so where the model looks cannot be shown. The other views work as before.`,
    zh: (p: { detail: string }) => `ONNX Runtime 无法加载带鉴古注意力输出的计算图（它的报错：“${p.detail}”），因此无法显示模型看向哪里。其他视图不受影响。`,
  },
  // Every reading is checked pass by pass against the graph's own numbers; a mismatch shows nothing.
  'model.attention-pass-refused': {
    en: (p: AttentionPassParams) => `Jiangu does not show where the model looks on this text: ${passProblem.en(p)}. Rather than show numbers it cannot vouch for, it shows none.`,
    zh: (p: AttentionPassParams) => `鉴古不显示模型在这段文字上看向哪里：${passProblem.zh(p)}。与其显示无法担保的数字，不如不显示。`,
  },
  'model.attention-check-failed': {
    en: (p: AttentionPassParams & { tokens: number }) => `On a ${p.tokens}-token test text Jiangu's attention disagreed with the model's own (${passProblem.en(p)}), so it does not show where this model looks.`,
    zh: (p: AttentionPassParams & { tokens: number }) => `在一段 ${p.tokens} 个词元的测试文本上，鉴古算出的注意力与模型自己的不一致（${passProblem.zh(p)}），因此不显示此模型看向哪里。`,
  },
  'model.attention-not-loaded': {
    en: () => 'This model was loaded without the attention view: load it on the Reading page first.',
    zh: () => '此模型加载时没有带注意力视图：请先在“读法”页面加载它。',
  },
  'model.attention-no-passage': {
    en: () => 'No text has been read for the attention view yet: read one first.',
    zh: () => '注意力视图还没有读过文字：请先读一段。',
  },
  'model.attention-position': {
    en: (p: { position: number; tokens: number }) => `Position ${p.position} is not in the text read, which has ${p.tokens} tokens (positions 0 to ${p.tokens - 1}).`,
    zh: (p: { position: number; tokens: number }) => `位置 ${p.position} 不在读过的文字里：它有 ${p.tokens} 个词元（位置 0 到 ${p.tokens - 1}）。`,
  },
} satisfies NoticeTexts;
