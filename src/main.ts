import { mount } from 'svelte';
import App from './ui/App.svelte';
import { registerServiceWorker } from './ui/site/register.ts';
import { setLoadCheck } from './lib/engine/model-client.ts';
import { memoryCheck } from './ui/models/memory-check.svelte.ts';
import { router } from './ui/router.svelte.ts';
import { preloadPage } from './ui/pages.ts';
import { NEWEST_ROWS, readRunListEarly } from './lib/store/run-index.ts';
import { fmt } from './ui/i18n/locale.svelte.ts';
import './ui/global.css';

// Every model load of the site's pages passes the memory check first (the test harness has none).
setLoadCheck((params) => memoryCheck.check(params));
// Before the shell mounts: the site state (window.jianguSite) is there from the start, as it was, and
// workbox-window itself waits for the window's load before it registers the worker.
registerServiceWorker();
// Start-up in short tasks, not one long one. This one runs the modules and asks for the chunk of the
// page the route names (App.svelte shows it when it comes); the next makes the tab's first number
// format, whose locale data costs 30–40 ms the first time in a tab (Intl.NumberFormat); the one after
// mounts the shell, whose header shows a number.
preloadPage(router.page);
// The pages that list the stored runs: the list is read while the page loads (run-index.ts).
// Here, in this task: a dynamic import of it waited behind the mount's task (~270 ms at 10,000 runs).
// A long list draws its newest rows first, so those are read first.
if (router.page === 'evaluate' || router.page === 'compare') readRunListEarly(NEWEST_ROWS);
setTimeout(() => fmt.count(0));
setTimeout(() => mount(App, { target: document.getElementById('app')! }));
