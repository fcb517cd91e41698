// A setup file of the browser project (vitest.config.ts). Its files share one process per worker (the
// served site and Chromium are started once per worker: session.ts), so what a file sets in
// process.env (JIANGU_MODELS, read by the site on every request) is put back once the file is done,
// as if it had run in a process of its own.
import { afterAll } from 'vitest';

const saved = { ...process.env };

afterAll(() => {
  for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
  Object.assign(process.env, saved);
});
