/** The model check: the memory estimate against hand-worked numbers, and each warning's trigger. */
import { describe, expect, it } from 'vitest';
import {
  ANSWER_CUE,
  CMMLU_5SHOT_MEDIAN_CHARS,
  buildModelCheck,
  sampleCmmluPrompt,
  type LetterFinding,
  type ModelCheckFacts,
} from '../../../src/lib/core/models/model-check.ts';
import { modelCheckOf, readModelCheck } from '../../../src/lib/core/models/model-check-read.ts';
import type { OnnxScan, OnnxValue } from '../../../src/lib/core/models/onnx-scan.ts';
import { adaptDataset } from '../../../src/lib/core/benchmarks/adapters/index.ts';
import type { MultipleChoiceItem } from '../../../src/lib/core/benchmarks/types.ts';
import { buildMcPrompt, getProtocol } from '../../../src/lib/core/protocols/index.ts';
import { renderNotice } from '../../../src/lib/core/notices/index.ts';
import { describeWithSharedData, readCatalogFiles } from '../benchmarks/shared-data.ts';
import { runJson } from '../../../src/lib/core/formats/jiangu-run/export.ts';
import { parseRunFile } from '../../../src/lib/core/formats/import-record.ts';
import { makeMcRun } from '../../fixtures/run-records/build.ts';

/** A Qwen3-0.6B-shaped graph: 28 layers, 8 KV heads of 128, vocabulary 151,936. */
function qwenScan(opts: { keep: boolean; kv: string; attention: 'gqa' | 'matmul'; external?: boolean }): OnnxScan {
  const inputs: OnnxValue[] = [
    { name: 'input_ids', elemType: 'int64', dims: ['batch_size', 'sequence_length'] },
    { name: 'attention_mask', elemType: 'int64', dims: ['batch_size', 'total_sequence_length'] },
  ];
  for (let i = 0; i < 28; i++) {
    for (const kv of ['key', 'value']) inputs.push({ name: `past_key_values.${i}.${kv}`, elemType: opts.kv, dims: ['batch_size', 8, 'past_sequence_length', 128] });
  }
  if (opts.keep) inputs.push({ name: 'num_logits_to_keep', elemType: 'int64', dims: [] });
  return {
    irVersion: 8,
    producer: 'onnxruntime-genai',
    producerVersion: '',
    opsets: [{ domain: '', version: 21 }],
    inputs,
    outputs: [{ name: 'logits', elemType: opts.kv, dims: ['batch_size', 'sequence_length', 151936] }],
    ops:
      opts.attention === 'gqa'
        ? [{ domain: 'com.microsoft', opType: 'GroupQueryAttention', count: 28 }, { domain: '', opType: 'MatMul', count: 100 }]
        : [{ domain: '', opType: 'MatMul', count: 200 }, { domain: '', opType: 'Softmax', count: 28 }],
    initializers: 300,
    inlineBytes: 300_000_000,
    externalData: opts.external ? [{ location: 'model.onnx_data', bytes: 1_900_000_000 }] : [],
    fileBytes: 300_000_123,
  };
}

const letter = (l: string, tokenId: number, more: Partial<LetterFinding> = {}): LetterFinding => ({
  letter: l,
  tokenId,
  tokenCount: 1,
  idsInContext: [tokenId],
  mergesWithPrompt: false,
  aloneIds: [tokenId],
  ...more,
});
const qwenLetters = () => [letter('A', 32), letter('B', 33), letter('C', 34), letter('D', 35)];

function facts(more: Partial<ModelCheckFacts> = {}): ModelCheckFacts {
  return {
    onnxFile: 'onnx/model_q4f16.onnx',
    scan: qwenScan({ keep: false, kv: 'float16', attention: 'gqa' }),
    config: { num_hidden_layers: 28, num_attention_heads: 16, num_key_value_heads: 8, head_dim: 128, vocab_size: 151936, max_position_embeddings: 40960 },
    dtype: 'q4f16',
    backend: 'webgpu',
    shaderF16: true,
    inputNames: [],
    externalData: null,
    prefillRows: 110,
    positions: 40960,
    letters: qwenLetters(),
    prompt: { chars: 446, tokens: 500 },
    chatTemplate: { opening: '<|im_start|>user\n', closing: '<|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>\n\n', thinking: 'off' },
    ...more,
  };
}

