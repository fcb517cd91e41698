// Whether an error's text says memory ran out, wherever it was caught: a load, a request, or the
// worker's own 'error' event (an exception nothing in the worker caught). Each engine words it its own
// way; a memory failure told as such says what to try (a smaller dtype, one model at a time), where
// "the model failed" or "the worker crashed" leaves the user nowhere. Pure: unit-tested on the texts.

/** What the engines say when memory runs out. Each pattern names one source, so a new one is added beside its kin. */
const MEMORY_RAN_OUT: readonly RegExp[] = [
  // V8 growing a wasm Memory past what it can reserve or may hold ("Unable to grow instance memory",
  // "Maximum memory size exceeded"), or creating one ("could not allocate memory", "Cannot allocate
  // Wasm memory for new instance"): ORT's wasm heap meets this wall at 4 GB.
  /WebAssembly\.Memory(\.grow)?\(\)|Unable to grow instance memory|Maximum memory size exceeded|Cannot allocate Wasm memory/i,
  // V8 refusing an ArrayBuffer, or a typed array longer than it allows. Only a length of ten digits or
  // more: a short or negative one is a bug, not memory.
  /Array buffer allocation failed|Invalid (typed )?array( buffer)? length: \d{10,}/i,
  // emscripten's abort in ORT's wasm when its heap cannot grow ("Aborted(OOM)", "Cannot enlarge memory
  // arrays"), or a bare "Aborted()", what a failed allocation in a build without C++ exceptions ends in.
  /Cannot enlarge memory|Aborted\(\)|\bOOM\b/,
  // onnxruntime's allocators ("failed to allocate a buffer of size …", C++'s std::bad_alloc), and the
  // general wordings ("out of memory", "Cannot allocate memory").
  /failed to allocate|bad_alloc|out of memory|Cannot allocate memory/i,
  // WebGPU: a buffer larger than the device allows.
  /maxBufferSize|exceeds the max buffer size/i,
];

/** Whether `text` (an error's name and message, or a worker ErrorEvent's message) says memory ran out. */
export function ranOutOfMemory(text: string): boolean {
  return MEMORY_RAN_OUT.some((pattern) => pattern.test(text));
}
