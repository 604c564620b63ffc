// Errands with Vue 3: one single-file component, its template compiled at build time.
import { createApp } from 'vue';
import App from './App.vue';

createApp(App).mount('#app');
