import { mount } from 'svelte';
import App from './ui/App.svelte';
import { registerServiceWorker } from './ui/site/register.ts';
import { setLoadCheck } from './lib/engine/model-client.ts';
import { memoryCheck } from './ui/models/memory-check.svelte.ts';
import './ui/global.css';

// Every model load of the site's pages passes the memory check first (the test harness has none).
setLoadCheck((params) => memoryCheck.check(params));
mount(App, { target: document.getElementById('app')! });
registerServiceWorker();
