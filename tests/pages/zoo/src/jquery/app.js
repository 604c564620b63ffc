// Errands with jQuery 3: rows are rebuilt with jQuery, and every row event is delegated
// from the list root (`$list.on(event, selector, handler)`); the footer's from the app root.
import $ from 'jquery';

const KEY = 'errands-jquery';
const $app = $('#app');
const $field = $app.find('.new-errand');
const $list = $app.find('.errands');
let items = load();
let editing = null;

function load() {
  try {
    const saved = JSON.parse(localStorage.getItem(KEY));
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
  if (location.hash === '#/open') return 'open';
  if (location.hash === '#/done') return 'done';
  return 'all';
}

function idOf(target) {
  return $(target).closest('.errand').attr('data-id');
}

function itemById(id) {
  return items.find((item) => item.id === id);
}

function countLabel(n) {
  return n + (n === 1 ? ' errand left' : ' errands left');
}

function rowFor(item) {
  const $row = $('<li>', { class: item.done ? 'errand done' : 'errand', 'data-id': item.id });
  $row.append($('<input>', { type: 'checkbox', class: 'toggle', 'aria-label': 'Done' }).prop('checked', item.done));
  if (editing === item.id) {
    $row.append($('<input>', { class: 'edit' }).val(item.text));
  } else {
    $row.append($('<span>', { class: 'text' }).text(item.text));
  }
  $row.append($('<button>', { class: 'remove', 'aria-label': 'Remove' }).text('\u00d7'));
  return $row;
}

function footerFor(filter) {
  const open = items.filter((item) => !item.done).length;
  const $bar = $('<footer>', { class: 'bar' });
  $bar.append($('<span>', { class: 'count' }).text(countLabel(open)));
  [['#/', 'All', 'all'], ['#/open', 'Open', 'open'], ['#/done', 'Done', 'done']].forEach(([href, label, name], i) => {
    if (i > 0) $bar.append(document.createTextNode(' '));
    const $link = $('<a>', { href }).text(label);
    if (name === filter) $link.attr('class', 'selected');
    $bar.append($link);
  });
  if (items.length > open) $bar.append($('<button>', { class: 'clear' }).text('Clear done'));
  return $bar;
}

function render() {
  const filter = currentFilter();
  const shown = items.filter((item) => (filter === 'open' ? !item.done : filter === 'done' ? item.done : true));
  $list.empty().append(shown.map(rowFor));
  $app.children('.bar').remove();
  if (items.length) $app.append(footerFor(filter));
  if (editing) $list.find('.edit').trigger('focus');
}

function finishEdit(id, value) {
  if (editing !== id) return;
  editing = null;
  const text = value.trim();
  if (text) itemById(id).text = text;
  else items = items.filter((item) => item.id !== id);
  save();
  render();
}

$field.on('keydown', (event) => {
  if (event.key !== 'Enter') return;
  const text = $field.val().trim();
  $field.val('');
  if (!text) return;
  items.push({ id: newId(), text, done: false });
  save();
  render();
});

$list
  .on('change', '.toggle', function () {
    itemById(idOf(this)).done = this.checked;
    save();
    render();
  })
  .on('click', '.remove', function () {
    const id = idOf(this);
    items = items.filter((item) => item.id !== id);
    save();
    render();
  })
  .on('dblclick', '.text', function () {
    editing = idOf(this);
    render();
  })
  .on('keydown', '.edit', function (event) {
    const id = idOf(this);
    if (event.key === 'Enter') {
      finishEdit(id, $(this).val());
    } else if (event.key === 'Escape' && editing === id) {
      editing = null;
      render();
    }
  })
  .on('blur', '.edit', function () {
    finishEdit(idOf(this), $(this).val());
  });

$app.on('click', '.clear', () => {
  items = items.filter((item) => !item.done);
  save();
  render();
});

$(window).on('hashchange', render);
render();
