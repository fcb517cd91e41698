// The automation entry point: the browser tests and `npm run bench` drive the real worker and the
// real data pipeline through the same modules the site uses, without clicking through the UI.
import { ModelClient, ModelError } from './lib/engine/model-client.ts';
import { fetchCatalogFiles, storeDataset } from './lib/data/import-dataset.ts';
import { deleteDataset, loadTaskItems } from './lib/store/datasets.ts';
import { openJianguDb } from './lib/store/schema.ts';
import { rewriteForLastLogits } from './lib/core/models/logits-rewrite.ts';

// rewriteForLastLogits: the bench's bare session runs the same one-row graph the worker makes of a
// model without num_logits_to_keep (the presets' real shapes), so its ceiling does the same MatMuls.
// reader(): the page's one model worker, made on first use. Tests that load fixture after fixture
// load each into it, as the playground and a run load a model into their worker: a fresh worker's
// start costs about 1.2 s a load.
let reader: ModelClient | undefined;
const jiangu = { ModelClient, ModelError, reader: () => (reader ??= new ModelClient()), data: { openJianguDb, fetchCatalogFiles, storeDataset, loadTaskItems, deleteDataset }, models: { rewriteForLastLogits } };
declare global {
  interface Window {
    jiangu: typeof jiangu;
  }
}
window.jiangu = jiangu;
document.getElementById('status')!.textContent = 'ready';
