import { mount } from 'svelte';
import App from './ui/App.svelte';
import { registerServiceWorker } from './ui/site/register.ts';
import './ui/global.css';

mount(App, { target: document.getElementById('app')! });
registerServiceWorker();
