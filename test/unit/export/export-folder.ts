// Writes an lm-eval export (exportLmEval's files) to a folder on disk, as a user unpacks the zip,
// for the tests that run the harness stand-ins or Python over it.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export function writeExportFolder(files: readonly { path: string; text: string }[], folder: string): void {
  for (const f of files) {
    mkdirSync(dirname(join(folder, f.path)), { recursive: true });
    writeFileSync(join(folder, f.path), f.text);
  }
}
