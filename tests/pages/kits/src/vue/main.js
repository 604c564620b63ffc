// Workspace settings on PrimeVue (Vue 3, Aura theme injected at run time, no fonts or icons
// fetched): see App.vue.
import { createApp } from 'vue';
import PrimeVue from 'primevue/config';
import Aura from '@primeuix/themes/aura';
import App from './App.vue';

createApp(App).use(PrimeVue, { theme: { preset: Aura } }).mount('#app');