const codes = (f: ModelCheckFacts) => buildModelCheck(f).warnings.map((w) => w.code);

describe('the memory a 5-shot CMMLU prompt needs', () => {
  it('Qwen3-shaped q4f16 without num_logits_to_keep: KV, chunked logits block, weights', () => {
    const check = buildModelCheck(facts());
    // 2 × 28 layers × 8 heads × 128 × 500 tokens × 2 bytes (float16) = 57,344,000
    expect(check.memory.kvCacheBytes).toBe(57_344_000);
    expect(check.memory).toMatchObject({ layers: 28, kvHeads: 8, headDim: 128, kvBytesPerValue: 2, tokens: 500 });
    // 110 rows × 151,936 × 2 bytes (the graph returns float16 logits) = 33,425,920; ceil(500 / 110) = 5 passes
    expect(check.memory.rowsPerPass).toBe(110);
    expect(check.memory.logitsBytesPerValue).toBe(2);
    expect(check.memory.logitsBlockBytes).toBe(33_425_920);
    expect(check.memory.passes).toBe(5);
    expect(check.memory.weightsBytes).toBe(300_000_123);
    expect(check).toMatchObject({ keepsLastRow: false, attention: 'GroupQueryAttention', kvDtype: 'float16', logitsDtype: 'float16' });
  });

  it('a graph that keeps the last row: one row of logits, one pass; fp32 KV; external data counted in the weights', () => {
    const check = buildModelCheck(facts({ scan: qwenScan({ keep: true, kv: 'float32', attention: 'matmul', external: true }), dtype: 'fp32', externalData: { files: ['onnx/model.onnx_data'], how: 'detected' } }));
    expect(check.memory.rowsPerPass).toBe(1);
    expect(check.memory.passes).toBe(1);
    expect(check.memory.logitsBlockBytes).toBe(151_936 * 4);
    // 2 × 28 × 8 × 128 × 500 × 4 = 114,688,000
    expect(check.memory.kvCacheBytes).toBe(114_688_000);
    expect(check.memory.weightsBytes).toBe(300_000_123 + 1_900_000_000);
    expect(check.attention).toBe('MatMul');
    expect(check.externalData).toEqual([{ file: 'onnx/model.onnx_data', bytes: 1_900_000_000 }]);
    expect(check.externalHow).toBe('detected');
    expect(check.warnings).toEqual([]);
  });

  it('a prompt shorter than a chunk is one pass of its own rows; q8 keeps its fixed 32 rows', () => {
    const short = buildModelCheck(facts({ prompt: { chars: 446, tokens: 60 } }));
    expect(short.memory).toMatchObject({ rowsPerPass: 60, passes: 1, logitsBlockBytes: 60 * 151_936 * 2 });
    // The warning names the worker's chunk, not this prompt's length.
    expect(short.warnings[0]).toEqual({ code: 'check.chunked-prefill', params: { rows: 110, passes: 1, tokens: 60, blockBytes: 60 * 151_936 * 2 } });
    expect(buildModelCheck(facts({ prefillRows: 32 })).memory).toMatchObject({ rowsPerPass: 32, passes: 16, logitsBlockBytes: 32 * 151_936 * 2 });
  });

  it('without a scan: config.json gives the shapes (head_dim from hidden_size / heads), and the check says it could not read the file', () => {
    const check = buildModelCheck(
      facts({ scan: null, scanProblem: 'HTTP 404', inputNames: ['input_ids', 'num_logits_to_keep'], config: { num_hidden_layers: 2, num_attention_heads: 4, num_key_value_heads: 2, hidden_size: 64, vocab_size: 749 }, prompt: { chars: 446, tokens: 450 } }),
    );
    // 2 × 2 layers × 2 heads × 16 × 450 × 4 bytes (float32 assumed) = 230,400
    expect(check.memory).toMatchObject({ headDim: 16, kvCacheBytes: 230_400, weightsBytes: null, logitsBlockBytes: 749 * 4 });
    expect(check.keepsLastRow).toBe(true);
    expect(check.graph).toBeNull();
    expect(check.warnings[0]).toEqual({ code: 'check.no-scan', params: { file: 'onnx/model_q4f16.onnx', reason: 'HTTP 404' } });
  });
});

