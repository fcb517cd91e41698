// The automation entry point: the browser tests and `npm run bench` drive the real worker through
// the same ModelClient the site uses, without clicking through the UI.
import { ModelClient, ModelError } from './lib/engine/model-client.ts';

const jiangu = { ModelClient, ModelError };
declare global {
  interface Window {
    jiangu: typeof jiangu;
  }
}
window.jiangu = jiangu;
document.getElementById('status')!.textContent = 'ready';
