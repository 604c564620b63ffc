// Workspace settings on Shoelace (web components with open shadow roots, Lit inside): switch,
// checkbox, select, tab group, details and dialog. Each complete use adds a status line.
import '@shoelace-style/shoelace/dist/themes/light.css';
import '@shoelace-style/shoelace/dist/components/button/button.js';
import '@shoelace-style/shoelace/dist/components/checkbox/checkbox.js';
import '@shoelace-style/shoelace/dist/components/details/details.js';
import '@shoelace-style/shoelace/dist/components/dialog/dialog.js';
import '@shoelace-style/shoelace/dist/components/option/option.js';
import '@shoelace-style/shoelace/dist/components/select/select.js';
import '@shoelace-style/shoelace/dist/components/switch/switch.js';
import '@shoelace-style/shoelace/dist/components/tab/tab.js';
import '@shoelace-style/shoelace/dist/components/tab-group/tab-group.js';
import '@shoelace-style/shoelace/dist/components/tab-panel/tab-panel.js';

const settings = { notifications: false, digest: false, plan: '', archived: false };
const $ = (id) => document.getElementById(id);

function render() {
  const lines = [];
  if (settings.notifications) lines.push('Notifications on');
  if (settings.digest) lines.push('Digest: weekly');
  if (settings.plan) lines.push(`Plan: ${settings.plan} chosen`);
  if (settings.archived) lines.push('Workspace archived');
  $('status').replaceChildren(...lines.map((text) => Object.assign(document.createElement('li'), { textContent: text })));
}

$('notifications').addEventListener('sl-change', (event) => {
  settings.notifications = event.target.checked;
  render();
});
$('digest').addEventListener('sl-change', (event) => {
  settings.digest = event.target.checked;
  render();
});
$('plan').addEventListener('sl-change', (event) => {
  settings.plan = event.target.value;
  render();
});
$('archive').addEventListener('click', () => $('confirm-archive').show());
$('cancel').addEventListener('click', () => $('confirm-archive').hide());
$('confirm').addEventListener('click', () => {
  settings.archived = true;
  $('confirm-archive').hide();
  render();
});
render();
