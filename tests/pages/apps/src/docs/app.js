// Lantern docs: a hash-routed documentation site. Pages are markdown files fetched with
// XMLHttpRequest and rendered by marked; the search box queries a MiniSearch index built at
// load from search.json (every page's text), and its results link to the pages.
import { marked } from 'marked';
import MiniSearch from 'minisearch';

const SIDEBAR = [
  ['Guide', [['intro', 'Introduction'], ['install', 'Installation'], ['configuration', 'Configuration']]],
  ['API', [['crawl', 'crawl()'], ['explorer', 'Explorer'], ['plugins', 'Plugins']]],
];
const HOME = '#/guide/intro';
const page = document.getElementById('page');
const sidebar = document.getElementById('sidebar');
const box = document.getElementById('search');
const results = document.getElementById('results');
const index = new MiniSearch({ fields: ['title', 'text'], storeFields: ['title', 'summary'] });
let loaded = false;

function drawSidebar() {
  for (const [section, pages] of SIDEBAR) {
    const heading = document.createElement('h2');
    heading.textContent = section;
    sidebar.append(heading);
    for (const [name, title] of pages) {
      const link = document.createElement('a');
      link.href = `#/${section.toLowerCase()}/${name}`;
      link.textContent = title;
      sidebar.append(link);
    }
  }
}

function fetchText(url) {  // the page's markdown, through XMLHttpRequest as older doc tools do
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('GET', url);
    xhr.onload = () => (xhr.status === 200 ? resolve(xhr.responseText) : reject(new Error(xhr.status)));
    xhr.onerror = () => reject(new Error('network'));
    xhr.send();
  });
}

async function route() {
  const match = /^#\/(guide|api)\/([a-z-]+)$/.exec(location.hash);
  if (!match) {
    location.replace(HOME);
    return;
  }
  const [, section, name] = match;
  for (const link of sidebar.querySelectorAll('a')) {
    link.classList.toggle('current', link.getAttribute('href') === location.hash);
  }
  closeResults();
  try {
    page.innerHTML = marked.parse(await fetchText(`pages/${section}/${name}.md`));
  } catch {
    page.innerHTML = '<h1>Not found</h1><p>No page at this address.</p>';
  }
}

function closeResults() {
  results.hidden = true;
  results.replaceChildren();
  box.value = '';
}

function showResults() {
  const term = box.value.trim();
  results.replaceChildren();
  if (!term || !loaded) {
    results.hidden = true;
    return;
  }
  const hits = index.search(term, { prefix: true, fuzzy: 0.2 }).slice(0, 6);
  for (const hit of hits) {
    const item = document.createElement('li');
    const link = document.createElement('a');
    link.href = `#/${hit.id}`;
    link.textContent = hit.title;
    const summary = document.createElement('small');
    summary.textContent = hit.summary;
    item.append(link, summary);
    results.append(item);
  }
  if (!hits.length) {
    const none = document.createElement('li');
    none.className = 'none';
    none.textContent = `No page mentions “${term}”`;
    results.append(none);
  }
  results.hidden = false;
}

drawSidebar();
box.addEventListener('input', showResults);
box.addEventListener('keydown', (event) => {
  if (event.key === 'Escape') closeResults();
});
window.addEventListener('hashchange', route);
fetch('search.json').then((r) => r.json()).then((docs) => {
  index.addAll(docs);
  loaded = true;
  if (box.value) showResults();
});
route();
