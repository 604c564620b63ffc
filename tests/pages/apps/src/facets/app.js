// Patent search: a faceted search over a small patent database served as JSON. The results
// page has facet checkboxes (opacity-0 inputs under styled labels), SVG sort icons in the
// column headers, .json and .csv format links and a pager; each row links to the patent's
// page (a pushState route), whose "Related claims" expander shows the claims.
const BASE = '/facets/';
const view = document.getElementById('view');
const form = document.getElementById('search');
const query = { q: '', section: [], assignee: [], year: [], sort: 'number', order: 'asc', page: 1 };
const COLUMNS = [['number', 'Number'], ['title', 'Title'], ['assignee', 'Assignee', false], ['year', 'Year']];
const SORT_ICON = '<svg class="sort" viewBox="0 0 10 14" width="10" height="14" aria-label="Sort">'
  + '<path d="M5 0l5 6H0zM5 14L0 8h10z"/></svg>';

const el = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  node.append(...children);
  return node;
};

function params() {
  const p = new URLSearchParams();
  if (query.q) p.set('q', query.q);
  for (const s of query.section) p.append('section', s);
  for (const a of query.assignee) p.append('assignee', a);
  for (const y of query.year) p.append('year', y);
  p.set('sort', query.sort);
  p.set('order', query.order);
  p.set('page', String(query.page));
  return p.toString();
}

async function getJson(url) {
  const response = await fetch(url);
  return response.json();
}

function facet(name, title, counts, labels) {
  const group = el('fieldset', { class: 'facet' }, el('legend', {}, title));
  for (const [value, count] of Object.entries(counts)) {
    const box = el('input', { type: 'checkbox', name, value });
    box.checked = query[name].includes(value);
    box.addEventListener('change', () => {
      query[name] = box.checked ? [...query[name], value] : query[name].filter((v) => v !== value);
      query.page = 1;
      results();
    });
    const text = labels ? `${value} ${labels[value]}` : value;
    group.append(el('label', { class: 'check' }, box, el('span', { class: 'tick' }), ` ${text} (${count})`));
  }
  return group;
}

function header(key, title, sortable = true) {
  const th = el('th', {}, title);
  if (!sortable) return th;
  th.insertAdjacentHTML('beforeend', SORT_ICON);
  if (query.sort === key) th.classList.add(query.order);
  th.querySelector('svg').addEventListener('click', () => {
    query.order = query.sort === key && query.order === 'asc' ? 'desc' : 'asc';
    query.sort = key;
    results();
  });
  return th;
}

function patentLink(row) {
  const link = el('a', { href: `${BASE}patent/${row.number}` }, row.number);
  link.addEventListener('click', (event) => {
    event.preventDefault();
    history.pushState({}, '', link.getAttribute('href'));
    route();
  });
  return link;
}

async function results() {
  const data = await getJson(`${BASE}api/search?${params()}`);
  const table = el('table', { class: 'results' });
  table.append(el('thead', {}, el('tr', {}, ...COLUMNS.map(([key, title, s]) => header(key, title, s)))));
  const body = el('tbody');
  for (const row of data.rows) {
    body.append(el('tr', {}, el('td', {}, patentLink(row)), el('td', {}, row.title),
      el('td', {}, row.assignee), el('td', {}, String(row.year))));
  }
  table.append(body);
  const pager = el('div', { class: 'pager' });
  const step = (delta, text) => {
    const button = el('button', { type: 'button' }, text);
    button.disabled = query.page + delta < 1 || query.page + delta > data.pages;
    button.addEventListener('click', () => { query.page += delta; results(); });
    return button;
  };
  pager.append(step(-1, '‹ Previous'), ` Page ${data.page} of ${data.pages} `, step(1, 'Next ›'));
  const formats = el('p', { class: 'formats' }, 'This page as ',
    el('a', { href: `${BASE}api/search.json?${params()}` }, '.json'), ' · ',
    el('a', { href: `${BASE}api/search.csv?${params()}` }, '.csv'));
  const said = query.q ? ` for “${query.q}”` : '';
  view.replaceChildren(el('div', { class: 'layout' },
    el('aside', {}, facet('section', 'Section', data.counts.section, data.sections),
      facet('assignee', 'Assignee', data.counts.assignee), facet('year', 'Granted', data.counts.year)),
    el('main', {}, el('p', { class: 'count' }, `${data.total} patents${said}`), table, pager, formats)));
}

async function detail(number) {
  const patent = await getJson(`${BASE}api/patent/${number}`);
  if (patent.error) {
    view.replaceChildren(el('main', {}, el('h1', {}, 'No such patent')));
    return;
  }
  const back = el('a', { href: BASE, class: 'back' }, '‹ Back to results');
  back.addEventListener('click', (event) => {
    event.preventDefault();
    history.pushState({}, '', BASE);
    route();
  });
  const claims = el('ol', { class: 'claims', id: 'claims' }, ...patent.claims.map((c) => el('li', {}, c)));
  claims.hidden = true;
  const expander = el('button', { type: 'button', class: 'expander', 'aria-expanded': 'false',
    'aria-controls': 'claims' }, 'Related claims');
  expander.addEventListener('click', () => {
    claims.hidden = !claims.hidden;
    expander.setAttribute('aria-expanded', String(!claims.hidden));
  });
  view.replaceChildren(el('main', { class: 'patent' }, back, el('h1', {}, patent.title),
    el('dl', {}, el('dt', {}, 'Number'), el('dd', {}, patent.number),
      el('dt', {}, 'Assignee'), el('dd', {}, patent.assignee),
      el('dt', {}, 'Dates'), el('dd', {}, `Priority date ${patent.priority}, granted ${patent.year}`)),
    el('p', {}, patent.abstract), expander, claims));
}

function route() {
  const match = location.pathname.match(/\/patent\/([A-Z0-9]+)$/);
  if (match) detail(match[1]);
  else results();
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  query.q = form.elements.q.value.trim();
  query.page = 1;
  if (location.pathname !== BASE) history.pushState({}, '', BASE);
  results();
});
window.addEventListener('popstate', route);
route();
