// Errands, plain DOM: every element gets its own listeners, rows are rebuilt by DOM calls.
// The new-errand field commits on its `change` event (fired by Enter or by leaving the field).
(function () {
  'use strict';

  var KEY = 'errands-vanilla';
  var app = document.getElementById('app');
  var field = app.querySelector('.new-errand');
  var list = app.querySelector('.errands');
  var footer = null;
  var items = load();
  var editing = null;

  function load() {
    try {
      var saved = JSON.parse(localStorage.getItem(KEY));
      return Array.isArray(saved) ? saved : [];
    } catch (e) {
      return [];
    }
  }

  function save() {
    localStorage.setItem(KEY, JSON.stringify(items));
  }

  function newId() {
    return (Math.random().toString(36) + '00000000').slice(2, 10);
  }

  function currentFilter() {
    var hash = location.hash;
    if (hash === '#/open') return 'open';
    if (hash === '#/done') return 'done';
    return 'all';
  }

  function find(id) {
    for (var i = 0; i < items.length; i++) {
      if (items[i].id === id) return items[i];
    }
    return null;
  }

  function removeItem(id) {
    items = items.filter(function (item) { return item.id !== id; });
  }

  function countLabel(n) {
    return n + (n === 1 ? ' errand left' : ' errands left');
  }

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    for (var name in attrs) {
      if (Object.prototype.hasOwnProperty.call(attrs, name)) node.setAttribute(name, attrs[name]);
    }
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function buildRow(item) {
    var row = el('li', { 'class': item.done ? 'errand done' : 'errand', 'data-id': item.id });
    var toggle = el('input', { type: 'checkbox', 'class': 'toggle', 'aria-label': 'Done' });
    toggle.checked = item.done;
    toggle.addEventListener('change', function () {
      item.done = toggle.checked;
      save();
      render();
    });
    row.appendChild(toggle);

    if (editing === item.id) {
      var edit = el('input', { 'class': 'edit' });
      edit.value = item.text;
      edit.addEventListener('keydown', function (event) {
        if (event.key === 'Enter') finishEdit(item, edit.value);
        else if (event.key === 'Escape') cancelEdit(item);
      });
      edit.addEventListener('blur', function () {
        finishEdit(item, edit.value);
      });
      row.appendChild(edit);
    } else {
      var text = el('span', { 'class': 'text' }, item.text);
      text.addEventListener('dblclick', function () {
        editing = item.id;
        render();
        var input = list.querySelector('.edit');
        if (input) input.focus();
      });
      row.appendChild(text);
    }

    var remove = el('button', { 'class': 'remove', 'aria-label': 'Remove' }, '\u00d7');
    remove.addEventListener('click', function () {
      removeItem(item.id);
      save();
      render();
    });
    row.appendChild(remove);
    return row;
  }

  function finishEdit(item, value) {
    if (editing !== item.id) return;
    editing = null;
    var text = value.trim();
    if (text) item.text = text;
    else removeItem(item.id);
    save();
    render();
  }

  function cancelEdit(item) {
    if (editing !== item.id) return;
    editing = null;
    render();
  }

  function buildFooter(filter) {
    var open = items.filter(function (item) { return !item.done; }).length;
    var bar = el('footer', { 'class': 'bar' });
    bar.appendChild(el('span', { 'class': 'count' }, countLabel(open)));
    var links = [['#/', 'All', 'all'], ['#/open', 'Open', 'open'], ['#/done', 'Done', 'done']];
    for (var i = 0; i < links.length; i++) {
      if (i > 0) bar.appendChild(document.createTextNode(' '));
      var link = el('a', { href: links[i][0] }, links[i][1]);
      if (links[i][2] === filter) link.setAttribute('class', 'selected');
      bar.appendChild(link);
    }
    if (items.length > open) {
      var clear = el('button', { 'class': 'clear' }, 'Clear done');
      clear.addEventListener('click', function () {
        items = items.filter(function (item) { return !item.done; });
        save();
        render();
      });
      bar.appendChild(clear);
    }
    return bar;
  }

  function render() {
    var filter = currentFilter();
    while (list.firstChild) list.removeChild(list.firstChild);
    for (var i = 0; i < items.length; i++) {
      var item = items[i];
      if (filter === 'open' && item.done) continue;
      if (filter === 'done' && !item.done) continue;
      list.appendChild(buildRow(item));
    }
    if (footer) {
      app.removeChild(footer);
      footer = null;
    }
    if (items.length) {
      footer = buildFooter(filter);
      app.appendChild(footer);
    }
  }

  field.addEventListener('change', function () {
    var text = field.value.trim();
    field.value = '';
    if (!text) return;
    items.push({ id: newId(), text: text, done: false });
    save();
    render();
  });

  window.addEventListener('hashchange', render);
  render();
})();