describe('warnings', () => {
  it('no num_logits_to_keep: chunked prefill, with its rows, passes and block', () => {
    const [w] = buildModelCheck(facts()).warnings;
    expect(w).toEqual({ code: 'check.chunked-prefill', params: { rows: 110, passes: 5, tokens: 500, blockBytes: 33_425_920 } });
    expect(renderNotice(w, 'en')).toContain('chunks of at most 110 tokens');
    expect(renderNotice(w, 'en')).toContain('31.9 MB');
    expect(renderNotice(w, 'zh')).toContain('每块最多 110 个词元');
  });

  it('a letter that is several tokens after the cue, or merges with it, or two letters on one token', () => {
    const split = facts({ letters: [letter('A', 32), letter('B', 40, { tokenCount: 2, idsInContext: [40, 41] }), letter('C', 34), letter('D', 35)] });
    const [, w] = buildModelCheck(split).warnings;
    expect(w).toEqual({ code: 'check.letter-not-one-token', params: { letter: 'B', ids: '40, 41', cue: ANSWER_CUE } });
    expect(codes(facts({ letters: [letter('A', 32, { mergesWithPrompt: true }), letter('B', 33), letter('C', 34), letter('D', 35)] }))).toContain('check.letter-merges');
    const shared = buildModelCheck(facts({ letters: [letter('A', 7), letter('B', 7), letter('C', 34), letter('D', 35)] })).warnings;
    expect(shared).toContainEqual({ code: 'check.letters-share-token', params: { letters: ['A', 'B'], tokenId: 7 } });
    expect(codes(facts())).not.toContain('check.letter-not-one-token');
  });

  it('a thinking template that enable_thinking=false does not turn off; none for a template without thinking', () => {
    expect(codes(facts({ chatTemplate: { opening: '', closing: '<think>', thinking: 'not-off' } }))).toContain('check.thinking-not-off');
    expect(codes(facts({ chatTemplate: { opening: '用户：', closing: '助手：', thinking: 'none' } }))).not.toContain('check.thinking-not-off');
    expect(codes(facts({ chatTemplate: null }))).not.toContain('check.thinking-not-off');
  });

  it('float16 on a GPU without shader-f16 (not on WASM, not with shader-f16, not for q4)', () => {
    expect(codes(facts({ shaderF16: false }))).toContain('check.no-shader-f16');
    expect(codes(facts({ shaderF16: true }))).not.toContain('check.no-shader-f16');
    expect(codes(facts({ backend: 'wasm', shaderF16: null }))).not.toContain('check.no-shader-f16');
    expect(codes(facts({ shaderF16: false, dtype: 'q4', scan: qwenScan({ keep: false, kv: 'float32', attention: 'gqa' }) }))).not.toContain('check.no-shader-f16');
  });

  it('a prompt over the model positions, and a tokenizer that spends bytes on characters', () => {
    const check = buildModelCheck(facts({ positions: 512, prompt: { chars: 446, tokens: 1338 } }));
    expect(check.warnings).toContainEqual({ code: 'check.over-positions', params: { tokens: 1338, positions: 512, chars: 446 } });
    expect(check.warnings).toContainEqual({ code: 'check.many-tokens-per-char', params: { tokensPerChar: 3 } });
    expect(codes(facts({ positions: 500 }))).not.toContain('check.over-positions');
    expect(codes(facts())).not.toContain('check.many-tokens-per-char');
  });
});

describe('the stand-in prompt', () => {
  it('is the measured number of characters of 《论语》, ending with the answer cue', () => {
    const prompt = sampleCmmluPrompt();
    expect([...prompt].length).toBe(CMMLU_5SHOT_MEDIAN_CHARS);
    expect(prompt.endsWith(`\n${ANSWER_CUE}`)).toBe(true);
    expect(prompt.startsWith('子曰：「學而時習之')).toBe(true);
    expect([...sampleCmmluPrompt(1200)].length).toBe(1200);
  });
});

describeWithSharedData('the measured prompt length', (root) => {
  it('is the median of the 5-shot CMMLU 古汉语 prompts the project builds', () => {
    const items = adaptDataset('cmmlu-ancient', readCatalogFiles(root, 'cmmlu-ancient')).items as MultipleChoiceItem[];
    const dev = items.filter((i) => i.split === 'dev');
    const lengths = items
      .filter((i) => i.split === 'test')
      .map((i) => [...buildMcPrompt(getProtocol('cmmlu'), i, dev, 5).prompt].length)
      .sort((a, b) => a - b);
    expect(lengths[Math.floor(lengths.length / 2)]).toBe(CMMLU_5SHOT_MEDIAN_CHARS);
  });
});

