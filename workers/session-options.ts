// onnxruntime-web's session options for a load, chosen by measurement (scripts/bench/memory-stages.ts,
// the README's memory table): ORT's own defaults (prepacking, the CPU arena, memory patterns), which
// moved no peak beyond the spread between runs on jiangu-large fp32 and the hub-sized q8 files; and
// one exception, prepacking off for a session whose tied float head is a Gemm on the embedding
// (withoutPrepacking, applied by logits-rewrite-hook.ts: see RewriteRequest.prepacking).
import type { OrtMemoryOptions } from '../src/lib/engine/messages.ts';

/** The defaults every load starts from (LoadParams.ortMemoryOptions overrides them, for the bench). */
export const ORT_MEMORY_OPTIONS: Required<OrtMemoryOptions> = { prepacking: true, cpuArena: true, memPattern: true };

/** onnxruntime-web's session options for `asked` over the defaults (only what differs from ORT's own). */
export function ortSessionOptions(asked: OrtMemoryOptions = {}): Record<string, unknown> {
  const o = { ...ORT_MEMORY_OPTIONS, ...asked };
  return {
    ...(o.cpuArena ? {} : { enableCpuMemArena: false }),
    ...(o.memPattern ? {} : { enableMemPattern: false }),
    ...(o.prepacking ? {} : withoutPrepacking({})),
  };
}

/** Session options with onnxruntime's weight prepacking off (its session config key), the rest as they were. */
export function withoutPrepacking(options: unknown): Record<string, unknown> {
  const o = (options ?? {}) as { extra?: { session?: Record<string, string> } };
  return { ...o, extra: { ...o.extra, session: { ...o.extra?.session, disable_prepacking: '1' } } };
}
