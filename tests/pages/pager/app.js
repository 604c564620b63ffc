// Patentfinder: search results fetched by XHR and shown at one URL for every query; a
// patent's detail on the hash route #/patent/<number>, beside the results.
(function () {
  'use strict';

  var box = document.querySelector('.searchbar input');
  var field = document.querySelector('.searchbar select');
  var searchButton = document.querySelector('.searchbar button');
  var status = document.querySelector('.status');
  var marker = document.querySelector('.results .marker');
  var summary = document.querySelector('.results .summary');
  var hits = document.querySelector('.results .hits');
  var pager = document.querySelector('.pager');
  var prev = pager.querySelector('.prev');
  var next = pager.querySelector('.next');
  var where = pager.querySelector('.where');
  var detail = document.querySelector('.detail');

  var current = null;  // the search on show: {q, field, page, pages}
  var shown = null;    // the patent on show
  var searches = 0;    // a ticket per search, so that a late answer never wins
  var opens = 0;       // the same per opened patent and tab

  var ROUTE = /^#\/patent\/([A-Z0-9]+)$/;
  var TABS = [['abstract', 'Abstract'], ['claims', 'Claims'], ['citations', 'Citations']];

  function esc(text) {
    return String(text).replace(/[&<>"]/g, function (c) {
      return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c];
    });
  }

  function el(tag, cls, html) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (html) node.innerHTML = html;
    return node;
  }

  function getJSON(url) {
    return fetch(url).then(function (response) {
      if (!response.ok) throw new Error(url + ': ' + response.status);
      return response.json();
    });
  }

  // ---- results ------------------------------------------------------------------------------

  function search(q, inField, page) {
    var ticket = ++searches;
    status.textContent = 'Searching\u2026';
    var xhr = new XMLHttpRequest();
    xhr.open('GET', '/pager/api/search?q=' + encodeURIComponent(q) + '&field=' +
      encodeURIComponent(inField) + '&page=' + page);
    xhr.onload = function () {
      if (ticket !== searches) return;
      if (xhr.status !== 200) { status.textContent = 'The search service is not available.'; return; }
      status.textContent = '';
      leaveDetail();
      showResults(JSON.parse(xhr.responseText));
    };
    xhr.onerror = function () {
      if (ticket === searches) status.textContent = 'The search service is not available.';
    };
    xhr.send();
  }

  function showResults(data) {
    current = { q: data.q, field: data.field, page: data.page, pages: data.pages };
    marker.textContent = 'PAGE ' + data.q + '/' + data.field + '/' + data.page;
    hits.innerHTML = '';
    if (!data.total) {
      summary.innerHTML = 'No patents have <q>' + esc(data.q) + '</q> in their ' + esc(data.field) + '.';
      pager.hidden = true;
      return;
    }
    var last = data.first + data.hits.length - 1;
    summary.innerHTML = data.total + ' patents with <q>' + esc(data.q) + '</q> in their ' +
      esc(data.field) + ', showing ' + data.first + '\u2013' + last + '.';
    data.hits.forEach(function (hit) {
      var row = el('li', 'hit', '<span class="number">' + esc(hit.number) + '</span><h3>' +
        esc(hit.title) + '</h3><p class="meta">' + esc(hit.assignee) + ' &middot; granted ' +
        esc(hit.date) + '</p>');
      row.setAttribute('data-number', hit.number);
      row.addEventListener('click', function () { location.hash = '#/patent/' + hit.number; });
      hits.appendChild(row);
    });
    where.textContent = 'Page ' + data.page + ' of ' + data.pages;
    prev.disabled = data.page <= 1;
    next.disabled = data.page >= data.pages;
    pager.hidden = false;
  }

  searchButton.addEventListener('click', function () {
    var q = box.value.trim();
    if (!q) { status.textContent = 'Type a word to search for.'; return; }
    search(q, field.value, 1);
  });

  // A new field searches the query on show again, from its first page.
  field.addEventListener('change', function () {
    if (current) search(current.q, field.value, 1);
  });

  // The pager pages through the search on show, whatever the search box holds now.
  prev.addEventListener('click', function () {
    if (current && current.page > 1) search(current.q, current.field, current.page - 1);
  });
  next.addEventListener('click', function () {
    if (current && current.page < current.pages) search(current.q, current.field, current.page + 1);
  });

  // ---- the detail ---------------------------------------------------------------------------

  function hideDetail() {
    opens++;
    shown = null;
    detail.hidden = true;
    detail.innerHTML = '';
    hits.querySelectorAll('.hit.open').forEach(function (row) { row.classList.remove('open'); });
  }

  // Back to the results' own URL, with no history entry: a new page of results closes the detail.
  function leaveDetail() {
    if (location.hash) history.replaceState(null, '', location.pathname + location.search);
    hideDetail();
  }

  function openPatent(number) {
    var ticket = ++opens;
    status.textContent = 'Loading\u2026';
    getJSON('/pager/api/patent/' + encodeURIComponent(number))
      .then(function (patent) {
        if (ticket !== opens) return;
        status.textContent = '';
        shown = patent;
        renderDetail();
      })
      .catch(function () {
        if (ticket === opens) status.textContent = 'That patent could not be loaded.';
      });
  }

  function renderDetail() {
    var patent = shown;
    detail.innerHTML = '';
    var close = el('button', 'close', 'Close');
    close.type = 'button';
    close.addEventListener('click', leaveDetail);
    detail.appendChild(close);
    detail.appendChild(el('p', 'marker', 'DETAIL ' + esc(patent.number)));
    detail.appendChild(el('h2', null, esc(patent.title)));
    detail.appendChild(el('p', 'meta', esc(patent.number) + ' &middot; ' + esc(patent.assignee) +
      ' &middot; granted ' + esc(patent.date)));
    var tabs = el('div', 'tabs');
    tabs.setAttribute('role', 'tablist');
    TABS.forEach(function (tab) {
      var button = el('button', null, tab[1]);
      button.type = 'button';
      button.setAttribute('data-tab', tab[0]);
      button.addEventListener('click', function () { showTab(tab[0]); });
      tabs.appendChild(button);
    });
    detail.appendChild(tabs);
    detail.appendChild(el('div', 'panel'));
    detail.hidden = false;
    hits.querySelectorAll('.hit').forEach(function (row) {
      row.classList.toggle('open', row.getAttribute('data-number') === patent.number);
    });
    showTab('abstract');
  }

  function showTab(name) {
    var patent = shown;
    var ticket = ++opens;
    detail.querySelectorAll('.tabs button').forEach(function (button) {
      button.classList.toggle('on', button.getAttribute('data-tab') === name);
    });
    var panel = detail.querySelector('.panel');
    panel.setAttribute('data-shown', name);
    if (name === 'abstract') {
      panel.innerHTML = '<p class="marker">ABSTRACT ' + esc(patent.number) + '</p><p>' +
        esc(patent.abstract) + '</p>';
      return;
    }
    panel.innerHTML = '<p class="loading">Loading\u2026</p>';
    getJSON('/pager/api/patent/' + encodeURIComponent(patent.number) + '/' + name)
      .then(function (data) {
        if (ticket !== opens) return;
        panel.innerHTML = '<p class="marker">' + name.toUpperCase() + ' ' + esc(patent.number) +
          '</p>' + (name === 'claims' ? claimsHTML(data.claims) : citationsHTML(data.citations));
      })
      .catch(function () {
        if (ticket === opens) panel.innerHTML = '<p class="error">Could not be loaded.</p>';
      });
  }

  function claimsHTML(claims) {
    return '<ol class="claims">' + claims.map(function (text) {
      return '<li>' + esc(text) + '</li>';
    }).join('') + '</ol>';
  }

  function citationsHTML(citations) {
    if (!citations.length) return '<p class="empty">This patent cites no earlier patent.</p>';
    return '<ul class="citations">' + citations.map(function (c) {
      return '<li><span class="number">' + esc(c.number) + '</span> ' + esc(c.title) + '</li>';
    }).join('') + '</ul>';
  }

  // The hash route says which patent is open; a link to it opens the detail on its own.
  function route() {
    var match = ROUTE.exec(location.hash);
    if (match) openPatent(match[1]);
    else hideDetail();
  }

  window.addEventListener('hashchange', route);
  route();
})();
