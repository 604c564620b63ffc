// Workspace settings on Bootstrap 5: its JS bundle (data attributes drive tabs, dropdown,
// modal, accordion, offcanvas); this file only turns the settings into the status lines.
import 'bootstrap/dist/css/bootstrap.min.css';
import 'bootstrap';

const settings = { notifications: false, dark: false, digest: false, plan: null, saved: false };

function render() {
  const lines = [];
  if (settings.notifications) lines.push('Notifications on');
  if (settings.dark) lines.push('Dark theme on');
  if (settings.plan) lines.push(`Plan: ${settings.plan} chosen`);
  if (settings.digest) lines.push('Digest: weekly');
  if (settings.saved) lines.push('Settings saved');
  const status = document.getElementById('status');
  status.replaceChildren(...lines.map((text) => Object.assign(document.createElement('li'), { textContent: text })));
  document.getElementById('plan-button').textContent = settings.plan ? `Plan: ${settings.plan}` : 'Plan';
}

document.getElementById('notifications').addEventListener('change', (event) => {
  settings.notifications = event.target.checked;
  render();
});
for (const radio of document.querySelectorAll('input[name=theme]')) {
  radio.addEventListener('change', () => {
    settings.dark = document.getElementById('theme-dark').checked;
    render();
  });
}
document.getElementById('digest').addEventListener('change', (event) => {
  settings.digest = event.target.checked;
  render();
});
for (const item of document.querySelectorAll('[data-plan]')) {
  item.addEventListener('click', () => {
    settings.plan = item.dataset.plan;
    render();
  });
}
document.getElementById('confirm').addEventListener('click', () => {
  settings.saved = true;
  render();
});
render();
