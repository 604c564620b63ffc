// Errands as a native custom element, no framework: <errands-app> keeps its whole UI in a
// CLOSED shadow root, so page scripts (and element.shadowRoot) cannot reach inside.
// Listeners are added with addEventListener on each element; rows are rebuilt by DOM calls.
import cssText from '../style.css';

const KEY = 'errands-shadow-closed';

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

function el(tag, attrs = {}, text) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

class ErrandsApp extends HTMLElement {
  #root;
  #app;
  #list;
  #footer = null;
  #items = load();
  #editing = null;
  #onHash = () => this.#render();

  constructor() {
    super();
    this.#root = this.attachShadow({ mode: 'closed' });
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(cssText);
    this.#root.adoptedStyleSheets = [sheet];

    this.#app = el('main', { class: 'app', id: 'app' });
    this.#app.append(el('h1', {}, 'Errands'));
    const field = el('input', { class: 'new-errand', name: 'errand', placeholder: 'New errand', 'aria-label': 'New errand' });
    field.addEventListener('keydown', (event) => {
      if (event.key !== 'Enter') return;
      const text = field.value.trim();
      field.value = '';
      if (!text) return;
      this.#items.push({ id: newId(), text, done: false });
      this.#changed();
    });
    this.#list = el('ul', { class: 'errands' });
    this.#app.append(field, this.#list);
    this.#root.append(this.#app);
  }

  connectedCallback() {
    window.addEventListener('hashchange', this.#onHash);
    this.#render();
  }

  disconnectedCallback() {
    window.removeEventListener('hashchange', this.#onHash);
  }

  #changed() {
    localStorage.setItem(KEY, JSON.stringify(this.#items));
    this.#render();
  }

  #remove(id) {
    this.#items = this.#items.filter((item) => item.id !== id);
    this.#changed();
  }

  #finishEdit(item, value) {
    if (this.#editing !== item.id) return;
    this.#editing = null;
    const text = value.trim();
    if (!text) {
      this.#remove(item.id);
      return;
    }
    item.text = text;
    this.#changed();
  }

  #row(item) {
    const row = el('li', { class: item.done ? 'errand done' : 'errand', 'data-id': item.id });
    const toggle = el('input', { type: 'checkbox', class: 'toggle', 'aria-label': 'Done' });
    toggle.checked = item.done;
    toggle.addEventListener('change', () => {
      item.done = toggle.checked;
      this.#changed();
    });
    row.append(toggle);

    if (this.#editing === item.id) {
      const edit = el('input', { class: 'edit' });
      edit.value = item.text;
      edit.addEventListener('keydown', (event) => {
        if (event.key === 'Enter') {
          this.#finishEdit(item, edit.value);
        } else if (event.key === 'Escape' && this.#editing === item.id) {
          this.#editing = null;
          this.#render();
        }
      });
      edit.addEventListener('blur', () => this.#finishEdit(item, edit.value));
      row.append(edit);
    } else {
      const text = el('span', { class: 'text' }, item.text);
      text.addEventListener('dblclick', () => {
        this.#editing = item.id;
        this.#render();
        const box = this.#list.querySelector('.edit');
        if (box) box.focus();
      });
      row.append(text);
    }

    const remove = el('button', { class: 'remove', 'aria-label': 'Remove' }, '\u00d7');
    remove.addEventListener('click', () => this.#remove(item.id));
    row.append(remove);
    return row;
  }

  #bar(filter) {
    const open = this.#items.filter((item) => !item.done).length;
    const bar = el('footer', { class: 'bar' });
    bar.append(el('span', { class: 'count' }, open + (open === 1 ? ' errand left' : ' errands left')));
    [['#/', 'All', 'all'], ['#/open', 'Open', 'open'], ['#/done', 'Done', 'done']].forEach(([href, label, name], i) => {
      if (i > 0) bar.append(' ');
      const link = el('a', { href }, label);
      if (name === filter) link.setAttribute('class', 'selected');
      bar.append(link);
    });
    if (open < this.#items.length) {
      const clear = el('button', { class: 'clear' }, 'Clear done');
      clear.addEventListener('click', () => {
        this.#items = this.#items.filter((item) => !item.done);
        this.#changed();
      });
      bar.append(clear);
    }
    return bar;
  }

  #render() {
    const filter = filterFromHash();
    const shown = this.#items.filter((item) => (filter === 'open' ? !item.done : filter === 'done' ? item.done : true));
    this.#list.replaceChildren(...shown.map((item) => this.#row(item)));
    if (this.#footer) this.#footer.remove();
    this.#footer = this.#items.length ? this.#bar(filter) : null;
    if (this.#footer) this.#app.append(this.#footer);
  }
}

customElements.define('errands-app', ErrandsApp);
