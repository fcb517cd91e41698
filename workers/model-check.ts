// Gathers the model check's facts in the worker, right after a load: the ONNX file's structure (read
// again as a stream: the site's copy by fetch, a hub model's from the Cache Storage transformers.js
// filled, never a second download), how the letters tokenize after the answer cue, and the chat
// template's opening. What they mean is decided in src/lib/core/models/model-check.ts.
import type { PreTrainedTokenizer } from '@huggingface/transformers';
import type { BackendInfo, Dtype, ExternalDataInfo } from '../src/lib/engine/messages.ts';
import type { LogitsPath, StatisticsPath } from '../src/lib/core/models/model-check.ts';
import { buildModelCheck, sampleCmmluPrompt, type ModelCheck, type ModelCheckFacts, type ThinkingFinding } from '../src/lib/core/models/model-check.ts';
import { scanOnnx, type OnnxScan } from '../src/lib/core/models/onnx-scan.ts';
import { letterInContext } from '../src/lib/core/protocols/letter-tokens.ts';
import { CHAT_TEMPLATE_OPTIONS } from '../src/lib/core/protocols/chat-template.ts';
import { encode } from './loaded-model.ts';

export interface CheckInputs {
  tokenizer: PreTrainedTokenizer;
  config: Record<string, unknown>;
  /** The model folder's URL, ending in '/'. */
  folderUrl: string;
  /** The file in onnx/, e.g. `model_q4.onnx`. */
  onnxFile: string;
  onSite: boolean;
  /** transformers.js' Cache Storage name (env.cacheKey). */
  cacheName: string;
  dtype: Dtype;
  backendInfo: BackendInfo;
  inputNames: string[];
  externalData: ExternalDataInfo | null;
  prefillRows: number | null;
  positions: number | null;
  logitsPath?: LogitsPath;
  statisticsPath?: StatisticsPath;
}

/** A ReadableStream's chunks; the stream is cancelled if the scan stops before its end. */
async function* chunksOf(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

/** The ONNX file's body: the site's by fetch, a hub model's only from Cache Storage. */
async function onnxBody(inputs: CheckInputs): Promise<ReadableStream<Uint8Array>> {
  const url = `${inputs.folderUrl}onnx/${inputs.onnxFile}`;
  if (inputs.onSite) {
    const response = await fetch(url);
    if (!response.ok || !response.body) throw new Error(`HTTP ${response.status} for ${url}`);
    return response.body;
  }
  if (typeof caches === 'undefined') throw new Error('this browser gives no Cache Storage, and the file is not downloaded twice');
  const cached = await (await caches.open(inputs.cacheName)).match(url);
  if (!cached?.body) throw new Error('the file is not in this browser’s model cache, and it is not downloaded twice');
  return cached.body;
}

/** The template's text before and after a user turn, and whether Jiangu's render turns thinking off. */
export function chatTemplateFacts(tokenizer: PreTrainedTokenizer): ModelCheckFacts['chatTemplate'] {
  const source = (tokenizer as unknown as { chat_template?: unknown }).chat_template;
  if (source === null || source === undefined) return null;
  // A placeholder no template alters, so the text around it is the template's own.
  const placeholder = 'JIANGU_USER_TURN_7Q3';
  const render = (options: Record<string, unknown>) => tokenizer.apply_chat_template([{ role: 'user', content: placeholder }], { tokenize: false, ...options }) as string;
  try {
    const jiangu = render(CHAT_TEMPLATE_OPTIONS);
    const plain = render({ add_generation_prompt: true });
    const at = jiangu.indexOf(placeholder);
    // A template that reads enable_thinking renders differently with it off: that is what Jiangu does.
    const mentionsThinking = /think/i.test(JSON.stringify(source));
    const thinking: ThinkingFinding = jiangu !== plain ? 'off' : mentionsThinking ? 'not-off' : 'none';
    return at < 0 ? { opening: jiangu, closing: '', thinking } : { opening: jiangu.slice(0, at), closing: jiangu.slice(at + placeholder.length), thinking };
  } catch {
    return null;
  }
}

/** The model check of a model just loaded. Never throws: what it cannot find becomes a warning. */
export async function checkLoadedModel(inputs: CheckInputs): Promise<ModelCheck> {
  let scan: OnnxScan | null = null;
  let scanProblem: string | undefined;
  try {
    scan = await scanOnnx(chunksOf(await onnxBody(inputs)));
  } catch (error) {
    scanProblem = error instanceof Error ? error.message : String(error);
  }
  const enc = (text: string, special: boolean) => encode(inputs.tokenizer, text, special);
  const prompt = sampleCmmluPrompt();
  const promptIds = enc(prompt, true);
  const letters = ['A', 'B', 'C', 'D'].map((letter) => ({ letter, ...letterInContext(enc, prompt, promptIds, letter) }));
  return buildModelCheck({
    onnxFile: `onnx/${inputs.onnxFile}`,
    scan,
    scanProblem,
    config: inputs.config,
    dtype: inputs.dtype,
    backend: inputs.backendInfo.backend,
    shaderF16: inputs.backendInfo.adapter ? inputs.backendInfo.adapter.shaderF16 : null,
    inputNames: inputs.inputNames,
    externalData: inputs.externalData,
    prefillRows: inputs.prefillRows,
    positions: inputs.positions,
    ...(inputs.logitsPath ? { logitsPath: inputs.logitsPath } : {}),
    ...(inputs.statisticsPath ? { statisticsPath: inputs.statisticsPath } : {}),
    letters,
    prompt: { chars: [...prompt].length, tokens: promptIds.length },
    chatTemplate: chatTemplateFacts(inputs.tokenizer),
  });
}
