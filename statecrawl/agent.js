// statecrawl page agent: injected before any page script runs.
// It records listeners, pending network and timers, DOM-mutation frames and volatile nodes,
// and answers "fire this action, wait until settled, return the snapshot" in one call.
// The crawler prepends `const CONFIG = {...};` (scope, timing) to this source.
(() => {
  'use strict';
  if (window.__statecrawl) return;

  const now = () => performance.now();
  const nativeSetTimeout = window.setTimeout.bind(window);
  const nativeClearTimeout = window.clearTimeout.bind(window);
  const rAF = window.requestAnimationFrame.bind(window);

  const POINTER_EVENTS = {
    click: 'click', mousedown: 'click', mouseup: 'click', pointerdown: 'click', pointerup: 'click',
    touchstart: 'click', touchend: 'click', dblclick: 'dblclick', mouseover: 'mouseover',
    mouseenter: 'mouseover', pointerover: 'mouseover', pointerenter: 'mouseover',
    change: 'change', input: 'input', submit: 'submit', keydown: 'keydown:Enter',
    keyup: 'keydown:Enter', keypress: 'keydown:Enter', scroll: 'scroll', wheel: 'scroll',
    beforeunload: null,
  };
  const INTERACTIVE_ROLES = new Set([
    'button', 'link', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'option',
    'checkbox', 'radio', 'switch', 'treeitem', 'row', 'gridcell',
  ]);
  // Mutations seen while the page is idle before a node counts as volatile; what intervals
  // and long callback chains change is volatile at once.
  const VOLATILE_AFTER = 2;
  const CHAIN = 3;  // a timer or frame callback this many generations deep runs by itself

  // ---- scope -------------------------------------------------------------------------------
  const scopeInclude = (CONFIG.include || []).map(([source, flags]) => new RegExp(source, flags));
  const scopeExclude = (CONFIG.exclude || []).map(([source, flags]) => new RegExp(source, flags));
  const scopeOrigins = new Set(CONFIG.origins || []);
  function inScope(url) {
    let parsed;
    try { parsed = new URL(url, location.href); } catch (e) { return false; }
    if (!/^https?:$/.test(parsed.protocol)) return false;
    const href = parsed.href;
    if (scopeExclude.some((r) => r.test(href))) return false;  // as Python's re.search
    if (scopeInclude.length) return scopeInclude.some((r) => r.test(href));
    return scopeOrigins.has(parsed.origin);
  }

  // ---- small helpers ---------------------------------------------------------------------------
  function hash(text) {  // FNV-1a, 32 bits, as 8 hex digits: a handler's identity
    let h = 0x811c9dc5;
    for (let i = 0; i < text.length; i++) {
      h ^= text.charCodeAt(i);
      h = Math.imul(h, 0x01000193);
    }
    return (h >>> 0).toString(16).padStart(8, '0');
  }
  const fnIds = new WeakMap();
  function handlerId(fn) {
    if (!fn) return 'none';
    if (typeof fn !== 'function') return 'object';
    let id = fnIds.get(fn);
    if (!id) {
      let src = '';
      try { src = Function.prototype.toString.call(fn); } catch (e) { src = String(fn.name); }
      id = hash(src);
      fnIds.set(fn, id);
    }
    return id;
  }
  function collapse(text, max) {
    const t = (text || '').replace(/\s+/g, ' ').trim();
    return t.length > max ? t.slice(0, max) : t;
  }

  // ---- listeners ---------------------------------------------------------------------------------
  const listeners = new WeakMap();  // target -> Map(type -> Map(handlerId -> count))
  const listening = new Set();      // targets with pointer listeners (for delegation); weakly pruned
  const nativeAdd = EventTarget.prototype.addEventListener;
  const nativeRemove = EventTarget.prototype.removeEventListener;
  EventTarget.prototype.addEventListener = function (type, fn, options) {
    try {
      if (fn && type in POINTER_EVENTS) {
        let byType = listeners.get(this);
        if (!byType) { byType = new Map(); listeners.set(this, byType); }
        let ids = byType.get(type);
        if (!ids) { ids = new Map(); byType.set(type, ids); }
        const id = handlerId(fn);
        ids.set(id, (ids.get(id) || 0) + 1);
        listening.add(this);
      }
    } catch (e) { /* never break the page */ }
    return nativeAdd.call(this, type, fn, options);
  };
  EventTarget.prototype.removeEventListener = function (type, fn, options) {
    try {
      const ids = listeners.get(this)?.get(type);
      const id = fn && handlerId(fn);
      if (ids && ids.has(id)) {
        const left = ids.get(id) - 1;
        if (left > 0) ids.set(id, left); else ids.delete(id);
        if (!ids.size) listeners.get(this).delete(type);
      }
    } catch (e) { /* never break the page */ }
    return nativeRemove.call(this, type, fn, options);
  };

  function ownEvents(el) {  // Map(event -> [handler ids]) for listeners, on* attributes and properties
    const events = new Map();
    const add = (type, id) => {
      const event = POINTER_EVENTS[type];
      if (!event) return;
      if (!events.has(event)) events.set(event, []);
      events.get(event).push(type + ':' + id);
    };
    const byType = listeners.get(el);
    if (byType) for (const [type, ids] of byType) for (const id of ids.keys()) add(type, id);
    for (const type of Object.keys(POINTER_EVENTS)) {
      const prop = el['on' + type];
      if (typeof prop === 'function') add(type, handlerId(prop));
      else if (el.hasAttribute && el.hasAttribute('on' + type)) add(type, hash(el.getAttribute('on' + type)));
    }
    return events;
  }

  // ---- pending network and timers -------------------------------------------------------------
  let pendingNet = 0;
  let pendingTimers = 0;
  let lastActivity = now();
  const touch = () => { lastActivity = now(); };
  const netDone = () => { pendingNet = Math.max(0, pendingNet - 1); touch(); };

  const xhrSend = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.send = function (...args) {
    pendingNet++;
    touch();
    nativeAdd.call(this, 'loadend', netDone, { once: true });
    try { return xhrSend.apply(this, args); } catch (e) { netDone(); throw e; }
  };
  if (window.fetch) {
    const nativeFetch = window.fetch;
    window.fetch = function (...args) {
      pendingNet++;
      touch();
      let promise;
      try { promise = nativeFetch.apply(this, args); } catch (e) { netDone(); throw e; }
      return promise.then((r) => { netDone(); return r; }, (e) => { netDone(); throw e; });
    };
    // Reading a response body is network work too: the page renders once it has the body.
    for (const method of ['json', 'text', 'arrayBuffer', 'blob', 'formData']) {
      const read = Response.prototype[method];
      if (!read) continue;
      Response.prototype[method] = function (...args) {
        pendingNet++;
        touch();
        return read.apply(this, args).then((v) => { netDone(); return v; }, (e) => { netDone(); throw e; });
      };
    }
  }

  // Short timers count as pending work, but only a few generations deep, so a polling loop
  // (a timer that re-arms itself forever) cannot keep the page from settling.
  const timers = new Map();  // id -> true while pending
  let timerGeneration = 0;
  window.setTimeout = function (fn, delay, ...rest) {
    const ms = Number(delay) || 0;
    const generation = timerGeneration + 1;
    const counted = typeof fn === 'function' && ms <= CONFIG.timerMs && generation <= CHAIN;
    let id;
    const wrapped = typeof fn !== 'function' ? fn : function (...a) {
      if (counted && timers.delete(id)) { pendingTimers--; touch(); }
      const saved = timerGeneration;
      timerGeneration = generation;
      try {
        return generation > CHAIN ? spontaneously(fn, this, a) : fn.apply(this, a);
      } finally { timerGeneration = saved; }
    };
    id = nativeSetTimeout(wrapped, delay, ...rest);
    if (counted) { timers.set(id, true); pendingTimers++; }
    return id;
  };
  window.clearTimeout = function (id) {
    if (timers.delete(id)) pendingTimers--;
    return nativeClearTimeout(id);
  };
  // What intervals and long callback chains change, changes with no user action: volatile.
  const nativeSetInterval = window.setInterval.bind(window);
  window.setInterval = function (fn, delay, ...rest) {
    if (typeof fn !== 'function') return nativeSetInterval(fn, delay, ...rest);
    return nativeSetInterval(function (...a) { return spontaneously(fn, this, a); }, delay, ...rest);
  };
  // Animation frames a few generations deep are pending work too (a render on the next frame).
  let frameGeneration = 0;
  const pendingFrames = new Set();
  window.requestAnimationFrame = function (fn) {
    const generation = frameGeneration + 1;
    const counted = typeof fn === 'function' && generation <= CHAIN;
    const id = rAF((t) => {
      if (counted && pendingFrames.delete(id)) { pendingTimers--; touch(); }
      const saved = frameGeneration;
      frameGeneration = generation;
      try {
        return generation > CHAIN ? spontaneously(fn, window, [t]) : fn(t);
      } finally { frameGeneration = saved; }
    });
    if (counted) { pendingFrames.add(id); pendingTimers++; }
    return id;
  };
  const nativeCancelFrame = window.cancelAnimationFrame.bind(window);
  window.cancelAnimationFrame = function (id) {
    if (pendingFrames.delete(id)) pendingTimers--;
    return nativeCancelFrame(id);
  };

  // ---- intersection observers (lazy content) --------------------------------------------------
  let observedIntersections = 0;
  if (window.IntersectionObserver) {
    const observe = IntersectionObserver.prototype.observe;
    IntersectionObserver.prototype.observe = function (...args) {
      observedIntersections++;
      return observe.apply(this, args);
    };
  }

  // ---- dialogs and popups ----------------------------------------------------------------------
  const dialogs = [];
  const popups = [];
  // What a frame's page does is reported to the top page's agent, which the crawler reads.
  function note(kind, item) {
    let top = null;
    try { top = window.top !== window ? window.top.__statecrawl : null; } catch (e) { top = null; }
    if (top) top.note(kind, item);
    else (kind === 'dialog' ? dialogs : popups).push(item);
  }
  const accept = CONFIG.dialogs !== 'dismiss';
  window.alert = (message) => { note('dialog', { type: 'alert', message: String(message) }); };
  window.confirm = (message) => {
    note('dialog', { type: 'confirm', message: String(message) });
    return accept;
  };
  window.prompt = (message, value) => {
    note('dialog', { type: 'prompt', message: String(message) });
    return accept ? (value ?? '') : null;
  };
  window.open = (url) => {
    if (url) note('popup', new URL(String(url), location.href).href);
    return null;
  };
  // A link that would open another window is recorded instead (runs after the page's own
  // click handlers, so a handler that cancels the click wins).
  nativeAdd.call(window, 'click', (e) => {
    const a = e.target && e.target.closest && e.target.closest('a[href][target], area[href][target]');
    if (!a || e.defaultPrevented || /^(_self|_top|_parent)?$/i.test(a.target)) return;
    e.preventDefault();
    note('popup', a.href);
  });

  // ---- paths ------------------------------------------------------------------------------------
  // A volatile node is named by its nearest id-bearing ancestor and the tag.class chain below it,
  // so the name survives list insertions; statecrawl.models computes the same name in Python.
  function step(el) {
    const classes = Array.from(el.classList || []).sort();
    return el.localName + (classes.length ? '.' + classes.join('.') : '');
  }
  function anchoredPath(el) {
    const parts = [];
    for (let node = el; node && node.nodeType === 1; node = node.parentElement) {
      if (node.id) { parts.push('#' + node.id); break; }
      parts.push(step(node));
    }
    return parts.reverse().join('/');
  }
  function nodePath(node) {  // childNodes indexes from the document, for replaying frames
    const path = [];
    while (node && node.parentNode) {
      path.push(Array.prototype.indexOf.call(node.parentNode.childNodes, node));
      node = node.parentNode;
    }
    return path.reverse();
  }
  function locator(el) {
    const parts = [];
    for (let node = el; node && node.nodeType === 1; node = node.parentElement) {
      if (node.id && document.querySelectorAll('#' + CSS.escape(node.id)).length === 1) {
        parts.push('#' + CSS.escape(node.id));
        break;
      }
      if (node === document.documentElement) { parts.push('html'); break; }
      let index = 1;
      for (let sib = node.previousElementSibling; sib; sib = sib.previousElementSibling) {
        if (sib.localName === node.localName) index++;
      }
      parts.push(node.localName + ':nth-of-type(' + index + ')');
    }
    return parts.reverse().join(' > ');
  }

  // ---- mutations: frames while firing, volatility while idle ---------------------------------
  let phase = 'loading';  // loading | firing | idle | leaving
  let frames = null;
  let fireStart = 0;
  const volatileCounts = new Map();  // "path|kind" -> count
  const volatile = new Set();

  function learnVolatile(records, spontaneous) {
    const seen = new Set();
    for (const r of records) {
      let el = r.target.nodeType === 1 ? r.target : r.target.parentElement;
      if (!el || !el.isConnected) continue;
      const kind = r.type === 'attributes' ? '@' + r.attributeName : 'content';
      const id = anchoredPath(el) + '|' + kind;
      if (seen.has(id)) continue;
      seen.add(id);
      const count = (volatileCounts.get(id) || 0) + 1;
      volatileCounts.set(id, count);
      if (spontaneous || count >= VOLATILE_AFTER) volatile.add(id);
    }
  }
  function recordFrame(records) {
    const targets = new Map();  // node -> op
    for (const r of records) {
      const node = r.target;
      if (!node.isConnected) continue;
      if (r.type === 'childList') targets.set(node, { k: 'html' });
      else if (r.type === 'characterData') { if (!targets.has(node)) targets.set(node, { k: 'text' }); }
      else if (!targets.has(node) || targets.get(node).k === 'attr') {
        const op = targets.get(node) || { k: 'attr', names: new Set() };
        op.names.add(r.attributeName);
        targets.set(node, op);
      }
    }
    const ops = [];
    for (const [node, op] of targets) {
      let covered = false;
      for (let a = node.parentNode; a; a = a.parentNode) {
        const other = targets.get(a);
        if (other && other.k === 'html') { covered = true; break; }
      }
      if (covered) continue;
      const p = nodePath(node);
      if (op.k === 'html') {
        ops.push(node.nodeType === 9
          ? { p, k: 'html', v: document.documentElement.outerHTML }
          : { p, k: 'html', v: node.innerHTML });
      } else if (op.k === 'text') {
        ops.push({ p, k: 'text', v: node.data });
      } else {
        for (const name of op.names) ops.push({ p, k: 'attr', n: name, v: node.getAttribute(name) });
      }
    }
    ops.sort((a, b) => a.p.length - b.p.length);
    if (ops.length) frames.push({ t: Math.round(now() - fireStart), ops });
  }
  let knownVolatile = new Set();  // names the crawler learned, from this page or others
  function isVolatile(r) {
    if (!knownVolatile.size && !volatile.size) return false;
    const el = r.target.nodeType === 1 ? r.target : r.target.parentElement;
    if (!el) return false;
    const kind = r.type === 'attributes' ? '@' + r.attributeName : 'content';
    for (let node = el; node && node.nodeType === 1; node = node.parentElement) {
      const id = anchoredPath(node) + '|' + (node === el ? kind : 'content');
      if (knownVolatile.has(id) || volatile.has(id)) return true;
      if (node.id) break;
    }
    return false;
  }
  function onMutations(records, spontaneous) {
    if (!records.length) return;
    if (spontaneous || phase === 'idle') learnVolatile(records, spontaneous);
    // Mutations of known-volatile nodes (a ticking clock) do not keep the page from settling.
    if (!records.every(isVolatile)) touch();
    if (phase === 'firing' && frames) recordFrame(records);
  }
  function spontaneously(fn, self, args) {
    onMutations(observer.takeRecords(), false);
    try { return fn.apply(self, args); } finally { onMutations(observer.takeRecords(), true); }
  }
  const observer = new MutationObserver((records) => onMutations(records, false));
  observer.observe(document, {
    subtree: true, childList: true, attributes: true, characterData: true,
  });

  // ---- navigation ------------------------------------------------------------------------------
  let leavingTo = null;
  const blocked = [];
  let onLeave = null;
  // A form submission navigates in a task of its own, after the submit event: until that
  // navigation starts (or a second passes), the page is not settled.
  let submitting = 0;
  nativeAdd.call(window, 'submit', (e) => {
    queueMicrotask(() => {
      if (!e.defaultPrevented && (e.target.method || 'get') !== 'dialog') submitting = now();
    });
  });
  const nativeSubmit = HTMLFormElement.prototype.submit;
  HTMLFormElement.prototype.submit = function (...args) {
    submitting = now();
    return nativeSubmit.apply(this, args);
  };
  if (window.navigation) {
    navigation.addEventListener('navigate', (e) => {
      submitting = 0;
      const url = e.destination.url;
      if (e.destination.sameDocument) return;
      if (!inScope(url)) {
        blocked.push(url);
        if (e.cancelable) e.preventDefault();
        return;
      }
      leavingTo = { url, method: e.formData ? 'POST' : 'GET' };
      if (listeners.get(window)?.has('beforeunload') || typeof window.onbeforeunload === 'function') {
        dialogs.push({ type: 'beforeunload', message: '' });
      }
      phase = 'leaving';
      if (onLeave) onLeave();
    });
  }

  // ---- candidates ------------------------------------------------------------------------------
  function visible(el) {
    if (!el.isConnected) return false;
    if (el.checkVisibility && !el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) {
      return false;
    }
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  }
  function enabled(el) {
    if (el.disabled) return false;
    if (el.closest('fieldset[disabled]')) return false;
    return el.getAttribute('aria-disabled') !== 'true';
  }
  function label(el) {
    if (el.localName === 'form') {
      const button = el.querySelector('button:not([type]), button[type=submit], input[type=submit]');
      return collapse(el.getAttribute('aria-label') || el.getAttribute('name') || el.id
        || (button && (button.innerText || button.value)) || 'form', 80);
    }
    if (el.matches('textarea, select, input:not([type=button], [type=submit], [type=reset])')) {
      // A field is named by what it asks for, never by what has been typed into it.
      const names = fieldNames(el);
      return names.length ? collapse(names[0], 80) : el.localName;
    }
    const text = el.getAttribute('aria-label') || collapse(el.innerText || el.textContent, 80)
      || el.getAttribute('title') || el.getAttribute('alt') || el.value
      || el.getAttribute('placeholder') || el.getAttribute('name') || '';
    return collapse(String(text), 80);
  }
  function status(el, how) {
    const parts = [how, 'enabled'];
    if (el.checked) parts.push('checked');
    if (el.selected) parts.push('selected');
    const expanded = el.getAttribute('aria-expanded');
    if (expanded) parts.push('expanded=' + expanded);
    return parts.join(',');
  }

  let hoverCache = { key: -1, rules: [] };
  function hoverRules() {  // [ancestor selector, revealed selector] from `A:hover B` style rules
    const key = document.styleSheets.length;
    if (hoverCache.key === key) return hoverCache.rules;
    const rules = [];
    const walk = (list) => {
      for (const rule of list) {
        if (rule.cssRules && !rule.selectorText) { walk(rule.cssRules); continue; }
        if (!rule.selectorText || !rule.selectorText.includes(':hover')) continue;
        for (const selector of rule.selectorText.split(',')) {
          const m = selector.match(/^(.*?):hover((?:[\w\-.#[\]="':()]*)?)(\s*[>+~\s]\s*)(.+)$/);
          if (!m) continue;
          const ancestor = (m[1] + m[2]).trim();
          const revealed = (ancestor + m[3] + m[4]).replace(/:hover/g, '').trim();
          rules.push([ancestor || '*', revealed]);
        }
      }
    };
    for (const sheet of document.styleSheets) {
      try { walk(sheet.cssRules); } catch (e) { /* cross-origin sheet */ }
    }
    hoverCache = { key, rules };
    return rules;
  }
  function hoverReveals() {  // Map(revealed root element -> ancestor element to hover)
    const roots = new Map();
    for (const [ancestorSel, revealedSel] of hoverRules()) {
      let found;
      try { found = document.querySelectorAll(revealedSel); } catch (e) { continue; }
      for (const el of found) {
        if (visible(el)) continue;
        let anc = null;
        try { anc = el.parentElement && el.parentElement.closest(ancestorSel); } catch (e) { anc = null; }
        if (anc && visible(anc)) roots.set(el, anc);
      }
    }
    return roots;
  }
  function hoverAncestor(el, roots) {
    for (const [root, anc] of roots) if (root === el || root.contains(el)) return anc;
    return null;
  }

  function linkTarget(el) {
    if (el.localName !== 'a' && el.localName !== 'area') return null;
    const href = el.getAttribute('href');
    if (!href || href.startsWith('#') || /^javascript:/i.test(href)) return null;
    let url;
    try { url = new URL(href, location.href); } catch (e) { return null; }
    if (!/^https?:$/.test(url.protocol)) return null;
    return url.href;
  }

  function delegators() {  // [root element, ids] for targets whose click listeners serve descendants
    const out = [];
    for (const t of listening) {
      const byType = listeners.get(t);
      if (!byType) continue;
      const ids = [];
      for (const [type, m] of byType) {
        if (POINTER_EVENTS[type] === 'click') for (const id of m.keys()) ids.push(type + ':' + id);
      }
      if (!ids.length) continue;
      const root = t === window || t === document ? document.documentElement : t;
      if (root.nodeType === 1 && root.isConnected) out.push([root, 'delegated:' + ids.sort().join('+')]);
    }
    return out;
  }
  function looksInteractive(el, style) {
    const role = el.getAttribute('role');
    if (role && INTERACTIVE_ROLES.has(role)) return true;
    if (el.hasAttribute('tabindex') && el.tabIndex >= 0) return true;
    if (style.cursor === 'pointer') {
      const parent = el.parentElement;
      return !parent || getComputedStyle(parent).cursor !== 'pointer';
    }
    // data-* attributes mark list items, tabs and cards that a delegated handler reads: the
    // innermost such elements, not containers of their own controls.
    const hasData = (node) => node.getAttributeNames().some((name) => name.startsWith('data-'));
    if (!hasData(el)) return false;
    for (const inner of el.querySelectorAll('*')) {
      if (hasData(inner) || inner.matches('a[href], button, input, select, textarea, [role], [tabindex]')) {
        return false;
      }
    }
    return true;
  }


  // ---- forms -------------------------------------------------------------------------------------
  const TEXT_TYPES = new Set(['', 'text', 'search', 'email', 'url', 'tel', 'number']);
  function fieldNames(el) {  // what a user's NAME may refer to: labels, aria-label, placeholder, name, id
    const names = [];
    for (const l of el.labels || []) names.push(l.textContent);
    names.push(el.getAttribute('aria-label'), el.getAttribute('placeholder'), el.name, el.id);
    return names.filter(Boolean).map((n) => collapse(n, 200).replace(/[:*]\s*$/, '').toLowerCase());
  }
  const inputs = new Map(Object.entries(CONFIG.inputs || {}).map(([k, v]) => [k.toLowerCase(), v]));
  function givenValues(el) {
    for (const name of fieldNames(el)) if (inputs.has(name)) return inputs.get(name);
    return null;
  }
  function isText(el) {
    return el.localName === 'textarea' || (el.localName === 'input' && TEXT_TYPES.has(el.type));
  }
  function choices(el, group) {  // [[locator, value], ...] for one field, current choice first
    const limit = CONFIG.maxOptions;
    if (isText(el)) {
      const given = givenValues(el);
      const values = given || (CONFIG.defaultText != null ? [CONFIG.defaultText] : null);
      return values ? values.map((v) => [[locator(el), v]]) : null;
    }
    if (el.localName === 'select') {
      const options = Array.from(el.options).filter((o) => !o.disabled);
      const given = givenValues(el);
      let values = options.map((o) => o.value);
      if (given) values = given.filter((v) => values.includes(v));
      values.sort((a, b) => (b === el.value) - (a === el.value));
      return values.slice(0, given ? values.length : limit).map((v) => [[locator(el), v]]);
    }
    if (el.type === 'checkbox') {
      return [el.checked, !el.checked].map((on) => [[locator(el), on ? 'on' : 'off']]);
    }
    if (el.type === 'radio') {
      const sorted = group.slice().sort((a, b) => b.checked - a.checked);
      return sorted.slice(0, limit).map((r) => [[locator(r), 'on']]);
    }
    return null;
  }
  function fieldsOf(container) {  // [{el, options}] for the enabled fields of a form
    const out = [];
    const radios = new Set();
    for (const el of container.querySelectorAll('input, select, textarea')) {
      if (el.disabled || el.type === 'hidden' || el.type === 'password' || el.type === 'file') continue;
      if (/^(submit|button|reset|image)$/.test(el.type)) continue;
      let group = null;
      if (el.type === 'radio') {
        if (!el.name || radios.has(el.name)) continue;
        radios.add(el.name);
        group = Array.from(container.querySelectorAll('input[type=radio]'))
          .filter((r) => r.name === el.name && !r.disabled);
      }
      const options = choices(el, group);
      if (options && options.length) out.push({ el, options });
    }
    return out;
  }
  function combinations(fields) {  // one field varied at a time around the first choice of each
    if (!fields.length) return [];
    const base = fields.map((f) => f.options[0]);
    const combos = [base];
    fields.forEach((f, i) => {
      for (const option of f.options.slice(1)) {
        const combo = base.slice();
        combo[i] = option;
        combos.push(combo);
      }
    });
    return combos.map((combo) => combo.flat());
  }
  function describe(method, target, values) {
    const query = values.map(([loc, v]) => {
      const el = document.querySelector(loc);
      const name = (el && (el.name || el.id)) || loc;
      const value = el && el.type === 'radio' ? el.value : v;  // a radio is on: say which one
      return encodeURIComponent(name) + '=' + encodeURIComponent(value);
    }).join('&');
    return method + ' ' + target + (query ? ' ' + query : '');
  }
  function hasListener(el, type) {
    for (let node = el; node; node = node.parentNode) {
      if (listeners.get(node)?.has(type) || (node.nodeType === 1 && typeof node['on' + type] === 'function')) return true;
    }
    return !!listeners.get(window)?.has(type);
  }
  function formCandidates(add) {  // returns the forms given values, whose plain submit is left out
    const filled = new Set();
    for (const form of document.forms) {
      if (!visible(form)) continue;
      const combos = combinations(fieldsOf(form));
      if (!combos.length) continue;
      filled.add(form);
      const method = (form.getAttribute('method') || 'GET').toUpperCase();
      const target = form.action || location.href;
      const scripted = hasListener(form, 'submit');
      const button = form.querySelector('button:not([type]), button[type=submit], input[type=submit], input[type=image]')
        || Array.from(document.querySelectorAll('[form]')).find((b) => b.form === form && b.type === 'submit');
      for (const values of combos) {
        // A scripted submit does what its handler does with the values, wherever the page is.
        const action = scripted ? describe('SCRIPT', method, values) : describe(method, target, values);
        add(form, 'submit', 'submit', action, 'visible', null, {
          values, submitter: button && visible(button) ? locator(button) : null,
        });
      }
    }
    // A text field outside any form: type the value, then press Enter or click its button.
    for (const el of document.querySelectorAll('input, textarea')) {
      if (el.form || !isText(el) || !visible(el) || !enabled(el)) continue;
      const given = givenValues(el);
      if (!given) continue;
      const container = el.parentElement && (el.parentElement.querySelector('button') ? el.parentElement
        : el.parentElement.parentElement);
      const button = container && container.querySelector('button, input[type=button]');
      for (const value of given) {
        const values = [[locator(el), value]];
        if (hasListener(el, 'keydown') || hasListener(el, 'keyup') || hasListener(el, 'keypress')) {
          add(el, 'keydown:Enter', 'submit', describe('ENTER', locator(el), values), 'visible', null, { values });
        }
        if (button && visible(button) && enabled(button)) {
          add(button, 'click', 'submit', describe('CLICK', locator(button), values), 'visible', null, { values });
        }
      }
    }
    return filled;
  }

  function candidates() {
    const out = [];
    const seen = new Set();
    const roots = hoverReveals();
    const delegatedRoots = delegators();
    const elements = [];  // the element of each candidate in out
    const served = new Set();  // containers whose click listener serves candidates inside them
    const add = (el, event, kind, action, how, hover, extra) => {
      const loc = locator(el);
      const id = loc + '|' + event + '|' + action;
      if (seen.has(id)) return;
      seen.add(id);
      elements.push(el);
      out.push(Object.assign(
        { locator: loc, label: label(el), event, kind, action, status: status(el, how), hover },
        extra,
      ));
    };
    const filled = formCandidates(add);
    for (const el of document.body ? document.body.querySelectorAll('*') : []) {
      if (el.closest('svg *')) continue;
      let how = 'visible';
      let hover = null;
      if (!visible(el)) {
        const anc = hoverAncestor(el, roots);
        if (!anc) continue;
        how = 'hover-visible';
        hover = locator(anc);
      }
      if (!enabled(el)) continue;
      const events = ownEvents(el);
      const href = linkTarget(el);
      if (href && !events.has('click')) {
        add(el, 'click', 'link', href, how, hover);
      }
      for (const [event, ids] of events) {
        if (event === 'scroll' || event === 'submit') continue;
        if (event === 'keydown:Enter' || event === 'input' || event === 'change') {
          if (!el.matches('input, textarea, select, [contenteditable]')) continue;
        }
        add(el, event, 'script', 'handler:' + ids.sort().join('+'), how, hover);
      }
      if (events.has('click') || href) continue;
      const tag = el.localName;
      if (tag === 'button' || (tag === 'input' && /^(button|submit|image|reset)$/.test(el.type))) {
        const form = el.form;
        if (form && filled.has(form) && el.type === 'submit') continue;
        add(el, 'click', 'script', form ? 'button:' + locator(form) : 'button', how, hover);
        continue;
      }
      if ((tag === 'a' || tag === 'area') && el.hasAttribute('href')) {
        add(el, 'click', 'script', 'href:' + el.getAttribute('href'), how, hover);
        continue;
      }
      let delegator = null;  // the closest ancestor whose listener may serve this element
      for (const entry of delegatedRoots) {
        const root = entry[0];
        if (root !== el && root.contains(el) && (!delegator || delegator[0].contains(root))) {
          delegator = entry;
        }
      }
      if (delegator && looksInteractive(el, getComputedStyle(el))) {
        add(el, 'click', 'script', delegator[1], how, hover);
        served.add(delegator[0]);
      }
    }
    const scrollWanted = (listeners.get(window)?.has('scroll') || listeners.get(document)?.has('scroll')
      || listeners.get(window)?.has('wheel') || observedIntersections > 0);
    const root = document.scrollingElement || document.documentElement;
    if (scrollWanted && root.scrollHeight > window.innerHeight + 1) {
      elements.push(root);
      out.push({
        locator: 'window', label: 'end of page', event: 'scroll', kind: 'script',
        action: 'scroll:end', status: 'visible,enabled', hover: null,
      });
    }
    for (const t of listening) {
      if (t.nodeType !== 1 || !t.isConnected || !listeners.get(t)?.has('scroll')) continue;
      if (t.scrollHeight > t.clientHeight + 1 && visible(t)) {
        add(t, 'scroll', 'script', 'scroll:end', 'visible', null);
      }
    }
    // A container that serves its descendants is fired through them, not on its own.
    const kept = out.filter((c, i) => !(served.has(elements[i]) && c.event === 'click'
      && c.action.startsWith('handler:') && !elements[i].matches('a[href], button, summary')));
    return kept.slice(0, CONFIG.maxActions);
  }

  // ---- snapshot ----------------------------------------------------------------------------------
  function formState() {
    const out = [];
    for (const el of document.querySelectorAll('input, textarea, select')) {
      if (el.type === 'checkbox' || el.type === 'radio') {
        if (el.checked !== el.defaultChecked) out.push([anchoredPath(el), el.name || '', el.checked ? 'on' : 'off']);
      } else if (el.localName === 'select') {
        out.push([anchoredPath(el), el.name || '', Array.from(el.selectedOptions).map((o) => o.value).join(',')]);
      } else if (el.type !== 'password' && el.value !== el.defaultValue) {
        out.push([anchoredPath(el), el.name || '', el.value]);
      }
    }
    return out;
  }
  function doctype() {
    const d = document.doctype;
    return d ? '<!DOCTYPE ' + d.name + '>\n' : '';
  }
  let indexedDBUsed = false;
  if (window.indexedDB) {
    const open = IDBFactory.prototype.open;
    IDBFactory.prototype.open = function (...args) {
      indexedDBUsed = true;
      return open.apply(this, args);
    };
  }
  function storageUsed() {  // whether a reset must clear more than cookies
    try {
      return indexedDBUsed || localStorage.length > 0 || sessionStorage.length > 0;
    } catch (e) {
      return false;
    }
  }
  function httpStatus() {
    const entry = performance.getEntriesByType('navigation')[0];
    return entry && entry.responseStatus ? entry.responseStatus : null;
  }
  // A light snapshot (for replays, whose states are known) leaves out the candidates.
  function snapshot(extra, light) {
    onMutations(observer.takeRecords());
    const html = document.documentElement ? doctype() + document.documentElement.outerHTML : '';
    return Object.assign({
      url: location.href, title: document.title, html,
      form: formState(), candidates: light ? [] : candidates(), volatile: Array.from(volatile),
      dialogs: dialogs.splice(0), popups: popups.splice(0), blocked: blocked.splice(0),
      storage: storageUsed(), status: httpStatus(),
    }, extra);
  }

  // ---- settle ------------------------------------------------------------------------------------
  function settle(done) {
    const start = now();
    const check = () => {
      if (phase === 'leaving') return;  // the document is going away; the caller was told
      const t = now();
      const quietFor = t - lastActivity;
      const ready = document.readyState === 'complete' && pendingNet === 0 && pendingTimers === 0
        && !(submitting && t - submitting < 1000);
      if (ready && quietFor >= CONFIG.quietMs) { done(false); return; }
      if (t - start >= CONFIG.settleTimeoutMs) { done(true); return; }
      const wait = ready ? CONFIG.quietMs - quietFor : 10;
      nativeSetTimeout(check, Math.max(1, Math.min(wait, 50)));
    };
    nativeSetTimeout(check, 0);  // after the tasks the event queued (a form's navigation)
  }

  function waitLoad(next) {
    if (document.readyState === 'complete') { next(); return; }
    nativeAdd.call(window, 'load', () => next(), { once: true });
  }

  // ---- firing ------------------------------------------------------------------------------------
  function find(spec) {
    if (spec.locator === 'window') return window;
    let el = null;
    try { el = document.querySelector(spec.locator); } catch (e) { el = null; }
    if (el && label(el) === spec.label) return el;
    // The locator moved (an inserted row, say): look for the same label on an element of the
    // same kind that offers the same event.
    const tag = spec.locator.split(' > ').pop().split(':')[0].replace(/^#.*/, '');
    for (const c of candidates()) {
      if (c.label === spec.label && c.event === spec.event && c.action === spec.action) {
        const other = document.querySelector(c.locator);
        if (other && (!tag || other.localName === tag)) return other;
      }
    }
    return el && !spec.label ? el : null;
  }
  function mouse(el, type, init) {
    const Ctor = type.startsWith('pointer') && window.PointerEvent ? PointerEvent : MouseEvent;
    el.dispatchEvent(new Ctor(type, Object.assign({ bubbles: true, cancelable: true, composed: true, view: window }, init)));
  }
  function key(el, type) {
    el.dispatchEvent(new KeyboardEvent(type, {
      key: 'Enter', code: 'Enter', keyCode: 13, which: 13, bubbles: true, cancelable: true,
    }));
  }
  function setValue(el, value) {
    const proto = el.localName === 'textarea' ? HTMLTextAreaElement.prototype
      : el.localName === 'select' ? HTMLSelectElement.prototype : HTMLInputElement.prototype;
    const setter = Object.getOwnPropertyDescriptor(proto, 'value').set;
    el.focus();
    setter.call(el, value);
    el.dispatchEvent(new Event('input', { bubbles: true }));
    el.dispatchEvent(new Event('change', { bubbles: true }));
  }
  function fill(values) {  // [[locator, value]]: text typed, options selected, boxes (un)checked
    for (const [loc, value] of values || []) {
      const field = document.querySelector(loc);
      if (!field) throw new Error('field not found: ' + loc);
      if (field.type === 'checkbox' || field.type === 'radio') {
        const want = value === 'on';
        if (field.checked !== want) field.click();
      } else {
        setValue(field, value);
      }
    }
  }
  function dispatch(el, spec) {
    const ev = spec.event;
    if (ev === 'scroll') {
      const target = el === window ? (document.scrollingElement || document.documentElement) : el;
      target.scrollTop = target.scrollHeight;
      if (el === window) window.scrollTo(0, target.scrollHeight);
      return;
    }
    if (ev === 'mouseover') {
      mouse(el, 'pointerover'); mouse(el, 'mouseover');
      el.dispatchEvent(new MouseEvent('mouseenter', { bubbles: false, view: window }));
      mouse(el, 'mousemove');
      return;
    }
    if (ev === 'keydown:Enter') {
      if (el.focus) el.focus();
      key(el, 'keydown'); key(el, 'keypress'); key(el, 'keyup');
      return;
    }
    if (ev === 'input' || ev === 'change') {
      if (el.focus) el.focus();
      el.dispatchEvent(new Event(ev, { bubbles: true }));
      return;
    }
    if (ev === 'submit') {
      const form = el.localName === 'form' ? el : el.form;
      if (spec.submitter) {
        const button = document.querySelector(spec.submitter);
        if (button) { button.click(); return; }
      }
      if (form.requestSubmit) form.requestSubmit(); else form.submit();
      return;
    }
    mouse(el, 'pointerover'); mouse(el, 'mouseover'); mouse(el, 'pointerdown'); mouse(el, 'mousedown');
    if (el.focus) el.focus({ preventScroll: true });
    mouse(el, 'pointerup'); mouse(el, 'mouseup');
    el.click();
    if (ev === 'dblclick') { el.click(); mouse(el, 'dblclick', { detail: 2 }); }
  }

  const agent = {
    // Wait until the page has loaded and settled, then return a snapshot.
    snapshot(opts, done) {
      if (opts.volatile) knownVolatile = new Set(opts.volatile);
      if (phase === 'leaving') { done({ leaving: true }); return; }
      const begun = now();
      const go = () => settle((timedOut) => {
        phase = 'idle';
        done(snapshot({ timedOut, settleMs: Math.round(now() - begun) }, opts.light));
      });
      waitLoad(() => (CONFIG.waitMs && phase === 'loading' ? nativeSetTimeout(go, CONFIG.waitMs) : go()));
    },
    // Fire one action, wait until settled, return the new snapshot (or where the page went).
    fire(spec, done) {
      if (spec.volatile) knownVolatile = new Set(spec.volatile);
      const el = find(spec);
      if (!el) { done({ error: 'not-found' }); return; }
      phase = 'firing';
      frames = [];
      fireStart = now();
      lastActivity = fireStart;
      let answered = false;
      const answer = (result) => { if (!answered) { answered = true; onLeave = null; done(result); } };
      onLeave = () => answer({ navigating: leavingTo, blocked: blocked.splice(0), dialogs: dialogs.splice(0) });
      try {
        fill(spec.values);
        dispatch(el, spec);
        touch();  // the quiet window starts when the event has been handled
      } catch (e) {
        phase = 'idle';
        answer({ error: 'fire-failed', message: String(e && e.message || e) });
        return;
      }
      if (phase === 'leaving') { onLeave && onLeave(); return; }
      const after = () => settle((timedOut) => {
        if (phase === 'leaving') return;
        onMutations(observer.takeRecords());
        const recorded = frames;
        frames = null;
        phase = 'idle';
        const settleMs = Math.round(now() - fireStart);
        answer(snapshot({ timedOut, frames: recorded, settleMs }, spec.light));
      });
      if (CONFIG.waitMs) nativeSetTimeout(after, CONFIG.waitMs);
      else if (spec.event === 'scroll') rAF(() => rAF(after));
      else after();
    },
    // Fire several actions in a row (a replay), each settling before the next: one round trip.
    // Stops at the first that fails or leaves the page.
    replay(specs, done) {
      const steps = [];
      const next = (i) => {
        if (i >= specs.length) { done({ steps }); return; }
        agent.fire(specs[i], (result) => {
          steps.push(result);
          if (result.error || result.navigating) done({ steps });
          else next(i + 1);
        });
      };
      next(0);
    },
    // The viewport centre of an element, for a real hover through the browser's input.
    point(loc) {
      const el = document.querySelector(loc);
      if (!el) return null;
      el.scrollIntoView({ block: 'center', inline: 'center' });
      const r = el.getBoundingClientRect();
      return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
    },
    // The candidate actions of the page as it is now (for debugging a page by hand).
    candidates,
    // A frame's dialog or popup, reported by the frame's agent.
    note(kind, item) { (kind === 'dialog' ? dialogs : popups).push(item); },
  };
  Object.defineProperty(window, '__statecrawl', { value: agent, enumerable: false });
})();
