// Errands with Lit 3: the whole app is <errands-app>, rendered into its open shadow root,
// with the shared rules as the element's static styles.
import { LitElement, html, nothing, unsafeCSS } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import cssText from '../style.css';

const KEY = 'errands-lit';

function load() {
  try {
    const saved = JSON.parse(localStorage.getItem(KEY));
    return Array.isArray(saved) ? saved : [];
  } catch (e) {
    return [];
  }
}

function newId() {
  return (Math.random().toString(36) + '00000000').slice(2, 10);
}

function filterFromHash() {
  if (location.hash === '#/open') return 'open';
  if (location.hash === '#/done') return 'done';
  return 'all';
}

class ErrandsApp extends LitElement {
  static properties = {
    items: { state: true },
    filter: { state: true },
    editing: { state: true },
  };

  static styles = unsafeCSS(cssText);

  constructor() {
    super();
    // Set in the constructor, not as class fields, so Lit's reactive accessors stay in place.
    this.items = load();
    this.filter = filterFromHash();
    this.editing = null;
    this.onHash = () => {
      this.filter = filterFromHash();
    };
  }

  connectedCallback() {
    super.connectedCallback();
    window.addEventListener('hashchange', this.onHash);
  }

  disconnectedCallback() {
    window.removeEventListener('hashchange', this.onHash);
    super.disconnectedCallback();
  }

  setItems(items) {
    this.items = items;
    localStorage.setItem(KEY, JSON.stringify(items));
  }

  addOnEnter(event) {
    if (event.key !== 'Enter') return;
    const field = event.currentTarget;
    const text = field.value.trim();
    field.value = '';
    if (text) this.setItems([...this.items, { id: newId(), text, done: false }]);
  }

  toggle(item, event) {
    const done = event.currentTarget.checked;
    this.setItems(this.items.map((other) => (other.id === item.id ? { ...other, done } : other)));
  }

  remove(item) {
    this.setItems(this.items.filter((other) => other.id !== item.id));
  }

  clearDone() {
    this.setItems(this.items.filter((item) => !item.done));
  }

  finishEdit(item, event) {
    if (this.editing !== item.id) return;
    this.editing = null;
    const text = event.currentTarget.value.trim();
    if (text) this.setItems(this.items.map((other) => (other.id === item.id ? { ...other, text } : other)));
    else this.remove(item);
  }

  editKey(item, event) {
    if (event.key === 'Enter') this.finishEdit(item, event);
    else if (event.key === 'Escape' && this.editing === item.id) this.editing = null;
  }

  updated() {
    const box = this.renderRoot.querySelector('.edit');
    if (box && this.renderRoot.activeElement !== box) box.focus();
  }

  row(item) {
    const cell = this.editing === item.id
      ? html`<input class="edit" .value=${item.text} @keydown=${(e) => this.editKey(item, e)} @blur=${(e) => this.finishEdit(item, e)}>`
      : html`<span class="text" @dblclick=${() => { this.editing = item.id; }}>${item.text}</span>`;
    return html`<li class=${item.done ? 'errand done' : 'errand'} data-id=${item.id}><input type="checkbox" class="toggle" aria-label="Done" .checked=${item.done} @change=${(e) => this.toggle(item, e)}>${cell}<button class="remove" aria-label="Remove" @click=${() => this.remove(item)}>\u00d7</button></li>`;
  }

  footer() {
    const open = this.items.filter((item) => !item.done).length;
    const label = open + (open === 1 ? ' errand left' : ' errands left');
    const selected = (name) => (this.filter === name ? 'selected' : nothing);
    const clear = open < this.items.length
      ? html`<button class="clear" @click=${this.clearDone}>Clear done</button>`
      : nothing;
    return html`<footer class="bar"><span class="count">${label}</span><a href="#/" class=${selected('all')}>All</a> <a href="#/open" class=${selected('open')}>Open</a> <a href="#/done" class=${selected('done')}>Done</a>${clear}</footer>`;
  }

  render() {
    const shown = this.items.filter((item) => {
      if (this.filter === 'open') return !item.done;
      if (this.filter === 'done') return item.done;
      return true;
    });
    return html`<main class="app" id="app"><h1>Errands</h1><input class="new-errand" name="errand" placeholder="New errand" aria-label="New errand" @keydown=${this.addOnEnter}><ul class="errands">${repeat(shown, (item) => item.id, (item) => this.row(item))}</ul>${this.items.length ? this.footer() : nothing}</main>`;
  }
}

customElements.define('errands-app', ErrandsApp);