describe('a stored check read back', () => {
  it('keeps a check this version wrote (through JSON) and drops a damaged one', () => {
    const check = buildModelCheck(facts());
    expect(modelCheckOf(JSON.parse(JSON.stringify(check)))).toEqual(check);
    expect(modelCheckOf(JSON.parse(JSON.stringify(buildModelCheck(facts({ scan: null, chatTemplate: null })))))).toBeDefined();
    expect(modelCheckOf({ ...check, version: 2 })).toBeUndefined();
    expect(modelCheckOf({ ...check, memory: { ...check.memory, kvCacheBytes: '1 GB' } })).toBeUndefined();
    expect(modelCheckOf({ ...check, letters: [{ letter: 'A' }] })).toBeUndefined();
    expect(modelCheckOf({ ...check, chatTemplate: { opening: 1 } })).toBeUndefined();
    expect(modelCheckOf('check')).toBeUndefined();
    // A number out of its bound (model-check-read.ts) is named, for the importers to refuse; another version's shape is only dropped.
    expect(readModelCheck({ ...check, memory: { ...check.memory, weightsBytes: 1e308 } })).toEqual({ outOfRange: { path: 'memory.weightsBytes', value: 1e308, min: 0, max: 2 ** 40 } });
    expect(readModelCheck({ ...check, letters: [{ ...check.letters[0], idsInContext: [-1e308] }] }).outOfRange?.path).toBe('letters[0].idsInContext[0]');
    expect(readModelCheck({ ...check, version: 2 })).toEqual({});
  });
});

describe('the check in a run file', () => {
  it('survives an export and an import; a damaged one is dropped and the run still imports', async () => {
    const { run, results } = makeMcRun();
    const check = buildModelCheck(facts());
    const back = await parseRunFile(runJson({ ...run, modelCheck: check }, results), 'run.json');
    expect(back.run.modelCheck).toEqual(check);
    expect(JSON.stringify(back.run.warnings)).not.toContain('import.unknown-fields');
    const damaged = await parseRunFile(runJson({ ...run, modelCheck: { ...check, warnings: 'none' } as never }, results), 'run.json');
    expect(damaged.run.modelCheck).toBeUndefined();
    expect(damaged.results).toHaveLength(results.length);
  });
});

describe('the logits path (the load-time rewrite)', () => {
  it('a graph without num_logits_to_keep rewritten at load keeps the last row: one row a pass, no chunk warning', () => {
    const logitsPath = { kind: 'rewritten' as const, check: { tokens: 16, maxAbsDiff: 0 } };
    const check = buildModelCheck(facts({ logitsPath, prefillRows: null }));
    expect(check.keepsLastRow).toBe(true);
    expect(check.logitsPath).toEqual(logitsPath);
    expect(check.memory).toMatchObject({ rowsPerPass: 1, passes: 1, logitsBlockBytes: 151_936 * 2 });
    expect(check.warnings).toEqual([]);
    expect(modelCheckOf(JSON.parse(JSON.stringify(check)))).toEqual(check);
  });

  it('chunked with a reason: the chunk warning and the reason, in both languages', () => {
    const refusal = { code: 'model.logits-unrecognised', params: { code: 'head-not-recognised', detail: 'the logits come from an Einsum' } };
    const check = buildModelCheck(facts({ logitsPath: { kind: 'chunked', refusal } }));
    expect(check.keepsLastRow).toBe(false);
    expect(check.warnings.map((w) => w.code)).toEqual(['check.chunked-prefill', 'model.logits-unrecognised']);
    expect(renderNotice(refusal, 'en')).toContain('head-not-recognised: the logits come from an Einsum');
    expect(renderNotice(refusal, 'zh')).toContain('鉴古未能识别此计算图中生成 logits 的部分');
  });

  it('a stored check with a malformed logits path is dropped; one without (older) is kept', () => {
    const check = buildModelCheck(facts());
    expect(modelCheckOf({ ...check, logitsPath: { kind: 'sliced' } })).toBeUndefined();
    expect(modelCheckOf({ ...check, logitsPath: { kind: 'rewritten', check: { tokens: '16', maxAbsDiff: 0 } } })).toBeUndefined();
    expect(modelCheckOf(JSON.parse(JSON.stringify(check)))).toEqual(check);
  });
});
