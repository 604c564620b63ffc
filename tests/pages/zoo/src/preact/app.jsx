/** @jsx h */
/** @jsxFrag Fragment */
// Errands with Preact: h/render and hooks; Preact adds each listener on its own element.
import { h, render, Fragment } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';

const KEY = 'errands-preact';

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

function countLabel(n) {
  return n + (n === 1 ? ' errand left' : ' errands left');
}

function EditBox({ text, onCommit, onCancel }) {
  const input = useRef(null);
  const open = useRef(true);
  useEffect(() => {
    input.current.value = text;
    input.current.focus();
  }, []);
  function finish(commit) {
    if (!open.current) return;
    open.current = false;
    if (commit) onCommit(input.current ? input.current.value : text);
    else onCancel();
  }
  return (
    <input
      class="edit"
      ref={input}
      onKeyDown={(event) => {
        if (event.key === 'Enter') finish(true);
        else if (event.key === 'Escape') finish(false);
      }}
      onBlur={() => finish(true)}
    />
  );
}

function Row({ item, editing, actions }) {
  return (
    <li class={item.done ? 'errand done' : 'errand'} data-id={item.id}>
      <input
        type="checkbox"
        class="toggle"
        aria-label="Done"
        checked={item.done}
        onChange={(event) => actions.toggle(item.id, event.currentTarget.checked)}
      />
      {editing ? (
        <EditBox text={item.text} onCommit={(value) => actions.commit(item.id, value)} onCancel={actions.cancel} />
      ) : (
        <span class="text" onDblClick={() => actions.edit(item.id)}>{item.text}</span>
      )}
      <button class="remove" aria-label="Remove" onClick={() => actions.remove(item.id)}>{'\u00d7'}</button>
    </li>
  );
}

function App() {
  const [items, setItems] = useState(load);
  const [filter, setFilter] = useState(filterFromHash);
  const [editing, setEditing] = useState(null);
  const first = useRef(true);

  useEffect(() => {
    if (first.current) first.current = false;
    else localStorage.setItem(KEY, JSON.stringify(items));
  }, [items]);

  useEffect(() => {
    const onHash = () => setFilter(filterFromHash());
    addEventListener('hashchange', onHash);
    return () => removeEventListener('hashchange', onHash);
  }, []);

  const actions = {
    toggle: (id, done) => setItems((all) => all.map((item) => (item.id === id ? { ...item, done } : item))),
    remove: (id) => setItems((all) => all.filter((item) => item.id !== id)),
    edit: (id) => setEditing(id),
    cancel: () => setEditing(null),
    commit: (id, value) => {
      setEditing(null);
      const text = value.trim();
      setItems((all) => (text
        ? all.map((item) => (item.id === id ? { ...item, text } : item))
        : all.filter((item) => item.id !== id)));
    },
  };

  function addOnEnter(event) {
    if (event.key !== 'Enter') return;
    const field = event.currentTarget;
    const text = field.value.trim();
    field.value = '';
    if (text) setItems((all) => [...all, { id: newId(), text, done: false }]);
  }

  const open = items.filter((item) => !item.done).length;
  const shown = items.filter((item) => (filter === 'open' ? !item.done : filter === 'done' ? item.done : true));
  const selected = (name) => (filter === name ? 'selected' : undefined);

  return (
    <>
      <h1>Errands</h1>
      <input class="new-errand" name="errand" placeholder="New errand" aria-label="New errand" onKeyDown={addOnEnter} />
      <ul class="errands">
        {shown.map((item) => (
          <Row key={item.id} item={item} editing={editing === item.id} actions={actions} />
        ))}
      </ul>
      {items.length > 0 && (
        <footer class="bar">
          <span class="count">{countLabel(open)}</span>
          <a href="#/" class={selected('all')}>All</a>{' '}
          <a href="#/open" class={selected('open')}>Open</a>{' '}
          <a href="#/done" class={selected('done')}>Done</a>
          {open < items.length && <button class="clear" onClick={() => setItems((all) => all.filter((item) => !item.done))}>Clear done</button>}
        </footer>
      )}
    </>
  );
}

render(<App />, document.getElementById('app'));
