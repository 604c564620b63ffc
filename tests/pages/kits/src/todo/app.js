// A TodoMVC-style list in plain JS. It starts with two items; Enter in the field adds one, a
// row's circle ticks it, the chevron ticks or unticks all, "Clear completed" drops the done
// ones, the filters show some. Kept in memory only: every load starts afresh.
import './style.css';

let nextId = 1;
const todos = [{ id: nextId++, title: 'Water plants', done: false }, { id: nextId++, title: 'Pay rent', done: false }];
const $ = (selector) => document.querySelector(selector);

function filter() {
  return (location.hash.match(/^#\/(active|completed)$/) || [])[1] || 'all';
}

function render() {
  const shown = filter();
  const left = todos.filter((todo) => !todo.done).length;
  $('.todo-list').replaceChildren(...todos.map((todo) => {
    const li = document.createElement('li');
    li.dataset.id = todo.id;
    li.className = [todo.done && 'completed', (shown === 'active' && todo.done) || (shown === 'completed' && !todo.done) ? 'hidden' : '']
      .filter(Boolean).join(' ');
    const toggle = Object.assign(document.createElement('input'), { className: 'toggle', type: 'checkbox', checked: todo.done });
    const label = Object.assign(document.createElement('label'), { textContent: todo.title });
    const destroy = Object.assign(document.createElement('button'), { className: 'destroy', textContent: '\u00d7' });
    destroy.setAttribute('aria-label', 'Delete');
    li.append(toggle, label, destroy);
    return li;
  }));
  $('.main').classList.toggle('hidden', !todos.length);
  $('.footer').classList.toggle('hidden', !todos.length);
  $('.empty').classList.toggle('hidden', todos.length > 0);
  $('.toggle-all').checked = todos.length > 0 && left === 0;
  $('.todo-count').textContent = `${left} item${left === 1 ? '' : 's'} left`;
  $('.clear-completed').classList.toggle('hidden', left === todos.length);
  for (const link of document.querySelectorAll('.filters a')) {
    link.classList.toggle('selected', link.getAttribute('href') === (shown === 'all' ? '#/' : `#/${shown}`));
  }
}

$('.new-todo').addEventListener('keydown', (event) => {
  const title = event.target.value.trim();
  if (event.key !== 'Enter' || !title) return;
  todos.push({ id: nextId++, title, done: false });
  event.target.value = '';
  render();
});
$('.toggle-all').addEventListener('change', (event) => {
  for (const todo of todos) todo.done = event.target.checked;
  render();
});
$('.todo-list').addEventListener('change', (event) => {
  const todo = todos.find((t) => String(t.id) === event.target.closest('li').dataset.id);
  todo.done = event.target.checked;
  render();
});
$('.todo-list').addEventListener('click', (event) => {
  if (!event.target.matches('.destroy')) return;
  todos.splice(todos.findIndex((t) => String(t.id) === event.target.closest('li').dataset.id), 1);
  render();
});
$('.clear-completed').addEventListener('click', () => {
  for (let i = todos.length - 1; i >= 0; i--) if (todos[i].done) todos.splice(i, 1);
  render();
});
window.addEventListener('hashchange', render);
render();
