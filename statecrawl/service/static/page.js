// statecrawl serve: the crawls with live counters, a form to start one, and a crawl's page
// (live figures from its server-sent events, a chart, its last states, its failures).
//
// Safety: every string that comes from a crawl (URLs, titles, errors, action names) reaches
// the DOM through textContent or an attribute that runs and loads nothing; links to crawled
// URLs are made only for http(s) ones. Nothing is loaded from anywhere but this service.
'use strict';
(function () {
  const $ = (id) => document.getElementById(id);
  const ACTIVE = new Set(['queued', 'running', 'stopping']);
  const LAST_STATES = 12;
  const FIGURES = ['states', 'transitions', 'frontier', 'resets', 'rate', 'failures'];
  let timer = null;
  let stream = null;
  let current = null;  // the crawl shown: {id, points, states}

  function el(tag, text, cls) {
    const node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = String(text);
    if (cls) node.className = cls;
    return node;
  }
  function httpUrl(text) {
    try {
      const url = new URL(text);
      return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
    } catch (e) {
      return null;
    }
  }
  function when(seconds) {
    return seconds ? new Date(seconds * 1000).toLocaleString() : '';
  }

  async function api(method, path, body) {
    const options = { method, credentials: 'same-origin', headers: {} };
    if (body !== undefined) {
      options.headers['Content-Type'] = 'application/json';
      options.body = JSON.stringify(body);
    }
    const response = await fetch(path, options);
    if (response.status === 401) {
      show('login');
      throw new Error('token needed');
    }
    const data = response.status === 204 ? {} : await response.json();
    return { ok: response.ok, status: response.status, data };
  }

  function show(section) {
    for (const id of ['login', 'home', 'crawl']) $(id).hidden = id !== section;
  }

  function stopWatching() {
    if (timer !== null) clearInterval(timer);
    timer = null;
    if (stream !== null) stream.close();
    stream = null;
  }

  // ---- the list and the form ----------------------------------------------------------------
  async function home() {
    $('crawls').tBodies[0].replaceChildren();  // (a list of an earlier visit is out of date)
    show('home');
    await refreshList();
    timer = setInterval(refreshList, 1000);
  }

  async function refreshList() {
    const { data } = await api('GET', '/api/crawls');
    const body = $('crawls').tBodies[0];
    const rows = [];
    for (const crawl of data.crawls.slice().reverse()) {
      const row = el('tr');
      row.dataset.id = crawl.id;
      const link = el('a', crawl.id);
      link.href = '#/crawls/' + crawl.id;
      const first = el('td');
      first.append(link);
      const stats = crawl.stats || {};
      const status = el('td');
      status.append(el('span', crawl.status, 'status ' + crawl.status));
      row.append(first, el('td', crawl.start_url, 'url'), status);
      for (const name of ['states', 'transitions', 'frontier', 'rate', 'failures']) {
        row.append(el('td', stats[name] !== undefined ? stats[name] : '', 'n-' + name));
      }
      row.append(el('td', when(crawl.created)));
      rows.push(row);
    }
    body.replaceChildren(...rows);
    $('empty').hidden = rows.length > 0;
  }

  function lines(text) {
    return text.split('\n').map((l) => l.trim()).filter((l) => l);
  }
  function number(text) {
    const t = text.trim();
    return /^-?\d+(\.\d+)?$/.test(t) ? Number(t) : t;
  }

  function settingsOfForm() {
    const settings = {};
    const errors = {};
    const url = $('f-url').value.trim();
    if (url) settings.start_urls = [url];
    const put = (section, name, value) => {
      settings[section] = settings[section] || {};
      settings[section][name] = value;
    };
    for (const [id, section, name] of [['f-depth', 'limits', 'max_depth'], ['f-states', 'limits', 'max_states'],
      ['f-time', 'limits', 'max_time'], ['f-browsers', 'browser', 'count']]) {
      if ($(id).value.trim()) put(section, name, number($(id).value));
    }
    const values = {};
    for (const line of lines($('f-inputs').value)) {
      const at = line.indexOf('=');
      if (at <= 0) {
        errors['inputs.values'] = 'expected NAME=VALUE, got ' + JSON.stringify(line);
        continue;
      }
      const name = line.slice(0, at).trim();
      (values[name] = values[name] || []).push(line.slice(at + 1));
    }
    if (Object.keys(values).length) put('inputs', 'values', values);
    if (lines($('f-include').value).length) put('scope', 'include', lines($('f-include').value));
    if (lines($('f-exclude').value).length) put('scope', 'exclude', lines($('f-exclude').value));
    return { settings, errors };
  }

  function showErrors(fields) {
    for (const node of document.querySelectorAll('#start [data-error]')) node.textContent = '';
    for (const node of document.querySelectorAll('#start [data-field]')) node.removeAttribute('aria-invalid');
    for (const [field, message] of Object.entries(fields)) {
      const section = field.split('.')[0];
      const spot = document.querySelector(`#start [data-error="${CSS.escape(field)}"]`) ||
        document.querySelector(`#start [data-error="${CSS.escape(section)}"]`) || $('form-error');
      spot.textContent = spot.textContent ? spot.textContent + '; ' + message : message;
      const input = document.querySelector(`#start [data-field="${CSS.escape(field)}"]`);
      if (input) input.setAttribute('aria-invalid', 'true');
    }
  }

  async function start(event) {
    event.preventDefault();
    const { settings, errors } = settingsOfForm();
    if (Object.keys(errors).length) {
      showErrors(errors);
      return;
    }
    const { ok, data } = await api('POST', '/api/crawls', settings);
    if (!ok) {
      showErrors(data.fields || { settings: data.error });
      return;
    }
    showErrors({});
    location.hash = '#/crawls/' + data.id;
  }

  // ---- a crawl's page -----------------------------------------------------------------------
  async function crawl(id) {
    show('crawl');
    current = { id, points: [], states: [] };
    $('c-states').replaceChildren();
    $('c-failures').replaceChildren();
    for (const name of FIGURES) $('f-v-' + name).textContent = '0';
    chart();
    const { ok, data } = await api('GET', '/api/crawls/' + encodeURIComponent(id));
    if (!ok) {
      $('c-id').textContent = id;
      $('c-error').textContent = data.error;
      return;
    }
    render(data);
    const others = await api('GET', '/api/crawls');
    const options = others.data.crawls.filter((c) => c.id !== id).map((c) => {
      const option = el('option', c.id + ' ' + c.start_url);
      option.value = c.id;
      return option;
    });
    $('l-against').replaceChildren(...options);
    diffLink();
    watch(id);
  }

  function render(job) {
    $('c-id').textContent = job.id;
    $('c-status').textContent = job.status;
    $('c-status').className = 'status ' + job.status;
    $('c-url').textContent = job.start_url;
    const url = httpUrl(job.start_url);
    if (url) $('c-url').href = url; else $('c-url').removeAttribute('href');
    $('c-error').textContent = job.error || '';
    $('c-stop').disabled = !['queued', 'running'].includes(job.status);
    $('c-resume').disabled = !['stopped', 'interrupted', 'failed'].includes(job.status);
    $('c-recrawl').disabled = !['done', 'stopped', 'interrupted'].includes(job.status);
    $('c-delete').disabled = ['running', 'stopping'].includes(job.status);
    $('l-report').href = job.links.report;
    $('l-graph').href = job.links.graph;
    $('l-wacz').href = job.links.wacz;
    $('l-records').hidden = !job.links.records;
    if (job.links.records) $('l-records').href = job.links.records;
    $('l-qa').hidden = !job.links.qa;
    if (job.links.qa) {
      $('l-qa').href = job.links.qa;
      // the list's view of a crawl (a status event's) has no shares: the full view's stay
      if (job.qa || $('l-qa').dataset.job !== job.id) {
        const shares = Object.entries(job.qa || {}).map(([name, share]) => `${name} ${(100 * share).toFixed(1)} %`);
        $('l-qa').textContent = 'QA' + (shares.length ? ': ' + shares.join(', ') : '');
        $('l-qa').dataset.job = job.id;
      }
    }
    if (job.stats) figures(job.stats);
    if (job.failures) {
      $('c-failures').replaceChildren(...job.failures.map((f) => {
        const what = [f.state ? 'state ' + f.state.slice(0, 8) : 'crawl', f.name || f.url || '', f.error || ''];
        return el('li', what.filter((t) => t).join(': '));
      }));
    }
  }

  function diffLink() {
    const against = $('l-against').value;
    $('l-diff').hidden = !against;
    if (against) $('l-diff').href = `/api/crawls/${current.id}/diff?against=${encodeURIComponent(against)}`;
  }

  function figures(stats) {
    for (const name of FIGURES) {
      if (stats[name] !== undefined) $('f-v-' + name).textContent = String(stats[name]);
    }
  }

  function watch(id) {
    stream = new EventSource('/api/crawls/' + encodeURIComponent(id) + '/events');
    const figuresOf = (event) => {
      const data = JSON.parse(event.data);
      figures(data);
      current.points.push([data.time, data.states, data.transitions]);
      chart();
    };
    stream.addEventListener('progress', figuresOf);
    stream.addEventListener('end', figuresOf);
    stream.addEventListener('state', (event) => addState(JSON.parse(event.data)));
    // a thumbnail written after its state's event: shown once it is there, never asked before
    stream.addEventListener('picture', (event) => {
      const data = JSON.parse(event.data);
      for (const item of $('c-states').children) {
        if (item.dataset.state === data.id && !item.querySelector('img')) item.prepend(picture(data.picture));
      }
    });
    stream.addEventListener('status', async (event) => {
      const job = JSON.parse(event.data);
      render(job);
      service();
      if (!ACTIVE.has(job.status)) {
        const full = await api('GET', '/api/crawls/' + encodeURIComponent(id));
        if (full.ok) render(full.data);
      }
    });
    // the crawl has stopped and everything is sent: no reconnection
    stream.addEventListener('closed', () => stopWatching());
  }

  // a state's thumbnail, at the URL the service gave once the file was there
  function picture(url) {
    const image = el('img');
    image.alt = '';
    image.src = url;
    return image;
  }

  function addState(state) {
    const item = el('li');
    const title = el('strong', state.title || '(no title)');
    if (state.picture) item.append(picture(state.picture));
    item.append(title, el('div', state.url), el('div', 'depth ' + state.depth + ' · ' + state.id.slice(0, 8)));
    if (state.action) item.append(el('div', 'by ' + state.action));
    const list = $('c-states');
    item.dataset.state = state.id;
    for (const old of list.children) if (old.dataset.state === state.id) old.remove();  // a resumed crawl tells its states again
    list.prepend(item);
    while (list.children.length > LAST_STATES) list.lastChild.remove();
  }

  function chart() {
    const svg = $('c-chart');
    const NS = 'http://www.w3.org/2000/svg';
    const W = 600, H = 170, L = 40, B = 20, T = 8;
    const points = current ? current.points : [];
    const shapes = [];
    const line = (x1, y1, x2, y2) => {
      const node = document.createElementNS(NS, 'line');
      for (const [k, v] of Object.entries({ x1, y1, x2, y2 })) node.setAttribute(k, String(v));
      node.setAttribute('class', 'axis');
      return node;
    };
    const label = (x, y, text, anchor) => {
      const node = document.createElementNS(NS, 'text');
      node.setAttribute('x', String(x));
      node.setAttribute('y', String(y));
      node.setAttribute('text-anchor', anchor);
      node.textContent = text;
      return node;
    };
    shapes.push(line(L, T, L, H - B), line(L, H - B, W - 4, H - B));
    if (points.length) {
      const t0 = points[0][0];
      const span = Math.max(1, points[points.length - 1][0] - t0);
      const top = Math.max(1, ...points.map((p) => Math.max(p[1], p[2])));
      const x = (t) => L + (W - 4 - L) * (t - t0) / span;
      const y = (v) => H - B - (H - B - T) * v / top;
      for (const [index, cls] of [[1, 'states'], [2, 'transitions']]) {
        const path = document.createElementNS(NS, 'polyline');
        path.setAttribute('points', points.map((p) => `${x(p[0]).toFixed(1)},${y(p[index]).toFixed(1)}`).join(' '));
        path.setAttribute('class', cls);
        shapes.push(path);
      }
      shapes.push(label(L - 4, T + 8, String(top), 'end'), label(L - 4, H - B, '0', 'end'),
        label(W - 4, H - 6, Math.round(span) + ' s', 'end'));
    }
    svg.replaceChildren(...shapes);
  }

  async function act(action) {
    const id = current.id;
    const path = '/api/crawls/' + encodeURIComponent(id) + (action === 'delete' ? '' : '/' + action);
    const { ok, data } = await api(action === 'delete' ? 'DELETE' : 'POST', path);
    if (!ok) {
      $('c-error').textContent = data.error;
      return;
    }
    if (action === 'delete') location.hash = '#/';
    else if (action === 'recrawl') location.hash = '#/crawls/' + data.id;
    else if (action === 'resume') route();
    else render(data);
  }

  // ---- routing ------------------------------------------------------------------------------
  async function route() {
    stopWatching();
    const match = /^#\/crawls\/([0-9a-f]+)$/.exec(location.hash);
    try {
      if (match) await crawl(match[1]); else await home();
    } catch (e) {
      if (e.message !== 'token needed') throw e;
    }
  }

  async function login(event) {
    event.preventDefault();
    const response = await fetch('/api/session', {
      method: 'POST', credentials: 'same-origin', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ token: $('token').value }),
    });
    if (!response.ok) {
      $('login-error').textContent = 'wrong token';
      return;
    }
    $('token').value = '';
    route();
  }

  async function service() {
    try {
      const { data } = await api('GET', '/api/status');
      $('service').textContent = `statecrawl ${data.version} · ${data.running} running, ` +
        `${data.queued} queued, at most ${data.max_running} at once`;
    } catch (e) {
      $('service').textContent = '';
    }
  }

  $('start').addEventListener('submit', start);
  $('login-form').addEventListener('submit', login);
  $('l-against').addEventListener('change', diffLink);
  for (const action of ['stop', 'resume', 'recrawl', 'delete']) {
    $('c-' + action).addEventListener('click', () => act(action));
  }
  window.addEventListener('hashchange', route);
  route();
  service();
  setInterval(service, 5000);
})();
