// Asking a host about a file without downloading it: a HEAD, or, where a static host refuses HEAD
// (405, 501), a one-byte Range GET whose body is dropped. Used where the worker looks for a model's
// external data (workers/external-data.ts) and where the page reads a model's size before a load
// (model-size.ts).

/** The host's answer for `url`: a HEAD's, or a one-byte GET's (status 206 with Content-Range, or 200). */
export async function probeHost(url: string, fetchFn: typeof fetch): Promise<Response> {
  const head = await fetchFn(url, { method: 'HEAD' });
  if (head.status !== 405 && head.status !== 501) return head;
  const probe = await fetchFn(url, { headers: { Range: 'bytes=0-0' } });
  await probe.body?.cancel();
  return probe;
}
