// Errands with Svelte 5: one compiled component mounted into #app.
import { mount } from 'svelte';
import App from './App.svelte';

mount(App, { target: document.getElementById('app') });
