// The user's WASM thread setting as the page shows it: read from this device's settings, written back
// there (every model load reads it, ModelClient.load), and followed when another tab changes it.
import { savedWasmThreads, saveWasmThreads, wasmThreadsKey } from '../../lib/data/settings.ts';
import type { WasmThreadsSetting } from '../../lib/core/models/wasm-threads.ts';

class WasmThreadsState {
  setting = $state<WasmThreadsSetting>(savedWasmThreads());

  /** Keeps `value` for the next model load of any tab, and for later visits. */
  choose(value: WasmThreadsSetting): void {
    saveWasmThreads(value);
    this.setting = savedWasmThreads();
  }
}

export const wasmThreadsSetting = new WasmThreadsState();

if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key === wasmThreadsKey || event.key === null) wasmThreadsSetting.setting = savedWasmThreads();
  });
}
