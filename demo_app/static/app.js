// Prior Art Explorer: a small single-page patent search client.
// Routes: /                       home with suggested searches
//         /search?q&field&from&to&page   one page of search results (fetch)
//         /patent/<number>        patent detail with Claims / Description / Citations tabs (XHR)
'use strict';

(() => {
  const FIELD_LABELS = { title: 'titles', abstract: 'abstracts', claims: 'claims' };
  const PAGE_WINDOW = 2; // numbered page buttons shown on each side of the current page

  const app = document.getElementById('app');
  const view = document.getElementById('view');
  const form = document.getElementById('search-form');
  const progress = document.getElementById('progress');
  const clock = document.getElementById('clock');
  const homeTemplate = document.getElementById('home-template');

  // Responses that arrive after the user moved on are dropped: every navigation bumps both
  // tokens, every tab switch bumps the panel token.
  let routeToken = 0;
  let panelToken = 0;
  let lastSearchUrl = null; // where "Back to results" returns to
  let currentSearch = null; // {q, field, from, to, page} of the results on screen
  let currentPatent = null; // detail JSON of the patent on screen
  let clockOffset = 0; // server time minus local time, from the Date header of API responses

  // ---- DOM helpers -------------------------------------------------------------------------

  function h(tag, attrs = {}, ...children) {
    const el = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs)) {
      if (value === null || value === undefined || value === false) continue;
      if (name === 'class') el.className = value;
      else if (name === 'text') el.textContent = value;
      else el.setAttribute(name, value === true ? '' : String(value));
    }
    el.append(...children.filter((child) => child !== null && child !== undefined));
    return el;
  }

  function escapeRegExp(text) {
    return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }

  // Fill `el` with `text`, wrapping whole-word matches of `words` in <mark>.
  function highlight(el, text, words) {
    if (!words.length) {
      el.textContent = text;
      return el;
    }
    const pattern = new RegExp(`\\b(${words.map(escapeRegExp).join('|')})\\b`, 'gi');
    let last = 0;
    for (const match of text.matchAll(pattern)) {
      el.append(text.slice(last, match.index), h('mark', { text: match[0] }));
      last = match.index + match[0].length;
    }
    el.append(text.slice(last));
    return el;
  }

  function queryWords(q) {
    return q.toLowerCase().match(/[a-z0-9]+/g) || [];
  }

  function setBusy(busy) {
    progress.hidden = !busy;
    view.setAttribute('aria-busy', busy ? 'true' : 'false');
  }

  function show(...nodes) {
    view.replaceChildren(...nodes);
  }

  // ---- Network -----------------------------------------------------------------------------

  class ApiError extends Error {
    constructor(status, message) {
      super(message);
      this.status = status;
    }
  }

  function noteServerDate(header) {
    const serverNow = Date.parse(header || '');
    if (Number.isNaN(serverNow)) return;
    const offset = serverNow - Date.now();
    if (Math.abs(offset - clockOffset) > 2000) clockOffset = offset;
  }

  async function fetchJSON(url) {
    const response = await fetch(url, { headers: { Accept: 'application/json' } });
    noteServerDate(response.headers.get('Date'));
    const body = await response.json().catch(() => ({}));
    if (!response.ok) throw new ApiError(response.status, body.error || response.statusText);
    return body;
  }

  function xhrJSON(url) {
    return new Promise((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open('GET', url);
      xhr.responseType = 'json';
      xhr.setRequestHeader('Accept', 'application/json');
      xhr.onload = () => {
        noteServerDate(xhr.getResponseHeader('Date'));
        const body = xhr.response || {};
        if (xhr.status >= 200 && xhr.status < 300) resolve(body);
        else reject(new ApiError(xhr.status, body.error || xhr.statusText));
      };
      xhr.onerror = () => reject(new ApiError(0, 'The server could not be reached.'));
      xhr.send();
    });
  }

  // ---- Routing -----------------------------------------------------------------------------

  // The same query string serves the app URL (/search?...) and the API URL (/api/search?...).
  function searchQuery(search) {
    return new URLSearchParams({
      q: search.q,
      field: search.field,
      from: search.from,
      to: search.to,
      page: String(search.page),
    }).toString();
  }

  function searchUrl(search) {
    return `/search?${searchQuery(search)}`;
  }

  function navigate(url) {
    history.pushState(null, '', url);
    window.scrollTo(0, 0);
    route();
  }

  function route() {
    const token = ++routeToken;
    panelToken += 1;
    const path = location.pathname;
    const patent = path.match(/^\/patent\/([^/]+)\/?$/);
    const search = readSearch(new URLSearchParams(location.search));
    if (/^\/search\/?$/.test(path)) showSearch(search, token);
    else if (patent) showPatent(decodeURIComponent(patent[1]), token);
    else showHome();
  }

  function readSearch(params) {
    const field = params.get('field') || 'title';
    const page = Number.parseInt(params.get('page') || '1', 10);
    return {
      q: (params.get('q') || '').trim(),
      field: Object.hasOwn(FIELD_LABELS, field) ? field : 'title',
      from: params.get('from') || '',
      to: params.get('to') || '',
      page: Number.isInteger(page) && page > 0 ? page : 1,
    };
  }

  function fillForm(search) {
    form.elements.q.value = search.q;
    form.elements.field.value = search.field;
    form.elements.from.value = search.from;
    form.elements.to.value = search.to;
  }

  // ---- Views -------------------------------------------------------------------------------

  function showHome() {
    setBusy(false);
    currentSearch = null;
    currentPatent = null;
    document.title = 'Prior Art Explorer · Patent search';
    show(homeTemplate.content.cloneNode(true));
  }

  function showMessage(title, text, ...actions) {
    show(
      h(
        'section',
        { class: 'message', role: 'status' },
        h('h2', { class: 'message-title', text: title }),
        h('p', { class: 'message-text', text }),
        actions.length ? h('div', { class: 'message-actions' }, ...actions) : null,
      ),
    );
  }

  function showError(error) {
    const message = error.message || 'The request failed.';
    const button = (action, text) =>
      h('button', { type: 'button', class: 'button', 'data-action': action, text });
    if (error.status === 404) showMessage('Not found', message, button('home', 'New search'));
    else if (error.status === 400) showMessage('Check your search', message);
    else showMessage('Something went wrong', message, button('retry', 'Try again'));
  }

  async function showSearch(search, token) {
    fillForm(search);
    currentPatent = null;
    if (!search.q) {
      setBusy(false);
      showMessage('Enter a search term', 'Type a word such as “battery” and press Search.');
      return;
    }
    lastSearchUrl = searchUrl(search);
    document.title = `“${search.q}” · page ${search.page} · Prior Art Explorer`;
    setBusy(true);
    try {
      const data = await fetchJSON(`/api/search?${searchQuery(search)}`);
      if (token !== routeToken) return;
      setBusy(false);
      currentSearch = search;
      renderResults(search, data);
    } catch (error) {
      if (token !== routeToken) return;
      setBusy(false);
      showError(error);
    }
  }

  function renderResults(search, data) {
    const words = queryWords(search.q);
    const scope = FIELD_LABELS[search.field];
    let years = '';
    if (search.from && search.to) years = `, granted ${search.from}–${search.to}`;
    else if (search.from) years = `, granted ${search.from} or later`;
    else if (search.to) years = `, granted ${search.to} or earlier`;
    const count =
      data.total === 0
        ? `No patents match “${search.q}” in ${scope}${years}.`
        : `${data.total} patent${data.total === 1 ? '' : 's'} match “${search.q}” in ${scope}` +
          `${years} · page ${data.page} of ${data.pages}`;
    const items = data.results.map((result) =>
      h(
        'li',
        {
          class: 'result',
          role: 'link',
          tabindex: 0,
          'data-action': 'open',
          'data-number': result.number,
        },
        h(
          'div',
          { class: 'result-meta' },
          h('span', { class: 'result-number', text: result.number }),
          h('span', { class: 'result-year', text: `Granted ${result.year}` }),
        ),
        highlight(h('h3', { class: 'result-title' }), result.title, words),
        highlight(h('p', { class: 'result-snippet' }), result.snippet, words),
      ),
    );
    show(
      h(
        'section',
        { id: 'results', class: 'results', 'aria-label': 'Search results' },
        h('p', { id: 'result-count', class: 'result-count', text: count }),
        data.total
          ? h('a', {
              id: 'export-csv',
              class: 'export-link',
              href: `/export.csv?${new URLSearchParams({
                q: search.q, field: search.field, from: search.from, to: search.to,
              })}`,
              text: 'Export all results (CSV)',
            })
          : null,
        items.length
          ? h('ol', { id: 'result-list', class: 'result-list' }, ...items)
          : h('p', { class: 'empty', text: 'Try another word, field or year range.' }),
        data.pages > 1 ? renderPagination(data.page, data.pages) : null,
      ),
    );
  }

  // A pagination button; without a target page it is rendered disabled and has no action.
  function pageButton(page, label, extraClass) {
    return h('button', {
      type: 'button',
      class: `page-btn ${extraClass}`,
      disabled: page === null,
      'data-action': page === null ? null : 'page',
      'data-page': page,
      'aria-label': page === null ? null : `Page ${page}`,
      text: label,
    });
  }

  function renderPagination(page, pages) {
    const nav = h('nav', { id: 'pagination', class: 'pagination', 'aria-label': 'Pagination' });
    nav.append(pageButton(page > 1 ? page - 1 : null, '‹ Prev', 'page-prev'));
    let previous = 0;
    for (let n = 1; n <= pages; n += 1) {
      if (n !== 1 && n !== pages && Math.abs(n - page) > PAGE_WINDOW) continue;
      if (n - previous > 1) nav.append(h('span', { class: 'page-gap', text: '…' }));
      nav.append(
        n === page
          ? h('span', { class: 'page-btn page-num is-current', 'aria-current': 'page', text: n })
          : pageButton(n, String(n), 'page-num'),
      );
      previous = n;
    }
    nav.append(pageButton(page < pages ? page + 1 : null, 'Next ›', 'page-next'));
    return nav;
  }

  async function showPatent(number, token) {
    document.title = `${number} · Prior Art Explorer`;
    setBusy(true);
    try {
      const patent = await xhrJSON(`/api/patent/${encodeURIComponent(number)}`);
      if (token !== routeToken) return;
      setBusy(false);
      currentPatent = patent;
      renderPatent(patent);
    } catch (error) {
      if (token !== routeToken) return;
      setBusy(false);
      showError(error);
    }
  }

  function renderPatent(patent) {
    document.title = `${patent.number}: ${patent.title} · Prior Art Explorer`;
    const tab = (name, label) =>
      h('button', {
        type: 'button',
        role: 'tab',
        id: `tab-${name}`,
        class: 'tab',
        'data-action': 'tab',
        'data-tab': name,
        'aria-controls': 'tab-panel',
        'aria-selected': 'false',
        text: label,
      });
    show(
      h(
        'article',
        { id: 'patent', class: 'patent', 'data-number': patent.number },
        h('button', {
          type: 'button',
          class: 'back-link',
          'data-action': 'back',
          text: '← Back to results',
        }),
        h(
          'header',
          { class: 'patent-header' },
          h(
            'p',
            { class: 'patent-meta' },
            h('span', { class: 'patent-number', text: patent.number }),
            h('span', { class: 'patent-year', text: `Granted ${patent.year}` }),
          ),
          h('h1', { class: 'patent-title', text: patent.title }),
          h('a', {
            class: 'pdf-link',
            href: `/files/${encodeURIComponent(patent.number)}.pdf`,
            text: 'Download PDF',
          }),
          h(
            'ul',
            { class: 'patent-fields', 'aria-label': 'Fields' },
            ...patent.fields.map((name) => h('li', { class: 'tag', text: name })),
          ),
          h('h2', { class: 'section-label', text: 'Abstract' }),
          h('p', { class: 'patent-abstract', text: patent.abstract }),
        ),
        h(
          'div',
          { class: 'tabs', role: 'tablist', 'aria-label': 'Patent sections' },
          tab('claims', `Claims (${patent.claims.length})`),
          tab('description', 'Description'),
          tab('citations', `Citations (${patent.citation_count})`),
        ),
        h('section', { id: 'tab-panel', class: 'tab-panel', role: 'tabpanel' }),
      ),
    );
    showTab('claims');
  }

  function showTab(name) {
    const token = ++panelToken;
    for (const tab of view.querySelectorAll('[role="tab"]')) {
      const selected = tab.dataset.tab === name;
      tab.classList.toggle('is-active', selected);
      tab.setAttribute('aria-selected', selected ? 'true' : 'false');
    }
    const panel = document.getElementById('tab-panel');
    panel.setAttribute('aria-labelledby', `tab-${name}`);
    if (name === 'claims') {
      panel.replaceChildren(
        h(
          'ol',
          { class: 'claims' },
          ...currentPatent.claims.map((text) =>
            h('li', { class: text.startsWith('The ') ? 'claim is-dependent' : 'claim', text }),
          ),
        ),
      );
    } else if (name === 'description') {
      panel.replaceChildren(
        h(
          'div',
          { class: 'description' },
          ...currentPatent.description.map((text) => h('p', { text })),
        ),
      );
    } else {
      panel.replaceChildren(
        h('ol', { id: 'citation-list', class: 'citation-list' }),
        h('p', { class: 'loading', text: 'Loading citations…' }),
      );
      loadCitations(0, token);
    }
  }

  async function loadCitations(offset, token) {
    const number = currentPatent.number;
    const panel = document.getElementById('tab-panel');
    try {
      const data = await fetchJSON(
        `/api/patent/${encodeURIComponent(number)}/citations?offset=${offset}`,
      );
      if (token !== panelToken) return;
      const list = document.getElementById('citation-list');
      list.append(
        ...data.items.map((item) =>
          h(
            'li',
            {
              class: 'citation',
              role: 'link',
              tabindex: 0,
              'data-action': 'open',
              'data-number': item.number,
            },
            h('span', { class: 'citation-number', text: item.number }),
            h('span', { class: 'citation-title', text: item.title }),
            h('span', { class: 'citation-year', text: String(item.year) }),
          ),
        ),
      );
      const shown = list.children.length;
      panel.querySelector('.loading, .citation-footer')?.remove();
      panel.append(
        h(
          'div',
          { class: 'citation-footer' },
          h('span', { class: 'citation-count', text: `Showing ${shown} of ${data.total}` }),
          data.next_offset === null
            ? null
            : h('button', {
                type: 'button',
                id: 'load-more',
                class: 'button button-secondary',
                'data-action': 'more-citations',
                'data-offset': data.next_offset,
                text: 'Load more citations',
              }),
        ),
      );
    } catch (error) {
      if (token !== panelToken) return;
      panel.querySelector('.loading, .citation-footer')?.remove();
      const text = `Could not load citations: ${error.message}`;
      panel.append(h('p', { class: 'inline-error', text }));
    }
  }

  // ---- Events ------------------------------------------------------------------------------

  const actions = {
    home() {
      form.reset();
      navigate('/');
    },
    suggest(el) {
      navigate(searchUrl({ q: el.dataset.q, field: 'title', from: '', to: '', page: 1 }));
    },
    page(el) {
      navigate(searchUrl({ ...currentSearch, page: Number(el.dataset.page) }));
    },
    open(el) {
      navigate(`/patent/${encodeURIComponent(el.dataset.number)}`);
    },
    back() {
      navigate(lastSearchUrl || '/');
    },
    tab(el) {
      showTab(el.dataset.tab);
    },
    'more-citations'(el) {
      el.disabled = true;
      el.textContent = 'Loading…';
      loadCitations(Number(el.dataset.offset), panelToken);
    },
    retry() {
      route();
    },
  };

  app.addEventListener('click', (event) => {
    const el = event.target.closest('[data-action]');
    if (!el || !app.contains(el) || !(el.dataset.action in actions)) return;
    event.preventDefault();
    actions[el.dataset.action](el);
  });

  // Elements with role="link" are not buttons: make Enter activate them like a click.
  app.addEventListener('keydown', (event) => {
    const el = event.target.closest('[data-action][role="link"]');
    if (el && event.key === 'Enter') el.click();
  });

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const values = new FormData(form);
    navigate(
      searchUrl({
        q: String(values.get('q')).trim(),
        field: String(values.get('field')),
        from: String(values.get('from')),
        to: String(values.get('to')),
        page: 1,
      }),
    );
  });

  window.addEventListener('popstate', route);

  // ---- Clock -------------------------------------------------------------------------------

  function tick() {
    const now = new Date(Date.now() + clockOffset);
    const time = [now.getHours(), now.getMinutes(), now.getSeconds()]
      .map((n) => String(n).padStart(2, '0'))
      .join(':');
    clock.textContent = `Server time: ${time}`;
  }

  tick();
  setInterval(tick, 1000);
  route();
})();
