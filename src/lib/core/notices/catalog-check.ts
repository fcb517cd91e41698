// Messages of the model check (src/lib/core/models/model-check.ts): what a loaded model will do
// with a CMMLU-style prompt, each warning saying what it costs and what to do.
import { formatBytes } from '../benchmarks/byte-text.ts';

export const checkNotices = {
  'check.no-scan': {
    en: (p: { file: string; reason: string }) => `Jiangu could not read ${p.file} to check its graph (${p.reason}). The facts shown come from config.json and the loaded session only; reload the model to try again.`,
    zh: (p: { file: string; reason: string }) => `鉴古未能读取 ${p.file} 以检查其计算图（${p.reason}）。下面的信息仅来自 config.json 和已加载的会话；可重新加载模型再试。`,
  },
  'check.chunked-prefill': {
    en: (p: { rows: number; passes: number; tokens: number; blockBytes: number }) =>
      `The graph has no num_logits_to_keep input, so every forward pass returns logits for each token it is given. Jiangu therefore prefills prompts in chunks of at most ${p.rows.toLocaleString('en')} tokens: a typical 5-shot prompt (${p.tokens} tokens) takes ${p.passes} ${p.passes === 1 ? 'pass' : 'passes'}, each returning up to ${formatBytes(p.blockBytes)} of logits. Scores are the same; it costs time and that memory. Nothing to do unless the tab runs out of memory: then pick a smaller model.`,
    zh: (p: { rows: number; passes: number; tokens: number; blockBytes: number }) =>
      `该计算图没有 num_logits_to_keep 输入，每次前向计算都会为输入的每个词元返回一行 logits。因此鉴古把提示分块预填充，每块最多 ${p.rows.toLocaleString('en')} 个词元：一个典型的 5-shot 提示（${p.tokens} 个词元）需要 ${p.passes} 次前向计算，每次最多返回 ${formatBytes(p.blockBytes)} 的 logits。得分不受影响，只是更费时、占用这些内存。除非页面内存不足，否则无需处理；内存不足时请换用更小的模型。`,
  },
  'check.letter-not-one-token': {
    en: (p: { letter: string; ids: string; cue: string }) => `After “${p.cue}” the letter ${p.letter} becomes several tokens [${p.ids}]; only the first is scored, so its score is an approximation. Prefer a model whose tokenizer keeps A–D as single tokens, or read this model's letter scores with care.`,
    zh: (p: { letter: string; ids: string; cue: string }) => `在“${p.cue}”之后，字母 ${p.letter} 被切成多个词元 [${p.ids}]；只计算第一个词元的得分，因此该得分只是近似值。请优先选用把 A–D 各编码为单个词元的模型，或谨慎解读此模型的字母得分。`,
  },
  'check.letter-merges': {
    en: (p: { letter: string; cue: string }) => `After “${p.cue}” the tokenizer merges the letter ${p.letter} into the cue's last token, so no next token is the letter; its token alone is scored, an approximation. Use generation scoring for this model, or another model.`,
    zh: (p: { letter: string; cue: string }) => `在“${p.cue}”之后，分词器把字母 ${p.letter} 与提示末尾的词元合并，下一个词元不会是这个字母；只能用它单独编码的词元计分，只是近似值。请对此模型改用生成式评分，或换一个模型。`,
  },
  'check.letters-share-token': {
    en: (p: { letters: string[]; tokenId: number }) => `The letters ${p.letters.join(' and ')} are read from the same token ${p.tokenId}, so they cannot be told apart: letter scores of this model are meaningless. Use generation scoring or another model.`,
    zh: (p: { letters: string[]; tokenId: number }) => `字母 ${p.letters.join('、')} 读取的是同一个词元 ${p.tokenId}，无法区分：此模型的字母得分没有意义。请改用生成式评分或换一个模型。`,
  },
  'check.thinking-not-off': {
    en: () => 'The chat template has a thinking mode that enable_thinking=false does not turn off: with the chat template on, the model may answer with <think> instead of a letter. Run without the chat template, or use generation scoring with a large enough token budget.',
    zh: () => '该对话模板带有思考模式，enable_thinking=false 无法关闭：启用对话模板时，模型可能先输出 <think> 而不是字母。请不用对话模板运行，或改用生成式评分并给足词元预算。',
  },
  'check.no-shader-f16': {
    en: (p: { dtype: string }) => `This graph computes in float16 (${p.dtype}) but this GPU lacks shader-f16, so WebGPU cannot run it. Load fp32, q8 or q4 instead, or choose WASM.`,
    zh: (p: { dtype: string }) => `该计算图以 float16 计算（${p.dtype}），但这块 GPU 不支持 shader-f16，WebGPU 无法运行。请改为加载 fp32、q8 或 q4，或选择 WASM。`,
  },
  'check.over-positions': {
    en: (p: { tokens: number; positions: number; chars: number }) => `A typical 5-shot CMMLU prompt (${p.chars} characters) is about ${p.tokens} tokens for this tokenizer, more than the model's ${p.positions} positions. Jiangu drops exemplars until a prompt fits and does not run items that still do not: use fewer shots (0-shot), or a model with a longer context.`,
    zh: (p: { tokens: number; positions: number; chars: number }) => `一个典型的 5-shot CMMLU 提示（${p.chars} 个字符）用此分词器约为 ${p.tokens} 个词元，超过了模型的 ${p.positions} 个位置。鉴古会删去示例直到提示放得下，仍放不下的题目不运行：请减少示例（0-shot），或换用上下文更长的模型。`,
  },
  'check.many-tokens-per-char': {
    en: (p: { tokensPerChar: number }) => `This tokenizer spends about ${p.tokensPerChar.toFixed(1)} tokens per classical Chinese character (it falls back to bytes for characters it lacks), so prompts are long and the model sees characters as byte pieces. Expect weak results on classical Chinese; it says more about the tokenizer than about the task.`,
    zh: (p: { tokensPerChar: number }) => `此分词器每个文言汉字约用 ${p.tokensPerChar.toFixed(1)} 个词元（词表中没有的字退回按字节编码），因此提示很长，模型看到的是字节碎片。预计在文言文上成绩很差；这更多反映分词器，而不是任务本身。`,
  },
};
