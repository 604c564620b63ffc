// statecrawl report viewer: the state graph on a canvas (groups of alike states drawn as one
// node until expanded), a tree of how each state was first reached, a list by depth or time
// found, a panel per state, the replay of the DOM-mutation frames that led to a state, and a
// search over state text.
//
// Safety: crawled strings only ever reach this page's DOM through textContent, through
// setAttribute on attributes that cannot run or load anything, through canvas fillText, or as
// an http(s) link after a scheme check. Crawled markup is parsed only in inert DOMParser
// documents (no scripts, no loads), cleaned of scripts, handlers and URLs, and shown in an
// iframe sandboxed with no flags at all (no scripts, opaque origin) that inherits this page's
// Content-Security-Policy and carries a stricter one of its own. A snapshot is styled with the
// crawl's archived stylesheets, images and fonts, which the report holds as assets (inline
// data: URLs, stylesheets whose url() are such data: URLs): every other URL is dropped.
'use strict';
(function () {
  const SC = { readyAt: null };
  window.SC = SC;
  const $ = (id) => document.getElementById(id);
  const GX = 90;   // world units between neighbours in a layer
  const GY = 130;  // world units between depth layers, at least (more for wide, shallow graphs)
  const R = 9;     // node radius in world units
  const RG = 15;   // a collapsed group's half width in world units
  const GROUP_SLOT = 2.5;  // a collapsed group's room in its layer, in neighbours (for its label)
  // What each colour of the graph means, one thing each (fills, then rings and lines); the
  // legend's keys take theirs from here.
  const COLOURS = {
    state: '#3b6fd4', external: '#a3a9b5', failed: '#d33b3b', unreachable: '#e69317', group: '#0f8b8d',
    dialogs: '#8a3bd3', new: '#2f9e44', changed: '#c2255c', found: '#f5c400', selected: '#1d2433',
  };
  const ROW = 30;  // pixels of a row of the list view
  const EXTERNAL = 1, FAILED = 2, UNREACHABLE = 4, DIALOGS = 8, TRUNCATED = 16, TIMED_OUT = 32;
  const NEW = 256, CHANGED = 512;  // against an earlier crawl (see comparison.py)
  const DOCUMENT = 1024;  // a downloaded file: not a state, no depth of its own
  const BEFORE_FORMATS = ['thumb.webp', 'thumb.jpg', 'png', 'jpeg', 'webp'];  // shots/<n>.before.<extension>
  const SHOT_FORMATS = ['png', 'jpeg', 'webp'];  // the screenshots' formats (d.shot)
  const INNER_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:";
  const MARK_CSS = '[data-sc-changed]{outline:3px solid #f08c00 !important;outline-offset:1px;' +
    'background-color:rgba(255,200,0,.18) !important}[data-sc-fired]{outline:3px dashed #d33b3b !important;' +
    'outline-offset:2px}';
  const LINK_CSS = '[data-sc-href]{color:#0645ad;text-decoration:underline}';  // for an unstyled snapshot
  // The only data: URLs a snapshot keeps: images and fonts, base64 or plain, nothing that
  // could close a CSS string or url().
  const SAFE_DATA = /^data:(?:image|font|application\/(?:x-)?font-)[\w.+\/-]*(?:;[\w.+=-]+)*,[^"'()\\\s<>]*$/i;

  function el(tag, text, cls) {
    const node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = String(text);
    if (cls) node.className = cls;
    return node;
  }
  function clip(text, n) {
    const s = String(text === undefined || text === null ? '' : text);
    return s.length > n ? s.slice(0, n - 1) + '\u2026' : s;
  }
  // An element holding text with a chance of a line break after each separator (/ & ? = , ;
  // :), so that a long action or URL wraps between its parts and never inside a word.
  function breakable(tag, text) {
    const node = el(tag);
    for (const part of String(text === undefined || text === null ? '' : text).split(/(?<=[\/&?=,;:])/)) {
      if (node.firstChild) node.appendChild(document.createElement('wbr'));
      node.appendChild(document.createTextNode(part));
    }
    return node;
  }
  function webUrl(text) {  // an absolute http(s) URL, or null
    try {
      const url = new URL(String(text));
      return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
    } catch (e) {
      return null;
    }
  }

  // ---- data files: scripts that register one value each -------------------------------------
  const details = new Map();  // node number -> its state file's value
  const shards = new Map();   // shard number -> [[term, gaps], ...]
  const assets = new Map();   // asset number -> a stylesheet's text or a data: URL
  const loading = new Map();  // src -> promise
  SC.state = (n, value) => { details.set(n, value); };
  SC.terms = (k, value) => { shards.set(k, value); };
  SC.asset = (k, value) => { assets.set(k, value); };
  function load(src) {
    if (!loading.has(src)) {
      loading.set(src, new Promise((resolve, reject) => {
        const script = document.createElement('script');
        script.src = src;
        script.onload = () => { script.remove(); resolve(); };
        script.onerror = () => { script.remove(); loading.delete(src); reject(new Error('cannot load ' + src)); };
        document.head.appendChild(script);
      }));
    }
    return loading.get(src);
  }
  const unpacked = new Map();  // node number -> promise of its state file's value, unpacked
  function stateData(n) {
    if (!unpacked.has(n)) {
      unpacked.set(n, load('data/s/' + n + '.js').then(() => unpack(details.get(n)))
        .catch((e) => { unpacked.delete(n); throw e; }));
    }
    return unpacked.get(n);
  }
  // A state's DOM and frames come packed (JSON, gzip, base64: builder.py's pack).
  function unpack(d) {
    if (!d || typeof d.packed !== 'string') return Promise.resolve(d);
    const bytes = Uint8Array.from(atob(d.packed), (c) => c.charCodeAt(0));
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
    return new Response(stream).text().then((text) => {
      const { packed, ...rest } = d;
      return Object.assign(rest, JSON.parse(text));
    });
  }
  // What styles a state's snapshot: its URL (relative URLs resolve against it) and the assets
  // of the URLs it refers to. An asset that fails to load is left out.
  function stateStyles(d) {
    const pairs = Array.isArray(d.assets) ? d.assets.filter((p) => Array.isArray(p) && Number.isInteger(p[1])) : [];
    return Promise.all(pairs.map((p) => load('data/a/' + p[1] + '.js').catch(() => null))).then(() => {
      const urls = new Map();
      for (const [url, k] of pairs) if (typeof assets.get(k) === 'string') urls.set(String(url), assets.get(k));
      return { base: String(d.url || ''), urls };
    });
  }

  // ---- the graph ------------------------------------------------------------------------------
  const G = {};
  const view = { s: 1, ox: 0, oy: 0, w: 0, h: 0, dpr: 1 };
  let selected = -1;
  let hits = null;  // Set of node numbers matching the search
  let queued = false;
  const canvas = $('canvas');
  const ctx = canvas.getContext('2d');

  SC.index = function (data) {
    G.meta = data.meta;
    G.ids = data.ids;
    G.labels = data.labels;
    G.titles = data.titles;
    G.urls = data.urls;
    G.flags = data.flags;
    G.n = data.ids.length;
    G.depth = Int32Array.from(data.depth);
    // the depths of states: a layer of documents and pages out of scope alone is no depth
    G.stateDepths = new Set(data.depth.filter((_, n) => !(data.flags[n] & (EXTERNAL | DOCUMENT))));
    G.found = data.found;
    G.parent = Int32Array.from(data.parent);
    G.edges = Int32Array.from(data.edges);
    G.number = new Map(data.ids.map((id, n) => [id, n]));
    // Groups (see statecrawl/report/groups.py): group g is drawn as unit G.n + g while it is
    // collapsed, at the depth of its shallowest member; every group starts collapsed.
    G.group = Int32Array.from(data.group);
    G.groupNames = data.groups;
    G.groupUnits = data.groupUnits;
    G.members = G.groupNames.map(() => []);
    for (let n = 0; n < G.n; n++) if (G.group[n] >= 0) G.members[G.group[n]].push(n);
    G.ud = new Int32Array(G.n + G.groupNames.length);
    G.ud.set(G.depth);
    G.members.forEach((m, g) => { G.ud[G.n + g] = m.reduce((d, n) => Math.min(d, G.depth[n]), Infinity); });
    start();
  };

  // ---- units: the states and collapsed groups the graph draws, and their layout -----------------
  const expanded = new Set();  // group numbers drawn as their members
  function unitOf(n) {
    const g = G.group[n];
    return g >= 0 && !expanded.has(g) ? G.n + g : n;
  }
  function isGroup(u) { return u >= G.n; }
  // Positions within depth layers: each layer in the order of the mean position of its units'
  // parents in the layers above (a barycentre sweep), centred on 0; again on every expansion.
  function layout() {
    const total = G.ud.length;
    const unit = Int32Array.from({ length: G.n }, (_, n) => unitOf(n));
    const seen = new Set(), pairs = [];
    for (let i = 0; i < G.edges.length; i += 2) {
      const a = unit[G.edges[i]], b = unit[G.edges[i + 1]];
      const key = a * total + b;
      if (a === b || seen.has(key)) continue;
      seen.add(key);
      pairs.push(a, b);
    }
    G.uedges = Int32Array.from(pairs);
    const parents = new Map();
    for (let i = 0; i < pairs.length; i += 2) {
      const a = pairs[i], b = pairs[i + 1];
      if (G.ud[a] >= G.ud[b]) continue;
      if (!parents.has(b)) parents.set(b, []);
      parents.get(b).push(a);
    }
    const byDepth = new Map();
    for (let u = 0; u < total; u++) {
      if (u < G.n ? unit[u] !== u : expanded.has(u - G.n)) continue;
      if (!byDepth.has(G.ud[u])) byDepth.set(G.ud[u], []);
      byDepth.get(G.ud[u]).push(u);
    }
    G.wx = new Float64Array(total);
    G.layers = new Map();
    for (const depth of [...byDepth.keys()].sort((a, b) => a - b)) {
      const members = byDepth.get(depth);
      const centre = new Map(members.map((u, i) => {
        const above = parents.get(u);
        return [u, [above ? above.reduce((sum, p) => sum + G.wx[p], 0) / above.length : Infinity, i]];
      }));
      members.sort((a, b) => {
        const ca = centre.get(a), cb = centre.get(b);
        return ca[0] - cb[0] || ca[1] - cb[1];
      });
      const room = members.map((u) => (isGroup(u) ? GROUP_SLOT : 1) * GX);
      let x = -(room.reduce((sum, w) => sum + w, 0) - room[0] / 2 - room[room.length - 1] / 2) / 2;
      members.forEach((u, i) => { G.wx[u] = x; x += (room[i] + (room[i + 1] || 0)) / 2; });
      G.layers.set(depth, Int32Array.from(members));
    }
    let span = 0, deepest = 0;
    for (const [depth, members] of G.layers) {
      deepest = Math.max(deepest, depth);
      span = Math.max(span, Math.abs(G.wx[members[0]]), Math.abs(G.wx[members[members.length - 1]]));
    }
    G.gy = Math.min(Math.max(GY, (2 * span * view.h) / (view.w * Math.max(deepest, 1))), 12 * GY);
    G.wy = Float64Array.from(G.ud, (d) => d * G.gy);
  }
  SC.layoutOf = (depths, edges, group) => {  // the x of each unit for a small graph (for tests)
    const saved = { ...G };
    const groups = Math.max(-1, ...(group || [])) + 1;
    const ud = Int32Array.from({ length: depths.length + groups }, (_, u) => u < depths.length ? depths[u]
      : Math.min(...depths.filter((_, n) => group[n] === u - depths.length)));
    Object.assign(G, { n: depths.length, depth: Int32Array.from(depths), edges: Int32Array.from(edges.flat()),
      group: Int32Array.from(group || depths.map(() => -1)), ud });
    layout();
    const x = Array.from(G.wx);
    Object.assign(G, saved);
    return x;
  };
  function toggleGroup(g) {
    if (expanded.has(g)) expanded.delete(g); else expanded.add(g);
    layout();
    $('groups-fold').disabled = !expanded.size;
    fit();
    if (view.s >= 0.6) return;  // the whole graph reads: leave it so
    const shown = expanded.has(g) ? G.members[g] : [G.n + g];  // else at a readable scale, on them
    view.s = 1;
    view.ox = view.w / 2 - (shown.reduce((sum, u) => sum + G.wx[u], 0) / shown.length) * view.s;
    view.oy = view.h / 2 - G.wy[shown[0]] * view.s;
    redraw();
  }
  function foldGroups() {
    expanded.clear();
    layout();
    $('groups-fold').disabled = true;
    fit();
  }
  SC.groups = () => G.groupNames.map((name, g) => ({ name, units: G.groupUnits[g], count: G.members[g].length, expanded: expanded.has(g) }));
  SC.toggleGroup = toggleGroup;

  function nameOf(n) {  // what a state is called: its label (see statecrawl/label.py)
    return G.labels[n] || G.titles[n] || G.urls[n] || G.ids[n];
  }
  function unitName(u) {
    return isGroup(u) ? G.groupNames[u - G.n] + ' (' + G.members[u - G.n].length + ')' : nameOf(u);
  }
  function bounds() {
    let x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity;
    for (const [depth, members] of G.layers) {
      x0 = Math.min(x0, G.wx[members[0]]); x1 = Math.max(x1, G.wx[members[members.length - 1]]);
      y0 = Math.min(y0, depth * G.gy); y1 = Math.max(y1, depth * G.gy);
    }
    return G.layers.size ? [x0, y0, x1, y1] : [0, 0, 0, 0];
  }
  function fit() {
    const [x0, y0, x1, y1] = bounds();
    const pad = 40, below = 70;  // room for the labels, the zoom buttons and the legend
    view.s = Math.min((view.w - 2 * pad) / Math.max(x1 - x0, 1), (view.h - 2 * below) / Math.max(y1 - y0, 1), 1.5);
    view.ox = view.w / 2 - ((x0 + x1) / 2) * view.s;
    view.oy = view.h / 2 - ((y0 + y1) / 2) * view.s;
    redraw();
  }
  function resize() {
    const box = canvas.getBoundingClientRect();
    view.w = Math.max(box.width, 1);
    view.h = Math.max(box.height, 1);
    view.dpr = window.devicePixelRatio || 1;
    canvas.width = Math.round(view.w * view.dpr);
    canvas.height = Math.round(view.h * view.dpr);
  }
  function redraw() {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => { queued = false; draw(); });
  }
  function colour(n) {
    if (isGroup(n)) return COLOURS.group;
    const f = G.flags[n];
    if (f & FAILED) return COLOURS.failed;
    if (f & UNREACHABLE) return COLOURS.unreachable;
    if (f & EXTERNAL) return COLOURS.external;
    return COLOURS.state;
  }
  function visibleNodes(margin) {  // node numbers inside the view, layer by layer
    const s = view.s;
    const x0 = (-view.ox) / s - margin, x1 = (view.w - view.ox) / s + margin;
    const y0 = (-view.oy) / s - margin, y1 = (view.h - view.oy) / s + margin;
    const out = [];
    for (const [depth, members] of G.layers) {
      const y = depth * G.gy;
      if (y < y0 || y > y1) continue;
      for (let i = lowerBound(members, x0); i < members.length && G.wx[members[i]] <= x1; i++) out.push(members[i]);
    }
    return out;
  }
  function lowerBound(members, x) {
    let lo = 0, hi = members.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (G.wx[members[mid]] < x) lo = mid + 1; else hi = mid;
    }
    return lo;
  }
  function edgePath(path, a, b) {
    const s = view.s;
    const ax = G.wx[a] * s + view.ox, ay = G.wy[a] * s + view.oy;
    const bx = G.wx[b] * s + view.ox, by = G.wy[b] * s + view.oy;
    path.moveTo(ax, ay);
    if (G.ud[b] > G.ud[a]) {
      path.lineTo(bx, by);
    } else {  // back to the same or an upper layer: a curve off to the side
      const bend = (G.gy * 0.35 + Math.abs(ax - bx) * 0.08 / s) * s;
      path.quadraticCurveTo((ax + bx) / 2 + bend, (ay + by) / 2 - bend * 0.3, bx, by);
    }
  }
  function draw() {
    const s = view.s;
    ctx.setTransform(view.dpr, 0, 0, view.dpr, 0, 0);
    ctx.clearRect(0, 0, view.w, view.h);
    const x0 = (-view.ox) / s, x1 = (view.w - view.ox) / s;
    const y0 = (-view.oy) / s, y1 = (view.h - view.oy) / s;
    const down = new Path2D(), back = new Path2D(), near = new Path2D();
    const e = G.uedges;
    const chosen = selected >= 0 ? unitOf(selected) : -1;
    for (let i = 0; i < e.length; i += 2) {
      const a = e[i], b = e[i + 1];
      const ax = G.wx[a], bx = G.wx[b], ay = G.wy[a], by = G.wy[b];
      if (Math.max(ax, bx) < x0 || Math.min(ax, bx) > x1 || Math.max(ay, by) < y0 - G.gy || Math.min(ay, by) > y1 + G.gy) continue;
      if (a === chosen || b === chosen) edgePath(near, a, b);
      else edgePath(G.ud[b] > G.ud[a] ? down : back, a, b);
    }
    ctx.lineWidth = 1;
    ctx.strokeStyle = 'rgba(80,90,110,.35)';
    ctx.stroke(down);
    ctx.strokeStyle = 'rgba(140,150,170,.22)';
    ctx.stroke(back);
    ctx.lineWidth = 2;
    ctx.strokeStyle = COLOURS.selected;
    ctx.stroke(near);

    const r = Math.max(1.5, Math.min(R * s, 14));
    const nodes = visibleNodes(R);
    const fills = new Map();
    const ringed = new Path2D(), found = new Path2D(), added = new Path2D(), altered = new Path2D();
    const rg = Math.max(3, Math.min(RG * s, 22));
    const counts = [];
    for (const n of nodes) {
      const x = G.wx[n] * s + view.ox, y = G.wy[n] * s + view.oy;
      const c = colour(n);
      if (!fills.has(c)) fills.set(c, new Path2D());
      const path = fills.get(c);
      if (isGroup(n)) {
        path.roundRect(x - rg, y - rg * 0.75, 2 * rg, 1.5 * rg, rg * 0.3);
        if (hits && G.members[n - G.n].some((m) => hits.has(m))) { found.moveTo(x + rg + 5, y); found.arc(x, y, rg + 5, 0, 2 * Math.PI); }
        if (rg >= 9) counts.push(n);
        continue;
      }
      if (r < 3) path.rect(x - r, y - r, 2 * r, 2 * r);
      else { path.moveTo(x + r, y); path.arc(x, y, r, 0, 2 * Math.PI); }
      if (G.flags[n] & DIALOGS) { ringed.moveTo(x + r + 2, y); ringed.arc(x, y, r + 2, 0, 2 * Math.PI); }
      const mark = G.flags[n] & NEW ? added : G.flags[n] & CHANGED ? altered : null;
      if (mark) { mark.moveTo(x + r + 3, y); mark.arc(x, y, r + 3, 0, 2 * Math.PI); }
      if (hits && hits.has(n)) { found.moveTo(x + r + 5, y); found.arc(x, y, r + 5, 0, 2 * Math.PI); }
    }
    if (chosen >= 0) {  // a halo under the selected state, so it shows at any scale
      ctx.beginPath();
      ctx.arc(G.wx[chosen] * s + view.ox, G.wy[chosen] * s + view.oy, (isGroup(chosen) ? rg : r) + 12, 0, 2 * Math.PI);
      ctx.fillStyle = 'rgba(29,36,51,.16)';
      ctx.fill();
    }
    for (const [c, path] of fills) { ctx.fillStyle = c; ctx.fill(path); }
    ctx.lineWidth = 2;
    ctx.strokeStyle = COLOURS.dialogs;
    ctx.stroke(ringed);
    ctx.strokeStyle = COLOURS.new;
    ctx.stroke(added);
    ctx.strokeStyle = COLOURS.changed;
    ctx.stroke(altered);
    ctx.lineWidth = 3;
    ctx.strokeStyle = COLOURS.found;
    ctx.stroke(found);
    ctx.font = '600 11px system-ui, sans-serif';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillStyle = '#fff';
    for (const u of counts) ctx.fillText(String(G.members[u - G.n].length), G.wx[u] * s + view.ox, G.wy[u] * s + view.oy);
    ctx.textBaseline = 'alphabetic';
    if (chosen >= 0) {
      ctx.beginPath();
      ctx.arc(G.wx[chosen] * s + view.ox, G.wy[chosen] * s + view.oy, (isGroup(chosen) ? rg : r) + 4, 0, 2 * Math.PI);
      ctx.lineWidth = 3;
      ctx.strokeStyle = COLOURS.selected;
      ctx.stroke();
    }
    drawLabels(nodes, r, rg);
    ctx.font = '12px system-ui, sans-serif';
    ctx.textAlign = 'left';
    ctx.textBaseline = 'alphabetic';
    ctx.fillStyle = '#5c6475';
    for (const depth of G.layers.keys()) {
      const y = depth * G.gy * s + view.oy;
      if (y > 0 && y < view.h && G.stateDepths.has(depth)) ctx.fillText('depth ' + depth, 8, y - 6);
    }
  }
  // Labels: every collapsed group's name and count on a card, then, zoomed in, the states'
  // names. A label goes below its node, else above it, else (a group's) a line further off;
  // a state's label that finds no free place is left out (its name shows on hover).
  let placed = [];  // the labels drawn last: {u, text, x, y, w, h} in CSS pixels
  function drawLabels(nodes, r, rg) {
    placed = [];
    const s = view.s;
    const free = (b) => placed.every((o) => b.x + b.w <= o.x || o.x + o.w <= b.x || b.y + b.h <= o.y || o.y + o.h <= b.y);
    const place = (u, text, h, gap, tries) => {
      const w = ctx.measureText(text).width + 8;
      const x = Math.min(Math.max(G.wx[u] * s + view.ox - w / 2, 2), Math.max(view.w - w - 2, 2));
      const y = G.wy[u] * s + view.oy;
      for (let k = 0; k < tries; k++) {
        const below = y + gap + k * (h + 2), above = y - gap - h - k * (h + 2);
        for (const top of [below, above]) {
          const box = { u, text, x, y: top, w, h };
          if (free(box)) { placed.push(box); return box; }
        }
      }
      return null;
    };
    ctx.textAlign = 'left';
    ctx.textBaseline = 'middle';
    ctx.font = '600 12px system-ui, sans-serif';
    for (const u of nodes) {
      if (!isGroup(u)) continue;
      const box = place(u, clip(G.groupNames[u - G.n], 48) + ' \u00b7 ' + G.members[u - G.n].length + ' ' + G.groupUnits[u - G.n], 18, rg * 0.75 + 4, 8);
      if (!box) continue;
      ctx.beginPath();
      ctx.roundRect(box.x, box.y, box.w, box.h, 4);
      ctx.fillStyle = 'rgba(255,255,255,.92)';
      ctx.fill();
      ctx.lineWidth = 1;
      ctx.strokeStyle = COLOURS.group;
      ctx.stroke();
      ctx.fillStyle = '#1d2433';
      ctx.fillText(box.text, box.x + 4, box.y + box.h / 2 + 0.5);
    }
    if (s < 0.6 || nodes.length >= 3000) return;
    ctx.font = '11px system-ui, sans-serif';
    ctx.fillStyle = '#1d2433';
    const chars = Math.max(6, Math.floor(GX * s / 6.5));
    for (const u of nodes) {
      if (isGroup(u)) continue;
      const box = place(u, clip(nameOf(u), chars), 14, r + 2, 1);
      if (box) ctx.fillText(box.text, box.x + 4, box.y + box.h / 2);
    }
  }
  SC.labels = () => placed.map(({ u, text, x, y, w, h }) => ({ group: isGroup(u), text, x, y, w, h }));
  SC.palette = () => ({ ...COLOURS });

  function nodeAt(px, py) {  // the unit under a point of the canvas, or -1
    const s = view.s;
    const wx = (px - view.ox) / s, wy = (py - view.oy) / s;
    const reach = Math.max(G.groupNames.length ? RG : R, 6 / s);
    const members = G.layers.get(Math.round(wy / G.gy));
    if (!members || Math.abs(wy - Math.round(wy / G.gy) * G.gy) > reach) return -1;
    const i = lowerBound(members, wx);
    let best = -1, gap = reach;
    for (const j of [i - 1, i]) {
      if (j >= 0 && j < members.length && Math.abs(G.wx[members[j]] - wx) <= gap) {
        best = members[j];
        gap = Math.abs(G.wx[members[j]] - wx);
      }
    }
    return best;
  }
  function zoom(factor, px, py) {
    const s = Math.min(Math.max(view.s * factor, 1e-4), 8);
    view.ox = px - (px - view.ox) * (s / view.s);
    view.oy = py - (py - view.oy) * (s / view.s);
    view.s = s;
    redraw();
  }
  // A state opened (a click, a search result, index.html#sN): its group shown as its states,
  // the graph at a scale where names read, the state in the middle of the canvas.
  function centreOn(state) {
    const g = G.group[state];
    if (g >= 0 && !expanded.has(g)) {
      expanded.add(g);
      layout();
      $('groups-fold').disabled = false;
    }
    resize();  // the panel beside the graph may just have opened
    view.s = Math.max(view.s, 0.8);
    view.ox = view.w / 2 - G.wx[state] * view.s;
    view.oy = view.h / 2 - G.wy[state] * view.s;
  }
  SC.selected = () => selected;
  SC.flags = () => Array.from(G.flags);  // each node's flags (for tests and scripts)
  SC.locate = (n) => {  // where node n (or its collapsed group) is on the canvas, in CSS pixels
    const u = unitOf(n);  // from its top left corner
    return { x: G.wx[u] * view.s + view.ox, y: G.wy[u] * view.s + view.oy };
  };
  SC.locateGroup = (g) => ({ x: G.wx[G.n + g] * view.s + view.ox, y: G.wy[G.n + g] * view.s + view.oy });

  function wireCanvas() {
    let press = null;
    const tip = $('tip');
    canvas.addEventListener('pointerdown', (ev) => {
      press = { x: ev.clientX, y: ev.clientY, ox: view.ox, oy: view.oy, moved: false };
      canvas.setPointerCapture(ev.pointerId);
    });
    canvas.addEventListener('pointermove', (ev) => {
      const box = canvas.getBoundingClientRect();
      if (press) {
        const dx = ev.clientX - press.x, dy = ev.clientY - press.y;
        if (Math.abs(dx) + Math.abs(dy) > 4) { press.moved = true; canvas.classList.add('dragging'); }
        if (press.moved) { view.ox = press.ox + dx; view.oy = press.oy + dy; redraw(); }
        return;
      }
      const n = nodeAt(ev.clientX - box.left, ev.clientY - box.top);
      tip.hidden = n < 0;
      if (n >= 0) {
        tip.textContent = isGroup(n) ? clip(unitName(n), 120) + ' \u2014 click to show its states'
          : clip(nameOf(n), 100) + ' \u2014 ' + clip(G.urls[n], 100);
        tip.style.left = (ev.clientX - box.left + 14) + 'px';
        tip.style.top = (ev.clientY - box.top + 14) + 'px';
      }
    });
    canvas.addEventListener('pointerup', (ev) => {
      const box = canvas.getBoundingClientRect();
      if (press && !press.moved) {
        const n = nodeAt(ev.clientX - box.left, ev.clientY - box.top);
        if (isGroup(n)) toggleGroup(n - G.n);
        else if (n >= 0) open(n);
      }
      press = null;
      canvas.classList.remove('dragging');
    });
    canvas.addEventListener('pointerleave', () => { tip.hidden = true; });
    canvas.addEventListener('wheel', (ev) => {
      ev.preventDefault();
      const box = canvas.getBoundingClientRect();
      zoom(Math.exp(-ev.deltaY * 0.0015), ev.clientX - box.left, ev.clientY - box.top);
    }, { passive: false });
    canvas.tabIndex = 0;
    canvas.addEventListener('keydown', (ev) => {
      const step = 60;
      const moves = { ArrowLeft: [step, 0], ArrowRight: [-step, 0], ArrowUp: [0, step], ArrowDown: [0, -step] };
      if (moves[ev.key]) { view.ox += moves[ev.key][0]; view.oy += moves[ev.key][1]; redraw(); }
      else if (ev.key === '+' || ev.key === '=') zoom(1.25, view.w / 2, view.h / 2);
      else if (ev.key === '-') zoom(0.8, view.w / 2, view.h / 2);
      else return;
      ev.preventDefault();
    });
    $('zoom-in').addEventListener('click', () => zoom(1.25, view.w / 2, view.h / 2));
    $('zoom-out').addEventListener('click', () => zoom(0.8, view.w / 2, view.h / 2));
    $('zoom-fit').addEventListener('click', fit);
    $('groups-fold').hidden = !G.groupNames.length;
    $('groups-fold').disabled = true;
    $('groups-fold').addEventListener('click', foldGroups);
    new ResizeObserver(() => { resize(); redraw(); }).observe(canvas);
  }

  // ---- the state panel ------------------------------------------------------------------------
  let shown = -1;
  function open(n) {
    location.hash = 's' + n;
  }
  SC.open = open;
  function fromHash() {
    const match = /^#s(\d+)$/.exec(location.hash);
    const n = match ? Number(match[1]) : -1;
    if (n >= 0 && n < G.n) show(n);
    else close();
  }
  function close() {
    $('panel').hidden = true;
    shown = selected = -1;
    markRows(-1);
    stopPlaying();
    redraw();
  }
  function show(n) {
    shown = selected = n;
    markRows(n);
    const panel = $('panel');
    panel.hidden = false;
    centreOn(n);
    redraw();
    panel.setAttribute('aria-busy', 'true');
    $('s-title').textContent = nameOf(n);
    stateData(n).then((d) => stateStyles(d).then((styles) => {
      if (shown !== n) return;
      fill(n, d, styles);
      panel.removeAttribute('aria-busy');
    })).catch((err) => {
      $('s-title').textContent = String(err.message);
    });
  }
  function fill(n, d, styles) {
    $('s-title').textContent = d.label || nameOf(n);
    const url = $('s-url');
    url.replaceChildren();
    const href = webUrl(d.url);
    const link = el(href ? 'a' : 'span', d.url || '');
    if (href) {
      link.setAttribute('href', href);
      link.setAttribute('target', '_blank');
      link.setAttribute('rel', 'noopener noreferrer');
    }
    url.appendChild(link);

    const facts = $('s-facts');
    facts.replaceChildren();
    const fact = (name, value) => {
      if (value === undefined || value === null || value === '') return;
      facts.append(el('dt', name), el('dd', value));
    };
    fact('title', d.title);
    fact('id', d.id);
    fact('depth', d.depth);
    fact('group', G.group[n] >= 0 ? G.groupNames[G.group[n]] + ' (' + G.members[G.group[n]].length + ' ' + G.groupUnits[G.group[n]] + ')' : null);
    fact('HTTP status', d.status);
    if (typeof d.found_at === 'number') fact('found after', d.found_at.toFixed(2) + ' s');
    fact('earlier ids', Array.isArray(d.aliases) ? d.aliases.join(', ') : null);
    fact('unreachable', d.unreachable_reason || (d.unreachable ? 'yes' : null));

    const badges = $('s-badges');
    badges.replaceChildren();
    const badge = (on, text, bad) => { if (on) badges.appendChild(el('span', text, bad ? 'badge bad' : 'badge')); };
    badge(d.kind === 'external', 'out of scope');
    badge(d.kind === 'document', 'document (a download)');
    badge(d.skipped, 'not archived: ' + d.skipped);
    badge(d.failed, 'download failed: ' + d.failed, true);
    badge(d.truncated, 'DOM cut (too large)', true);
    badge(d.settle_timed_out, 'never settled', true);
    badge(d.after_dangerous, 'after a dangerous action');
    badge(d.unreachable, 'unreachable', true);
    const flags = G.flags[n];
    if (flags & NEW) badges.appendChild(el('span', 'new since the earlier crawl', 'badge new'));
    if (flags & CHANGED) badges.appendChild(el('span', 'changed since the earlier crawl', 'badge changed'));

    picture(n, d);
    changeOf(n, d);

    const failures = Array.isArray(d.failures) ? d.failures : [];
    $('s-failures-box').hidden = !failures.length;
    $('s-failures').replaceChildren(...failures.map((f) =>
      el('li', [f.event, f.name, '\u2192', f.error].filter(Boolean).join(' '))));

    transitions($('s-in'), $('s-in-head'), 'Reached by', d.in, d.in_count, 's', 'from');
    transitions($('s-out'), $('s-out-head'), 'Actions', d.out, d.out_count, 't', 'to');
    viewer(n, d, styles);
  }
  // The state's picture: its screenshot, else its thumbnail; with neither, nothing (the
  // snapshot below shows the state), and an out-of-scope node has its URL above. An image
  // that fails to load is taken away: the panel never shows a broken one.
  function picture(n, d) {
    const box = $('s-picture');
    box.replaceChildren();
    // d.shot: the screenshot's format; d.shot_url and d.thumbnail: the files' URLs (the crawl's
    // own states/ files, or the report's shots/)
    const format = SHOT_FORMATS.includes(d.shot) && d.shot_url ? d.shot : null;
    const src = format ? String(d.shot_url) : d.thumbnail ? String(d.thumbnail) : null;
    if (!src) return;
    const img = el('img');
    img.id = 's-shot';
    img.alt = format ? 'Screenshot of the state' : 'Thumbnail of the state';
    img.addEventListener('error', () => box.replaceChildren());
    img.setAttribute('src', src);
    box.append(img, el('figcaption', format ? 'screenshot' : 'thumbnail'));
  }
  // A changed state: the earlier crawl's picture beside this one's, and the text diff.
  function changeOf(n, d) {
    const c = d.change && typeof d.change === 'object' ? d.change : null;
    $('s-change-box').hidden = !c;
    const pictures = $('s-pictures');
    pictures.replaceChildren();
    if (!c) return;
    const alike = typeof c.similarity === 'number' ? ' (' + Math.round(c.similarity * 100) + ' % alike' + (c.minor ? ', minor' : '') + ')' : '';
    $('s-change-head').textContent = 'Changed since the earlier crawl' + alike;
    const now = d.thumbnail ? String(d.thumbnail) : $('s-shot') && $('s-shot').getAttribute('src');
    const sides = [[BEFORE_FORMATS.includes(c.before) ? 'shots/' + Number(n) + '.before.' + c.before : null, 'before'],
      [now || null, 'now']];
    for (const [src, caption] of sides) {
      const figure = el('figure');
      if (src) {
        const img = el('img');
        img.alt = caption;
        img.addEventListener('error', () => img.remove());
        img.setAttribute('src', src);
        figure.appendChild(img);
      }
      figure.appendChild(el('figcaption', src ? caption : caption + ': no picture'));
      pictures.appendChild(figure);
    }
    $('s-diff').textContent = String(c.diff || '(the text is the same: the markup changed)');
  }
  function notes(t) {
    const out = [];
    if (t.kind) out.push(t.kind);
    if (t.inferred) out.push('inferred (not fired)');
    if (t.download) out.push('download');
    if (t.out_of_scope) out.push('out of scope');
    if (typeof t.settle_ms === 'number') out.push('settled in ' + t.settle_ms + ' ms');
    if (t.settle_timed_out) out.push('never settled');
    if (t.hover) out.push('after hovering ' + t.hover);
    for (const dlg of Array.isArray(t.dialogs) ? t.dialogs : []) out.push(dlg.type + ': \u201c' + clip(dlg.message, 200) + '\u201d');
    for (const url of Array.isArray(t.popups) ? t.popups : []) out.push('popup ' + url);
    if (t.navigated) out.push('navigated to ' + t.navigated);
    for (const url of Array.isArray(t.blocked) ? t.blocked : []) out.push('blocked ' + url);
    return out;
  }
  function transitions(table, head, label, list, count, side, word) {
    list = Array.isArray(list) ? list : [];
    head.textContent = label + ' (' + count + (list.length < count ? ', ' + list.length + ' listed' : '') + ')';
    const header = el('tr');
    for (const name of [word, 'event', 'name', 'status', 'action', 'notes']) header.appendChild(el('th', name));
    const rows = [header];
    for (const t of list) {
      const other = t[side];
      const row = el('tr');
      const cell = el('td');
      if (Number.isInteger(other) && other >= 0 && other < G.n) {
        const button = el('button', other === t.s && other === t.t ? '(itself)' : clip(nameOf(other), 60));
        button.setAttribute('type', 'button');
        button.title = G.urls[other];
        button.addEventListener('click', () => open(other));
        cell.appendChild(button);
      }
      row.append(cell, ...[t.event, t.name, t.status, t.action].map((v) => breakable('td', v)));
      const extra = el('td');
      for (const line of notes(t)) extra.appendChild(breakable('div', line));
      row.appendChild(extra);
      rows.push(row);
    }
    table.replaceChildren(...rows);
  }

  // ---- the DOM snapshot and the replay of its frames --------------------------------------------
  const parser = new DOMParser();
  const REMOVED = 'script, base, link, meta, object, embed, applet, frame, frameset, portal, noscript, animate, set';
  const URL_ATTRS = new Set(['src', 'srcset', 'action', 'formaction', 'poster', 'background', 'data', 'ping',
    'codebase', 'manifest', 'lowsrc', 'dynsrc', 'longdesc', 'cite', 'archive', 'profile', 'icon',
    'imagesrcset', 'imagesizes', 'attributionsrc']);
  let tab = 'dom';
  let replay = null;  // {n, parentHtml, frames, pos, timer, notes}

  function parse(html) {
    return parser.parseFromString(renameHandlers(String(html)), 'text/html');
  }
  // Event-handler attributes renamed data-sc-on* in the markup before it is parsed: the inert
  // document would never run them, but Chromium checks them against this page's policy as it
  // parses and logs each one it refuses. A scan of serialized HTML: quoted attribute values,
  // comments and raw-text elements are stepped over. What it misses is still refused.
  const RAW_TEXT = new Set(['script', 'style', 'xmp', 'iframe', 'noembed', 'noframes', 'noscript', 'plaintext']);
  function renameHandlers(html) {
    const out = [];
    let i = 0, copied = 0;
    const skipTo = (token) => {
      const end = html.indexOf(token, i);
      i = end < 0 ? html.length : end + token.length;
    };
    while ((i = html.indexOf('<', i)) >= 0) {
      if (html.startsWith('<!--', i)) { skipTo('-->'); continue; }
      if (!/[a-zA-Z]/.test(html[i + 1] || '')) { i++; continue; }
      const name = /^[^\s/>]+/.exec(html.slice(i + 1, i + 64))[0].toLowerCase();
      i += 1 + name.length;
      for (;;) {
        while (i < html.length && /[\s/]/.test(html[i])) i++;
        if (i >= html.length || html[i] === '>') { i++; break; }
        const start = i;
        while (i < html.length && !/[\s=>/]/.test(html[i])) i++;
        if (/^on/i.test(html.slice(start, start + 2))) {
          out.push(html.slice(copied, start), 'data-sc-');
          copied = start;
        }
        while (i < html.length && /\s/.test(html[i])) i++;
        if (html[i] !== '=') continue;
        i++;
        while (i < html.length && /\s/.test(html[i])) i++;
        if (html[i] === '"' || html[i] === "'") { const quote = html[i++]; skipTo(quote); }
        else while (i < html.length && !/[\s>]/.test(html[i])) i++;
      }
      if (RAW_TEXT.has(name)) {
        const close = new RegExp('</' + name, 'ig');  // a name from RAW_TEXT, no metacharacters
        close.lastIndex = i;
        i = close.exec(html) ? close.lastIndex : html.length;
      }
    }
    out.push(html.slice(copied));
    return out.join('');
  }
  // A url() keeps a safe data: URL, or becomes that of the archived asset of its URL; any
  // other url(), image-set() or @import is blocked. One pass: what it writes is not rescanned.
  const CSS_FETCH = /url\s*\(\s*(?:"([^"]*)"|'([^']*)'|([^)"'\s]*))\s*\)|url\s*\(|image-set\s*\(|@import/gi;
  function defuseCss(text, styles) {
    return text.replace(/\\/g, '').replace(CSS_FETCH, (all, a, b, c) => {
      const ref = a !== undefined ? a : b !== undefined ? b : c;
      const data = ref === undefined ? null : inlined(ref, styles);
      return data ? 'url("' + data + '")' : 'blocked(';
    });
  }
  function archived(ref, styles) {  // the asset of a URL a snapshot refers to, or undefined
    if (!styles) return undefined;
    try {
      return styles.urls.get(new URL(String(ref).trim(), styles.base || undefined).href);
    } catch (e) {
      return undefined;
    }
  }
  function inlined(ref, styles) {  // a safe data: URL for a reference, or null
    const value = String(ref).trim();
    if (SAFE_DATA.test(value)) return value;
    const asset = archived(value, styles);
    return typeof asset === 'string' && SAFE_DATA.test(asset) ? asset : null;
  }
  function clean(root, depth, styles) {  // an inert document or fragment, without what could run or load
    const doc = root.ownerDocument || root;
    for (const link of root.querySelectorAll('link[href]')) {  // archived stylesheets, inline
      const css = archived(link.getAttribute('href'), styles);
      if (!/(^|\s)stylesheet(\s|$)/i.test(link.getAttribute('rel') || '') || typeof css !== 'string' || css.startsWith('data:')) continue;
      const style = doc.createElement('style');
      if (link.hasAttribute('media')) style.setAttribute('media', link.getAttribute('media'));
      style.textContent = css;
      link.replaceWith(style);
    }
    for (const node of root.querySelectorAll(REMOVED)) node.remove();
    for (const node of root.querySelectorAll('*')) {
      for (const attr of Array.from(node.attributes)) {
        const name = attr.name.toLowerCase();
        if (name === 'href' || name.endsWith(':href')) {
          node.removeAttribute(attr.name);
          node.setAttribute('data-sc-href', '');
        } else if (name === 'src' && node.localName === 'img') {
          const data = inlined(attr.value, styles);
          if (data && /^data:image\//i.test(data)) node.setAttribute('src', data);
          else node.removeAttribute(attr.name);
        } else if (name.startsWith('on') || URL_ATTRS.has(name)) {
          node.removeAttribute(attr.name);
        } else if (name === 'style') {
          node.setAttribute('style', defuseCss(attr.value, styles));
        }
      }
      if (node.localName === 'style') node.textContent = defuseCss(node.textContent, styles);
      if (node.localName === 'template' && node.content) clean(node.content, depth, styles);
      if (node.localName === 'iframe' && node.hasAttribute('srcdoc')) {
        if (depth < 3) node.setAttribute('srcdoc', serialize(parse(node.getAttribute('srcdoc')), depth + 1, styles));
        else node.removeAttribute('srcdoc');
      }
    }
  }
  function serialize(doc, depth, styles) {  // a cleaned copy with the inner policy, as HTML text
    const copy = doc.cloneNode(true);
    clean(copy, depth, styles);
    const head = copy.head || copy.documentElement.insertBefore(copy.createElement('head'), copy.documentElement.firstChild);
    const policy = copy.createElement('meta');
    policy.setAttribute('http-equiv', 'Content-Security-Policy');
    policy.setAttribute('content', INNER_POLICY);
    head.prepend(policy);
    const style = copy.createElement('style');
    style.textContent = MARK_CSS + (styles && styles.urls.size ? '' : LINK_CSS);
    head.appendChild(style);
    return '<!DOCTYPE html>' + copy.documentElement.outerHTML;
  }
  function display(doc) {
    $('dom').srcdoc = doc ? serialize(doc, 0, replay && replay.styles) : '';
  }

  function viewer(n, d, styles) {
    stopPlaying();
    replay = { n, d, styles, parentHtml: null, pos: 0, timer: 0, notes: null };
    setTab(tab);
  }
  function setTab(name) {
    tab = name;
    $('tab-dom').setAttribute('aria-selected', String(name === 'dom'));
    $('tab-frames').setAttribute('aria-selected', String(name === 'frames'));
    $('player').hidden = name !== 'frames';
    stopPlaying();
    if (!replay) return;
    if (name === 'dom') {
      display(typeof replay.d.html === 'string' ? parse(replay.d.html) : null);
      return;
    }
    const info = replay.d.replay;
    const cause = $('f-cause');
    $('f-list').replaceChildren();
    $('f-pos').textContent = '';
    for (const id of ['f-first', 'f-back', 'f-play', 'f-step']) $(id).disabled = true;
    if (!info || !Array.isArray(info.frames) || !info.frames.length) {
      cause.textContent = 'No frames: this state was reached by loading its URL, or the crawl kept no archive.';
      display(typeof replay.d.html === 'string' ? parse(replay.d.html) : null);
      return;
    }
    const action = info.action || {};
    cause.textContent = 'Firing ' + [action.event, action.name].filter(Boolean).join(' on ') +
      (Number.isInteger(info.parent) ? ' in \u201c' + clip(nameOf(info.parent), 80) + '\u201d' : '') +
      ' changed the DOM in ' + info.frames.length + ' frame' + (info.frames.length === 1 ? '' : 's') + '.';
    const current = replay;
    const parentHtml = Number.isInteger(info.parent) && info.parent >= 0 && info.parent < G.n
      ? stateData(info.parent).then((p) => (p && typeof p.html === 'string' ? p.html : null))
      : Promise.resolve(null);
    parentHtml.then((html) => {
      if (replay !== current || tab !== 'frames') return;
      if (html === null) {
        cause.textContent += ' The state before it has no snapshot to replay them on.';
        display(typeof current.d.html === 'string' ? parse(current.d.html) : null);
        return;
      }
      current.parentHtml = html;
      current.frames = info.frames.slice(0, 500);
      describeFrames(current);
      for (const id of ['f-first', 'f-back', 'f-play', 'f-step']) $(id).disabled = false;
      go(0);
    });
  }

  // Frames hold operations on node paths (childNodes indexes from the document; a shadow
  // root is its host's first child, a <template>): 'html' replaces a node's content, 'text'
  // sets a text node, 'attr' sets or removes an attribute.
  function pathNode(doc, path) {
    // The first index counts the live document's comments, which snapshots leave out: every
    // mutation happens under <html>, so it is taken to be the document element.
    if (!path.length) return doc;
    let node = doc.documentElement;
    for (const i of path.slice(1)) {
      const kids = node.localName === 'template' && node.content ? node.content.childNodes : node.childNodes;
      node = kids && kids[i];
      if (!node) return null;
    }
    return node;
  }
  function fragment(doc, markup) {
    const holder = parse('<template>' + markup + '</template>').querySelector('template');
    return doc.importNode(holder.content, true);
  }
  function apply(state, op) {  // the node changed, or null when the op does not fit the DOM
    if (!op || !Array.isArray(op.p)) return null;
    if (op.k === 'html' && op.p.length === 0) {
      state.doc = parse('<!DOCTYPE html>' + String(op.v === null || op.v === undefined ? '' : op.v));
      return state.doc.documentElement;
    }
    const node = pathNode(state.doc, op.p);
    if (!node) return null;
    try {
      if (op.k === 'html' && node.nodeType === 1) {
        const target = node.localName === 'template' && node.content ? node.content : node;
        target.replaceChildren(fragment(state.doc, String(op.v === null || op.v === undefined ? '' : op.v)));
        return node;
      }
      if (op.k === 'text' && (node.nodeType === 3 || node.nodeType === 8)) {
        node.data = String(op.v === null || op.v === undefined ? '' : op.v);
        return node;
      }
      if (op.k === 'attr' && node.nodeType === 1 && typeof op.n === 'string') {
        const name = /^on/i.test(op.n) ? 'data-sc-' + op.n : op.n;
        if (op.v === null || op.v === undefined) node.removeAttribute(name);
        else node.setAttribute(name, String(op.v));
        return node;
      }
    } catch (e) {
      return null;  // an attribute name the parser would never produce
    }
    return null;
  }
  function nodeName(node) {
    if (!node) return '(missing node)';
    if (node.nodeType === 9) return 'document';
    if (node.nodeType !== 1) return (node.parentElement ? nodeName(node.parentElement) + ' > ' : '') + '#text';
    const names = [];
    for (let e = node; e && e.nodeType === 1 && names.length < 4; e = e.parentElement) {
      names.unshift(e.localName + (e.id ? '#' + clip(e.id, 30) : ''));
    }
    return names.join(' > ');
  }
  function describe(op, node) {
    const value = op.v === null || op.v === undefined ? null : String(op.v);
    if (op.k === 'html') return 'content of ' + nodeName(node) + ' replaced (' + (value || '').length + ' characters)';
    if (op.k === 'text') return 'text of ' + nodeName(node) + ' = \u201c' + clip(value, 120) + '\u201d';
    if (value === null) return nodeName(node) + ' attribute ' + op.n + ' removed';
    return nodeName(node) + ' [' + op.n + '] = \u201c' + clip(value, 120) + '\u201d';
  }
  function describeFrames(current) {
    const state = { doc: parse(current.parentHtml) };
    const list = $('f-list');
    const items = [el('li', 'before the action: the state it was fired in')];
    for (const frame of current.frames) {
      const ops = Array.isArray(frame.ops) ? frame.ops : [];
      const item = el('li', '+' + Number(frame.t || 0) + ' ms, ' + ops.length + ' change' + (ops.length === 1 ? '' : 's'));
      const lines = el('ul');
      for (const op of ops) {
        const before = op && Array.isArray(op.p) ? pathNode(state.doc, op.p) : null;
        const text = describe(op || {}, before);
        lines.appendChild(el('li', apply(state, op) ? text : text + ' (not applied: no such node)'));
      }
      item.appendChild(lines);
      items.push(item);
    }
    list.replaceChildren(...items);
    items.forEach((item, i) => item.addEventListener('click', () => { stopPlaying(); go(i); }));
  }
  function go(pos) {  // show the DOM after the first ``pos`` frames
    const current = replay;
    const total = current.frames.length;
    current.pos = Math.max(0, Math.min(pos, total));
    const state = { doc: parse(current.parentHtml) };
    let changed = [];
    for (let i = 0; i < current.pos; i++) {
      changed = [];
      for (const op of current.frames[i].ops || []) {
        const node = apply(state, op);
        if (node) changed.push(node.nodeType === 1 ? node : node.parentElement);
      }
    }
    for (const node of changed) if (node) node.setAttribute('data-sc-changed', '');
    if (current.pos === 0) {  // before the action: the element it fired, outlined
      const fired = firedElement(state.doc, current.d.replay && current.d.replay.action);
      if (fired) fired.setAttribute('data-sc-fired', '');
    }
    display(state.doc);
    const frame = current.frames[current.pos - 1];
    $('f-pos').textContent = 'frame ' + current.pos + ' of ' + total + (frame ? ' (+' + Number(frame.t || 0) + ' ms)' : ' (before the action)');
    Array.from($('f-list').children).forEach((item, i) => {
      item.classList.toggle('current', i === current.pos);
      item.classList.toggle('done', i < current.pos);
    });
    const item = $('f-list').children[current.pos];
    if (item) item.scrollIntoView({ block: 'nearest' });
  }
  // The element an action names: its locator is a CSS selector (the part of its name before
  // the label, a JSON string), unless it reaches into a shadow root (>>>) or a frame (|>).
  function firedElement(doc, action) {
    const name = String((action && action.name) || '');
    let locator = name;
    for (let i = name.indexOf(' "'); i >= 0; i = name.indexOf(' "', i + 1)) {
      try {
        if (typeof JSON.parse(name.slice(i + 1)) === 'string') { locator = name.slice(0, i); break; }
      } catch (e) { /* not the label yet */ }
    }
    if (!locator || locator.includes('>>>') || locator.includes('|>')) return null;
    try {
      return doc.querySelector(locator);
    } catch (e) {
      return null;
    }
  }
  function stopPlaying() {
    if (replay && replay.timer) { clearInterval(replay.timer); replay.timer = 0; }
    $('f-play').textContent = '\u25B6 Play';
  }
  function play() {
    if (replay.timer) { stopPlaying(); return; }
    if (replay.pos >= replay.frames.length) go(0);
    $('f-play').textContent = '\u275A\u275A Pause';
    replay.timer = setInterval(() => {
      if (replay.pos >= replay.frames.length) stopPlaying();
      else go(replay.pos + 1);
    }, 700);
  }
  function wirePanel() {
    $('close').addEventListener('click', () => { history.replaceState(null, '', location.pathname); close(); });
    $('tab-dom').addEventListener('click', () => setTab('dom'));
    $('tab-frames').addEventListener('click', () => setTab('frames'));
    $('f-first').addEventListener('click', () => { stopPlaying(); go(0); });
    $('f-back').addEventListener('click', () => { stopPlaying(); go(replay.pos - 1); });
    $('f-step').addEventListener('click', () => { stopPlaying(); go(replay.pos + 1); });
    $('f-play').addEventListener('click', play);
    window.addEventListener('hashchange', fromHash);
  }

  // ---- the tree and list views ----------------------------------------------------------------
  // The tree: each state under the one whose transition first reached it, rows made as their
  // parents open (a 10,000-state crawl shows its roots at once). The list: every state sorted by
  // depth or by time found, only the rows in sight in the page.
  let current = 'graph';
  let children = null;  // node number -> its children in the tree, by time found
  function foundAt(n) { return typeof G.found[n] === 'number' ? G.found[n] : Infinity; }
  function byFound(a, b) { return foundAt(a) - foundAt(b) || a - b; }
  function byDepth(a, b) { return G.depth[a] - G.depth[b] || byFound(a, b); }
  // A document or a page out of scope is listed under the layer below the state that led to
  // it, named by its kind: only a state has a depth.
  function kindOf(n) { return G.flags[n] & DOCUMENT ? 'document' : G.flags[n] & EXTERNAL ? 'out of scope' : ''; }
  function stateButton(n, cls) {
    const button = el('button', null, cls);
    button.setAttribute('type', 'button');
    button.setAttribute('data-n', String(n));
    const mark = G.flags[n] & NEW ? 'new \u00b7 ' : G.flags[n] & CHANGED ? 'changed \u00b7 ' : '';
    button.append(el('span', mark + clip(nameOf(n), 90), 'name'), el('span', clip(G.urls[n], 120), 'url'));
    button.title = G.urls[n];
    button.style.color = (G.flags[n] & (FAILED | UNREACHABLE | EXTERNAL)) ? colour(n) : '';
    button.classList.toggle('current', n === shown);
    button.addEventListener('click', () => open(n));
    return button;
  }
  function markRows(n) {  // the open state's rows in the tree and the list
    for (const row of document.querySelectorAll('#tree [data-n], #list [data-n]')) row.classList.toggle('current', row.getAttribute('data-n') === String(n));
  }
  function treeRow(n) {
    const item = el('li');
    const kids = children.get(n) || [];
    const toggle = el('button', kids.length ? '\u25B8 ' + kids.length : '', 'toggle');
    toggle.setAttribute('type', 'button');
    toggle.disabled = !kids.length;
    toggle.setAttribute('aria-expanded', 'false');
    toggle.addEventListener('click', () => unfold(item, n));
    item.append(toggle, stateButton(n, 'state'));
    return item;
  }
  function unfold(item, n) {
    const toggle = item.firstChild;
    const open = toggle.getAttribute('aria-expanded') === 'true';
    const kids = children.get(n) || [];
    toggle.setAttribute('aria-expanded', String(!open));
    toggle.textContent = (open ? '\u25B8 ' : '\u25BE ') + kids.length;
    if (open) { item.lastChild.remove(); return; }
    const list = el('ul');
    list.replaceChildren(...kids.map(treeRow));
    item.appendChild(list);
  }
  function showTree() {
    if (children) return;
    children = new Map();
    const roots = [];
    for (let n = 0; n < G.n; n++) {
      const p = G.parent[n];
      if (p < 0) { roots.push(n); continue; }
      if (!children.has(p)) children.set(p, []);
      children.get(p).push(n);
    }
    for (const kids of children.values()) kids.sort(byFound);
    roots.sort(byDepth);
    const items = roots.map(treeRow);
    $('tree-root').replaceChildren(...items);
    items.slice(0, 1).forEach((item, i) => { if (children.has(roots[i])) unfold(item, roots[i]); });
  }
  const listed = { order: null, by: '', drawn: '' };
  function showList() {
    const by = $('list-sort').value;
    if (listed.by !== by) {
      listed.by = by;
      listed.order = Int32Array.from({ length: G.n }, (_, n) => n).sort(by === 'found' ? byFound : byDepth);
      listed.drawn = '';
      $('list-space').style.height = (G.n * ROW) + 'px';
      const c = G.meta.counts || {};
      const others = [[c.documents, ' documents'], [c.out_of_scope, ' out of scope']].filter(([k]) => k).map(([k, w]) => k + w);
      $('list-count').textContent = [c.states + ' states', ...others].join(', ') + ' by ' + (by === 'found' ? 'time found' : 'depth');
    }
    const box = $('list-rows');
    const first = Math.max(0, Math.floor(box.scrollTop / ROW) - 10);
    const last = Math.min(G.n, Math.ceil((box.scrollTop + box.clientHeight) / ROW) + 10);
    if (listed.drawn === first + ':' + last) return;
    listed.drawn = first + ':' + last;
    const rows = [];
    for (let i = first; i < last; i++) {
      const n = listed.order[i];
      const row = stateButton(n, 'row');
      row.style.top = (i * ROW) + 'px';
      const time = foundAt(n) < Infinity ? foundAt(n).toFixed(1) + ' s' : '';
      row.prepend(el('span', kindOf(n) || 'depth ' + G.depth[n], 'depth'), el('span', time, 'time'));
      rows.push(row);
    }
    $('list-space').replaceChildren(...rows);
  }
  function setView(name) {
    current = name;
    for (const v of ['graph', 'tree', 'list']) $('view-' + v).setAttribute('aria-selected', String(v === name));
    $('tree').hidden = name !== 'tree';
    $('list').hidden = name !== 'list';
    if (name === 'tree') showTree();
    if (name === 'list') showList();
    if (name === 'graph') redraw();
  }
  SC.view = setView;
  function wireViews() {
    for (const v of ['graph', 'tree', 'list']) $('view-' + v).addEventListener('click', () => setView(v));
    $('list-sort').addEventListener('change', showList);
    $('list-rows').addEventListener('scroll', () => { if (current === 'list') showList(); }, { passive: true });
    new ResizeObserver(() => { if (current === 'list') showList(); }).observe($('list-rows'));
  }

  // ---- search ---------------------------------------------------------------------------------
  let asked = 0;
  function shardOf(word) {
    const chars = Array.from(word);
    return (chars[0].codePointAt(0) * 31 + chars[1].codePointAt(0)) % G.meta.shards;
  }
  function search(query) {
    const ticket = ++asked;
    const words = (query.toLowerCase().match(/[\p{L}\p{N}_]+/gu) || []).filter((w) => Array.from(w).length >= 2);
    if (!words.length) { showHits(null, query); return Promise.resolve(); }
    const needed = [...new Set(words.map(shardOf))];
    return Promise.all(needed.map((k) => load('data/t/' + k + '.js'))).then(() => {
      if (ticket !== asked) return;
      let result = null;
      for (const word of words) {
        const found = new Set();
        for (const [term, gaps] of shards.get(shardOf(word)) || []) {
          if (!term.startsWith(word)) continue;
          let n = 0;
          for (const gap of gaps) { n += gap; found.add(n); }
        }
        result = result === null ? found : new Set([...result].filter((n) => found.has(n)));
      }
      showHits(result, query);
    });
  }
  SC.search = search;
  function showHits(result, query) {
    hits = result;
    document.querySelector('#legend .key.found').hidden = result === null;
    const list = $('results');
    const count = $('hits');
    redraw();
    if (result === null) {
      list.hidden = true;
      count.textContent = query.trim() ? 'type 2 letters or more' : '';
      return;
    }
    count.textContent = result.size + (result.size === 1 ? ' state' : ' states');
    const items = [];
    for (const n of [...result].sort((a, b) => G.depth[a] - G.depth[b] || a - b).slice(0, 200)) {
      const button = el('button');
      button.setAttribute('type', 'button');
      const mark = G.flags[n] & NEW ? 'new \u00b7 ' : G.flags[n] & CHANGED ? 'changed \u00b7 ' : '';
      button.append(el('div', mark + clip(nameOf(n), 90)), el('div', clip(G.urls[n], 120), 'url'));
      button.addEventListener('click', () => open(n));
      const item = el('li');
      item.appendChild(button);
      items.push(item);
    }
    list.replaceChildren(...items);
    list.hidden = !items.length;
  }
  function wireSearch() {
    const box = $('q');
    let timer = 0;
    box.addEventListener('input', () => {
      clearTimeout(timer);
      timer = setTimeout(() => search(box.value), 120);
    });
    box.addEventListener('keydown', (ev) => {
      if (ev.key === 'Escape') { box.value = ''; search(''); }
    });
  }

  // Against an earlier crawl: the counts for the summary, the legend's keys, the deleted list.
  function compared() {
    const c = G.meta.comparison;
    if (!c || typeof c !== 'object') return [];
    for (const key of document.querySelectorAll('.key.compared')) key.hidden = false;
    const deleted = Array.isArray(c.deleted) ? c.deleted : [];
    $('deleted').hidden = !deleted.length;
    $('deleted-head').textContent = deleted.length + ' deleted state' + (deleted.length === 1 ? '' : 's');
    $('deleted-list').replaceChildren(...deleted.map((s) => {
      const item = el('li', clip(s.label || s.title || s.id, 90));
      item.appendChild(el('div', clip(s.url, 120) + (s.reason ? ' \u2014 ' + s.reason : ''), 'url'));
      return item;
    }));
    return [(c.new || 0) + ' new', (c.changed || 0) + ' changed', deleted.length + ' deleted against ' + clip(c.against, 80)];
  }
  function start() {
    const stats = G.meta.stats || {};
    const start = G.meta.start_url ? String(G.meta.start_url) : '';
    document.title = 'statecrawl report: ' + clip(start, 100);
    $('summary').textContent = [
      String(G.meta.summary),
      (stats.failures || 0) + ' failures',
      ...(G.meta.coverage ? [String(G.meta.coverage)] : []),
      ...(G.meta.records ? [String(G.meta.records)] : []),
      ...(G.meta.guard ? ['guard: ' + String(G.meta.guard)] : []),
      ...(Array.isArray(G.meta.outages) ? G.meta.outages.map(String) : []),
      ...compared(),
      start,
    ].join(' \u00b7 ');
    for (const key of document.querySelectorAll('#legend .key')) key.style.setProperty('--c', COLOURS[key.classList[1]]);
    wireCanvas();
    wirePanel();
    wireSearch();
    wireViews();
    resize();
    layout();
    fit();
    draw();
    SC.readyAt = performance.now();
    document.documentElement.setAttribute('data-ready', '');
    if (location.hash) fromHash();
  }
})();
