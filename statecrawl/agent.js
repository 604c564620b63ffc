// statecrawl page agent: injected before any page script runs.
// It records listeners, pending network and timers, DOM-mutation frames and volatile nodes,
// and answers "fire this action, wait until settled, return the snapshot" in one call.
// This file is one function expression; the crawler calls it with its settings (scope,
// timing, inputs, a per-session secret), so nothing of them is a global a page script could
// collide with or read. The agent keeps its state in this closure: no page script can reach
// it by name. The crawler talks to it from an isolated world, through DOM events whose types
// are derived from the secret (see "channel" at the end).
(function (CONFIG) {
  'use strict';
  const CHANNEL = {
    request: `${CONFIG.channel}:request`,  // isolated world -> agent: {id, method, args}
    answer: `${CONFIG.channel}:answer`,    // agent -> isolated world: {id, result} as JSON
    frame: `${CONFIG.channel}:frame`,      // a parent's agent asks a frame's agent for its interface
    note: `${CONFIG.channel}:note`,        // a frame's agent reports a dialog or popup to the top
  };
  const apply = Reflect.apply;
  const getter = (proto, name) => Object.getOwnPropertyDescriptor(proto, name).get;
  const nativeDispatch = EventTarget.prototype.dispatchEvent;
  const NativeCustomEvent = CustomEvent;
  const preventedOf = getter(Event.prototype, 'defaultPrevented');
  function signal(target, type, detail) {  // a synchronous event only agents listen to: handled?
    const event = new NativeCustomEvent(type, { detail, cancelable: true });
    apply(nativeDispatch, target, [event]);
    return apply(preventedOf, event, []);
  }
  if (signal(window, CHANNEL.frame, { frame: null })) return;  // injected twice

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

  // ---- shadow roots -------------------------------------------------------------------------------
  // Open roots are reachable through el.shadowRoot; closed ones only through this hook. Every
  // root is watched like the document, and its content is part of the state.
  const closedRoots = new WeakMap();  // host -> closed shadow root
  const knownRoots = new Set();       // roots seen so far, to serialize and watch
  const OBSERVED = { subtree: true, childList: true, attributes: true, characterData: true };
  const nativeAttachShadow = Element.prototype.attachShadow;
  Element.prototype.attachShadow = function (...args) {
    const root = nativeAttachShadow.apply(this, args);
    try {
      if (root.mode === 'closed') closedRoots.set(this, root);
      watchRoot(root);
    } catch (e) { /* never break the page */ }
    return root;
  };
  function watchRoot(root) {
    if (knownRoots.has(root)) return;
    knownRoots.add(root);
    observer.observe(root, OBSERVED);
  }
  function shadowOf(el) {
    const root = el.shadowRoot || closedRoots.get(el) || null;
    if (root && !knownRoots.has(root)) watchRoot(root);  // a declarative root from the HTML
    return root;
  }
  function parentOf(node) {  // the parent element, stepping from a shadow root to its host
    if (node.parentElement) return node.parentElement;
    const p = node.parentNode;
    return p && p.nodeType === 11 && p.host ? p.host : null;
  }
  function deepContains(ancestor, node) {
    for (let n = node; n; n = parentOf(n)) if (n === ancestor) return true;
    return false;
  }
  function elements(root, out = []) {  // every element under root, shadow trees included
    for (const el of root.querySelectorAll('*')) {
      out.push(el);
      const shadow = shadowOf(el);
      if (shadow) elements(shadow, out);
    }
    return out;
  }
  function liveRoots() {  // the shadow roots in the document now, for serialization
    const out = [];
    for (const root of knownRoots) {
      if (root.host.isConnected) out.push(root); else knownRoots.delete(root);
    }
    return out;
  }
  function innerHTMLOf(el) {  // children, shadow content as declarative shadow DOM
    const roots = knownRoots.size ? liveRoots() : [];
    return roots.length && el.getHTML ? el.getHTML({ shadowRoots: roots }) : el.innerHTML;
  }
  // A locator: selectors joined by ' >>> ' step into shadow roots, by ' |> ' into frames.
  function query(loc) {
    let el = null;
    for (const [i, inFrame] of String(loc).split(' |> ').entries()) {
      let scope = document;
      if (i > 0) {
        try { scope = el.contentDocument; } catch (e) { return null; }
      }
      for (const part of inFrame.split(' >>> ')) {
        if (!scope) return null;
        try { el = scope.querySelector(part); } catch (e) { return null; }
        if (!el) return null;
        scope = shadowOf(el);
      }
    }
    return el;
  }

  // ---- same-origin frames ------------------------------------------------------------------------
  // Each frame's document has an agent of its own; the top one asks those of same-origin
  // frames for their content, candidates and pending work, so a frame is part of the state.
  const MAX_FRAMES = 20;
  function frameAgents() {  // [[frame element, its agent's frame interface]]
    const out = [];
    for (const el of document.querySelectorAll('iframe, frame')) {
      const asked = { frame: null };
      try { if (el.contentWindow) signal(el.contentWindow, CHANNEL.frame, asked); } catch (e) { /* gone */ }
      if (asked.frame) out.push([el, asked.frame]);
      if (out.length >= MAX_FRAMES) break;
    }
    return out;
  }
  function framesQuietFor(t) {  // how long every frame has been idle (Infinity without frames)
    let quiet = Infinity;
    for (const [, inner] of frameAgents()) {
      try {
        const busy = inner.busy();
        quiet = Math.min(quiet, busy.pending ? -1 : busy.quietFor);
      } catch (e) { /* a frame going away */ }
    }
    return quiet;
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

  // Map(event -> [handler ids]) for listeners, on* attributes and properties, and the
  // [type, handler] pairs a framework keeps for the element (``more``).
  // A framework's root dispatches for the framework: ``hooked`` false leaves its listeners out.
  function ownEvents(el, more = [], hooked = true) {
    const events = new Map();
    const add = (type, id) => {
      const event = POINTER_EVENTS[type];
      if (!event) return;
      if (!events.has(event)) events.set(event, []);
      events.get(event).push(type + ':' + id);
    };
    const byType = hooked && listeners.get(el);
    if (byType) for (const [type, ids] of byType) for (const id of ids.keys()) add(type, id);
    for (const type of hooked ? Object.keys(POINTER_EVENTS) : []) {
      const prop = el['on' + type];
      if (typeof prop === 'function') add(type, handlerId(prop));
      else if (el.hasAttribute && el.hasAttribute('on' + type)) add(type, hash(el.getAttribute('on' + type)));
    }
    for (const [type, fn] of more) add(type, handlerId(fn));
    return events;
  }

  // ---- framework handlers ------------------------------------------------------------------------
  // Frameworks keep handlers where the addEventListener hook cannot name them: React on the
  // props of each element (it listens at the root), Preact and Vue in maps on the element,
  // Svelte 5 in delegated properties, jQuery (and Backbone through it) in its data, with the
  // selectors it delegates to.
  function eventType(name) {  // 'onDoubleClickCapture' -> 'dblclick', 'onKeydown' -> 'keydown'
    const type = name.replace(/^on/, '').replace(/(Capture|Once|Passive)+$/, '').toLowerCase();
    return type === 'doubleclick' ? 'dblclick' : type;
  }
  function functions(value) {
    return (Array.isArray(value) ? value : [value]).filter((fn) => typeof fn === 'function');
  }
  function frameworkHandlers(el) {  // [[type, handler]] the element's framework knows of
    const out = [];
    for (const k of Object.keys(el)) {
      const value = el[k];
      if (!value || (typeof value !== 'object' && typeof value !== 'function')) continue;
      if (k.startsWith('__reactProps$')) {  // React 17+
        for (const name of Object.keys(value)) {
          if (/^on[A-Z]/.test(name) && typeof value[name] === 'function') {
            out.push([eventType(name), value[name]]);
          }
        }
      } else if (k === '_vei') {  // Vue 3 invokers: {onClick: invoker}, the handler in .value
        for (const name of Object.keys(value)) {
          for (const fn of functions(value[name] && value[name].value)) out.push([eventType(name), fn]);
        }
      } else if (k === 'l' && Object.getPrototypeOf(value) === Object.prototype) {  // Preact
        for (const name of Object.keys(value)) {
          const type = name.replace(/(true|false)$/, '').toLowerCase();
          if (type in POINTER_EVENTS) for (const fn of functions(value[name])) out.push([type, fn]);
        }
      } else if (k.startsWith('__') && k.slice(2) in POINTER_EVENTS) {  // early Svelte 5
        const fn = functions(value)[0];
        if (fn) out.push([k.slice(2), fn]);
      }
    }
    for (const sym of Object.getOwnPropertySymbols(el)) {  // Svelte 5: el[Symbol('events')]
      const value = el[sym];
      if (sym.description !== 'events' || !value || typeof value !== 'object') continue;
      for (const type of Object.keys(value)) {
        if (type in POINTER_EVENTS) for (const fn of functions(value[type])) out.push([type, fn]);
      }
    }
    return out;
  }
  // jQuery keeps its data on each element under an expando key ("jQuery" and digits), also
  // when it is bundled and has no global: {events: {type: [{handler, selector, origType}]}}.
  function jqueryEvents(target) {
    for (const k of Object.keys(target)) {
      if (!/^jQuery\d+$/.test(k)) continue;
      const events = target[k] && target[k].events;
      if (events && typeof events === 'object') return events;
    }
    return null;
  }
  function jqueryDelegated() {  // {handlers: Map(element -> [[type, handler]]), roots: Set}
    const handlers = new Map();
    const roots = new Set();
    const give = (el, pair) => {
      if (!handlers.has(el)) handlers.set(el, []);
      handlers.get(el).push(pair);
    };
    for (const t of listening) {
      if (t === window || !(t.nodeType === 1 || t.nodeType === 9)) continue;
      const events = jqueryEvents(t);
      if (!events) continue;
      for (const type of Object.keys(events)) {
        for (const h of Array.isArray(events[type]) ? events[type] : []) {
          if (!h || typeof h.handler !== 'function') continue;
          const pair = [h.origType || type, h.handler];
          if (typeof h.selector !== 'string' || !h.selector) { if (t.nodeType === 1) give(t, pair); continue; }
          let matches;
          try { matches = t.querySelectorAll(h.selector); } catch (e) { continue; }  // jQuery-only syntax
          roots.add(t.nodeType === 9 ? t.documentElement : t);
          for (const el of matches) give(el, pair);
        }
      }
    }
    return { handlers, roots };
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
    let told = false;
    try { told = window.top !== window && signal(window.top, CHANNEL.note, { kind, item }); } catch (e) { told = false; }
    if (!told) (kind === 'dialog' ? dialogs : popups).push(item);
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
  // A shadow root is a <template> step below its host, as in the serialized snapshot. An id
  // made up per page view anchors nothing (statecrawl.models.dom.GENERATED_ID).
  const GENERATED_ID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{16,}|\d{13,}|(?=[a-z]*\d)(?=\d*[a-z])[a-z\d]{10,}/i;
  const anchors = (node) => node.id && !GENERATED_ID.test(node.id);
  function anchoredPath(el) {
    const parts = [];
    for (let node = el; node && node.nodeType === 1;) {
      if (anchors(node)) { parts.push('#' + node.id); break; }
      parts.push(step(node));
      if (!node.parentElement && node.parentNode && node.parentNode.host) parts.push('template');
      node = parentOf(node);
    }
    return parts.reverse().join('/');
  }
  function nodePath(node) {  // childNodes indexes in the snapshot, for replaying frames
    const path = [];
    while (node && node.parentNode) {
      const parent = node.parentNode;
      const index = Array.prototype.indexOf.call(parent.childNodes, node);
      // A host's shadow root is serialized as its first child.
      path.push(parent.nodeType === 1 && shadowOf(parent) ? index + 1 : index);
      node = parent;
    }
    return path.reverse();
  }
  function locator(el) {  // a selector, prefixed by its host's locator inside a shadow root
    const root = el.getRootNode();
    const inner = localLocator(el, root);
    return root.host ? locator(root.host) + ' >>> ' + inner : inner;
  }
  function localLocator(el, root) {
    const parts = [];
    for (let node = el; node && node.nodeType === 1; node = node.parentElement) {
      if (node.id && root.querySelectorAll('#' + CSS.escape(node.id)).length === 1) {
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
      const host = outerHost(node);
      if (host) targets.set(host, { k: 'html' });  // shadow content: its host's whole markup
      else if (r.type === 'childList') targets.set(node, { k: 'html' });
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
          : { p, k: 'html', v: innerHTMLOf(node) });
      } else if (op.k === 'text') {
        ops.push({ p, k: 'text', v: node.data });
      } else {
        for (const name of op.names) ops.push({ p, k: 'attr', n: name, v: node.getAttribute(name) });
      }
    }
    ops.sort((a, b) => a.p.length - b.p.length);
    if (ops.length) frames.push({ t: Math.round(now() - fireStart), ops });
  }
  function outerHost(node) {  // the outermost shadow host above node, if it is in a shadow tree
    let host = null;
    for (let root = node.getRootNode(); root.host; root = root.host.getRootNode()) host = root.host;
    return host;
  }
  let knownVolatile = new Set();  // names the crawler learned, from this page or others
  function isVolatile(r) {
    if (!knownVolatile.size && !volatile.size) return false;
    const el = r.target.nodeType === 1 ? r.target : r.target.parentElement;
    if (!el) return false;
    const kind = r.type === 'attributes' ? '@' + r.attributeName : 'content';
    for (let node = el; node && node.nodeType === 1; node = parentOf(node)) {
      const id = anchoredPath(node) + '|' + (node === el ? kind : 'content');
      if (knownVolatile.has(id) || volatile.has(id)) return true;
      if (anchors(node)) break;
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
  observer.observe(document, OBSERVED);

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

  const hoverCache = new WeakMap();  // document or shadow root -> {key, rules}
  function hoverRules(root) {  // [ancestor selector, revealed selector] from `A:hover B` style rules
    const sheets = [...root.styleSheets, ...(root.adoptedStyleSheets || [])];
    const cached = hoverCache.get(root);
    if (cached && cached.key === sheets.length) return cached.rules;
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
    for (const sheet of sheets) {
      try { walk(sheet.cssRules); } catch (e) { /* cross-origin sheet */ }
    }
    hoverCache.set(root, { key: sheets.length, rules });
    return rules;
  }
  function hoverReveals(shadows) {  // Map(revealed root element -> ancestor element to hover)
    const found = new Map();
    for (const root of [document, ...shadows]) {
      for (const [ancestorSel, revealedSel] of hoverRules(root)) {
        let matches;
        try { matches = root.querySelectorAll(revealedSel); } catch (e) { continue; }
        for (const el of matches) {
          if (visible(el)) continue;
          let anc = null;
          try { anc = el.parentElement && el.parentElement.closest(ancestorSel); } catch (e) { anc = null; }
          if (anc && visible(anc)) found.set(el, anc);
        }
      }
    }
    return found;
  }
  function hoverAncestor(el, revealed) {
    for (const [root, anc] of revealed) if (root === el || root.contains(el)) return anc;
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

  // Targets whose listeners may serve their descendants: Map(root element -> Map(event -> ids)).
  const DELEGATED = new Set(['click', 'change', 'input', 'keydown:Enter']);
  function delegators() {
    const out = new Map();
    for (const t of listening) {
      const byType = listeners.get(t);
      if (!byType) continue;
      const root = t === window || t === document ? document.documentElement : t;
      if (!root || root.nodeType !== 1 || !root.isConnected) continue;
      for (const [type, m] of byType) {
        const event = POINTER_EVENTS[type];
        if (!DELEGATED.has(event)) continue;
        if (!out.has(root)) out.set(root, new Map());
        const byEvent = out.get(root);
        if (!byEvent.has(event)) byEvent.set(event, []);
        for (const id of m.keys()) byEvent.get(event).push(type + ':' + id);
      }
    }
    return out;
  }
  const INTERACTIVE = 'a[href], button, input, select, textarea, summary, [role], [tabindex], [contenteditable]';
  // Where a page delegates with no framework to say to what, its listener is fired on the
  // innermost element a user would take for a control, never on a wrapper of controls.
  function looksInteractive(el, style) {
    if (el.querySelector(INTERACTIVE)) return false;
    if (el.localName === 'label') return !el.control;  // a label for a control is that control
    const role = el.getAttribute('role');
    if (role && INTERACTIVE_ROLES.has(role)) return true;
    if (el.hasAttribute('tabindex') && el.tabIndex >= 0) return true;
    if (style.cursor === 'pointer') {
      const parent = el.parentElement;
      return !parent || getComputedStyle(parent).cursor !== 'pointer';
    }
    // data-* attributes mark list items, tabs and cards that a delegated handler reads: the
    // innermost such elements.
    const hasData = (node) => node.getAttributeNames().some((name) => name.startsWith('data-'));
    if (!hasData(el)) return false;
    for (const inner of el.querySelectorAll('*')) if (hasData(inner)) return false;
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
  function textValues(el) {  // what to type into a text field: the user's values, or the default
    return givenValues(el) || (CONFIG.defaultText != null ? [CONFIG.defaultText] : null);
  }
  function isText(el) {
    return el.localName === 'textarea' || (el.localName === 'input' && TEXT_TYPES.has(el.type));
  }
  function isControl(el) {  // a form field that holds a value, a choice or a check
    return el.localName === 'select' || el.localName === 'textarea' || (el.localName === 'input'
      && !/^(button|submit|image|reset|hidden|password|file)$/.test(el.type));
  }
  function selectValues(el) {  // a select's option values to try, the current one first
    const options = Array.from(el.options).filter((o) => !o.disabled);
    const given = givenValues(el);
    let values = options.map((o) => o.value);
    if (given) values = given.filter((v) => values.includes(v));
    values.sort((a, b) => (b === el.value) - (a === el.value));
    return values.slice(0, given ? values.length : CONFIG.maxOptions);
  }
  function choices(el, group) {  // [[locator, value], ...] for one field, current choice first
    if (isText(el)) {
      const values = textValues(el);
      return values ? values.map((v) => [[locator(el), v]]) : null;
    }
    if (el.localName === 'select') return selectValues(el).map((v) => [[locator(el), v]]);
    if (el.type === 'checkbox') {
      return [el.checked, !el.checked].map((on) => [[locator(el), on ? 'on' : 'off']]);
    }
    if (el.type === 'radio') {
      const sorted = group.slice().sort((a, b) => b.checked - a.checked);
      return sorted.slice(0, CONFIG.maxOptions).map((r) => [[locator(r), 'on']]);
    }
    return null;
  }
  function fieldsOf(container) {  // [{el, options}] for the enabled fields of a form
    const out = [];
    const radios = new Set();
    for (const el of container.querySelectorAll('input, select, textarea')) {
      if (el.disabled || !isControl(el)) continue;
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
    const pairs = values.map(([loc, v]) => {
      const el = query(loc);
      const name = (el && (el.name || el.id)) || loc;
      const value = el && el.type === 'radio' ? el.value : v;  // a radio is on: say which one
      return encodeURIComponent(name) + '=' + encodeURIComponent(value);
    }).join('&');
    return method + ' ' + target + (pairs ? ' ' + pairs : '');
  }
  function hasListener(el, type) {
    for (let node = el; node; node = node.parentNode || node.host) {
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
    // A text field outside any form with a button beside it: type the value, click the button.
    for (const el of document.querySelectorAll('input, textarea')) {
      if (el.form || !isText(el) || !visible(el) || !enabled(el)) continue;
      const given = givenValues(el);
      if (!given) continue;
      const container = el.parentElement && (el.parentElement.querySelector('button') ? el.parentElement
        : el.parentElement.parentElement);
      const button = container && container.querySelector('button, input[type=button]');
      if (!button || !visible(button) || !enabled(button)) continue;
      for (const value of given) {
        const values = [[locator(el), value]];
        add(button, 'click', 'submit', describe('CLICK', locator(button), values), 'visible', null, { values });
      }
    }
    return filled;
  }
  // A field with a listener of its own (or a framework's, or a delegating ancestor's) is an
  // action in itself: a box or radio is clicked, a select gets each option, a text field gets
  // a value typed and committed (Enter, then change and blur).
  function controlActions(el, events, inherited, add, how, hover, filled) {
    const own = ['click', 'change', 'input', 'keydown:Enter'].flatMap((e) => events.get(e) || []);
    const inForm = el.form && filled.has(el.form);
    if (!own.length && (inForm || !inherited)) return;
    const handler = own.length ? 'handler:' + own.sort().join('+') : inherited;
    const loc = locator(el);
    if (el.type === 'checkbox' || el.type === 'radio') {
      add(el, 'click', 'script', handler, how, hover);
    } else if (el.localName === 'select') {
      for (const value of selectValues(el).slice(1)) {
        add(el, 'change', 'script', 'option:' + value + ' ' + handler, how, hover, { values: [[loc, value]] });
      }
    } else if (isText(el) && !inForm) {
      for (const value of textValues(el) || []) {
        const values = [[loc, value]];
        add(el, 'keydown:Enter', 'submit', describe('ENTER', loc, values), how, hover, { values });
      }
    }
  }

  function candidates() {
    const out = [];
    const seen = new Set();
    const shadows = liveRoots();
    const revealed = hoverReveals(shadows);
    const delegating = delegators();
    const jq = jqueryDelegated();
    const owners = [];  // the element of each candidate in out
    const served = new Set();  // delegating roots whose listeners serve candidates inside them
    const add = (el, event, kind, action, how, hover, extra) => {
      const loc = locator(el);
      const id = loc + '|' + event + '|' + action;
      if (seen.has(id)) return;
      seen.add(id);
      owners.push(el);
      out.push(Object.assign(
        { locator: loc, label: label(el), event, kind, action, status: status(el, how), hover },
        extra,
      ));
    };
    const filled = formCandidates(add);
    const all = document.body ? elements(document.body) : [];
    // What frameworks say about each element; a delegating root above such elements serves
    // exactly those (described), and no guess is made for it.
    const known = all.map((el) => [...frameworkHandlers(el), ...(jq.handlers.get(el) || [])]);
    const described = new Set(jq.roots);
    all.forEach((el, i) => {
      if (!known[i].length) return;
      for (let node = parentOf(el); node; node = parentOf(node)) if (delegating.has(node)) described.add(node);
    });
    // The nearest delegating ancestor (with no framework to describe it) listening to ``event``.
    const delegatorOf = (el, event) => {
      for (let node = parentOf(el); node; node = parentOf(node)) {
        const ids = delegating.get(node)?.get(event);
        if (ids && !described.has(node)) return [node, 'delegated:' + ids.slice().sort().join('+')];
      }
      return null;
    };
    all.forEach((el, i) => {
      if (el.closest('svg *')) return;
      let how = 'visible';
      let hover = null;
      if (!visible(el)) {
        const anc = hoverAncestor(el, revealed);
        if (!anc) return;
        how = 'hover-visible';
        hover = locator(anc);
      }
      if (!enabled(el)) return;
      // A described root's own listeners are the framework's dispatchers, not actions.
      const events = ownEvents(el, known[i], !described.has(el));
      if (isControl(el)) {
        const inherited = ['change', 'input', 'click', 'keydown:Enter']
          .map((e) => delegatorOf(el, e)).find(Boolean);
        if (inherited) served.add(inherited[0]);
        controlActions(el, events, inherited && inherited[1], add, how, hover, filled);
        return;
      }
      const href = linkTarget(el);
      if (href && !events.has('click')) {
        add(el, 'click', 'link', href, how, hover);
      }
      for (const [event, ids] of events) {
        if (event === 'scroll' || event === 'submit') continue;
        if (event === 'keydown:Enter' || event === 'input' || event === 'change') {
          if (!el.isContentEditable) continue;
        }
        add(el, event, 'script', 'handler:' + ids.sort().join('+'), how, hover);
      }
      if (events.has('click') || href) return;
      const tag = el.localName;
      if (tag === 'button' || (tag === 'input' && /^(button|submit|image|reset)$/.test(el.type))) {
        const form = el.form;
        if (form && filled.has(form) && el.type === 'submit') return;
        add(el, 'click', 'script', form ? 'button:' + locator(form) : 'button', how, hover);
        return;
      }
      if ((tag === 'a' || tag === 'area') && el.hasAttribute('href')) {
        add(el, 'click', 'script', 'href:' + el.getAttribute('href'), how, hover);
        return;
      }
      const delegator = delegatorOf(el, 'click');
      if (delegator && looksInteractive(el, getComputedStyle(el))) {
        add(el, 'click', 'script', delegator[1], how, hover);
        served.add(delegator[0]);
      }
    });
    const scrollWanted = (listeners.get(window)?.has('scroll') || listeners.get(document)?.has('scroll')
      || listeners.get(window)?.has('wheel') || observedIntersections > 0);
    const root = document.scrollingElement || document.documentElement;
    if (scrollWanted && root.scrollHeight > window.innerHeight + 1) {
      owners.push(root);
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
    const kept = out.filter((c, i) => !(served.has(owners[i]) && c.event === 'click'
      && c.action.startsWith('handler:') && !owners[i].matches('a[href], button, summary')));
    for (const [el, inner] of frameAgents()) {
      if (!visible(el)) continue;
      const at = (loc) => (loc ? locator(el) + ' |> ' + loc : loc);
      let found = [];
      try { found = inner.candidates(); } catch (e) { found = []; }
      for (const c of found) {
        if (c.locator === 'window') continue;  // a frame's own scrolling
        const inFrame = Object.assign({}, c, { locator: at(c.locator), hover: at(c.hover) });
        if (c.submitter) inFrame.submitter = at(c.submitter);
        if (c.values) inFrame.values = c.values.map(([loc, v]) => [at(loc), v]);
        kept.push(inFrame);
      }
    }
    return kept.slice(0, CONFIG.maxActions);
  }

  // ---- snapshot ----------------------------------------------------------------------------------
  function fields() {  // every form field, in the document and its shadow roots
    const selector = 'input, textarea, select';
    const out = Array.from(document.querySelectorAll(selector));
    for (const root of liveRoots()) out.push(...root.querySelectorAll(selector));
    return out;
  }
  function formState(all) {
    const out = [];
    for (const el of all) {
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
  // Write what each field holds into its attributes (value, checked, selected), so that the
  // serialized DOM shows what tells the state apart; returns the function that undoes it.
  function reflectValues(all) {
    const undo = [];
    for (const el of all) {
      if (/^(password|file|hidden)$/.test(el.type)) continue;
      if (el.type === 'checkbox' || el.type === 'radio') {
        const on = el.checked;
        if (on === el.hasAttribute('checked')) continue;
        el.toggleAttribute('checked', on);
        undo.push(() => { el.toggleAttribute('checked', !on); el.checked = on; });
      } else if (el.localName === 'select') {
        const chosen = Array.from(el.options, (o) => o.selected);
        undo.push(() => chosen.forEach((on, i) => { el.options[i].selected = on; }));
        for (const option of el.options) {
          const on = option.selected;
          if (on === option.hasAttribute('selected')) continue;
          option.toggleAttribute('selected', on);
          undo.push(() => option.toggleAttribute('selected', !on));
        }
      } else if (el.value !== el.defaultValue) {
        const value = el.value;
        const before = el.localName === 'textarea' ? el.defaultValue : el.getAttribute('value');
        el.localName === 'textarea' ? (el.defaultValue = value) : el.setAttribute('value', value);
        undo.push(() => {
          if (el.localName === 'textarea') el.defaultValue = before;
          else if (before === null) el.removeAttribute('value');
          else el.setAttribute('value', before);
          if (el.value !== value) el.value = value;
        });
      }
    }
    return () => { for (const fn of undo.reverse()) fn(); observer.takeRecords(); };
  }
  function doctype() {
    const d = document.doctype;
    return d ? '<!DOCTYPE ' + d.name + '>\n' : '';
  }
  // The DOM with field values and shadow roots written out, and each same-origin frame's
  // content as the srcdoc of its element (marked for the time of the serialization).
  function documentHTML(all) {
    const html = document.documentElement;
    if (!html) return '';
    const undo = reflectValues(all);
    const frames = frameAgents().filter(([el]) => !el.hasAttribute('srcdoc'));
    frames.forEach(([el], i) => el.setAttribute('data-statecrawl-frame', String(i)));
    let text;
    try {
      if (!knownRoots.size || !html.getHTML) text = doctype() + html.outerHTML;
      else {
        const shell = html.cloneNode(false).outerHTML;
        text = doctype() + shell.slice(0, -'</html>'.length) + innerHTMLOf(html) + '</html>';
      }
    } finally {
      for (const [el] of frames) el.removeAttribute('data-statecrawl-frame');
      undo();
    }
    frames.forEach(([, inner], i) => {
      let content = '';
      try { content = inner.html(); } catch (e) { content = ''; }
      const escaped = content.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
      text = text.replace('data-statecrawl-frame="' + i + '"', 'srcdoc="' + escaped + '"');
    });
    return text;
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
    const all = fields();
    const html = documentHTML(all);
    return Object.assign({
      url: location.href, title: document.title, html,
      form: formState(all), candidates: light ? [] : candidates(), volatile: Array.from(volatile),
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
      const quiet = Math.min(quietFor, framesQuietFor());
      const ready = document.readyState === 'complete' && pendingNet === 0 && pendingTimers === 0
        && !(submitting && t - submitting < 1000) && quiet >= 0;
      if (ready && quiet >= CONFIG.quietMs) { done(false); return; }
      if (t - start >= CONFIG.settleTimeoutMs) { done(true); return; }
      const wait = ready ? CONFIG.quietMs - quiet : 10;
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
    el = query(spec.locator);
    if (el && label(el) === spec.label) return el;
    // The locator moved (an inserted row, say): look for the same label on an element of the
    // same kind that offers the same event.
    const tag = spec.locator.split(/ > | >>> /).pop().split(':')[0].replace(/^#.*/, '');
    for (const c of candidates()) {
      if (c.label === spec.label && c.event === spec.event && c.action === spec.action) {
        const other = query(c.locator);
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
      key: 'Enter', code: 'Enter', keyCode: 13, which: 13, bubbles: true, cancelable: true, composed: true,
    }));
  }
  // What typing does: focus, the new value (through the native setter, which frameworks that
  // track the value see), an input event. Returns the value before, for the change on commit.
  function type(el, value) {
    const proto = el.localName === 'textarea' ? HTMLTextAreaElement.prototype
      : el.localName === 'select' ? HTMLSelectElement.prototype : HTMLInputElement.prototype;
    const before = el.value;
    el.focus();
    Object.getOwnPropertyDescriptor(proto, 'value').set.call(el, value);
    el.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true, data: value, inputType: 'insertText' }));
    return before;
  }
  function setValue(el, value) {  // typing, then leaving the field
    type(el, value);
    el.dispatchEvent(new Event('change', { bubbles: true }));
  }
  // What pressing Enter in a field does, then leaving it: keydown and keypress, a change if the
  // value is new (a browser fires it on Enter), keyup, blur.
  function commit(el, before) {
    key(el, 'keydown'); key(el, 'keypress');
    if (el.isConnected && el.value !== before) el.dispatchEvent(new Event('change', { bubbles: true }));
    key(el, 'keyup');
    if (el.isConnected && el.blur) el.blur();
  }
  function typed(el, spec) {  // a value typed into this very field and committed with Enter
    const values = spec.values || [];
    return spec.event === 'keydown:Enter' && values.length === 1 && query(values[0][0]) === el;
  }
  function fill(values) {  // [[locator, value]]: text typed, options selected, boxes (un)checked
    for (const [loc, value] of values || []) {
      const field = query(loc);
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
      if (spec.values && spec.values.length) return;  // fill() chose the option and said so
      if (el.focus) el.focus();
      el.dispatchEvent(new Event(ev, { bubbles: true }));
      return;
    }
    if (ev === 'submit') {
      const form = el.localName === 'form' ? el : el.form;
      if (spec.submitter) {
        const button = query(spec.submitter);
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
      const failed = (e) => {
        phase = 'idle';
        answer({ error: 'fire-failed', message: String(e && e.message || e) });
      };
      const fired = () => {
        touch();  // the quiet window starts when the event has been handled
        if (phase === 'leaving') { if (onLeave) onLeave(); return; }
        if (CONFIG.waitMs) nativeSetTimeout(after, CONFIG.waitMs);
        else if (spec.event === 'scroll') rAF(() => rAF(after));
        else after();
      };
      const after = () => settle((timedOut) => {
        if (phase === 'leaving') return;
        onMutations(observer.takeRecords());
        const recorded = frames;
        frames = null;
        phase = 'idle';
        const settleMs = Math.round(now() - fireStart);
        answer(snapshot({ timedOut, frames: recorded, settleMs }, spec.light));
      });
      try {
        if (typed(el, spec)) {
          // Enter comes in a task of its own, once the framework has seen the typed value
          // (React, Vue, Svelte and Lit update on a microtask).
          const before = type(el, spec.values[0][1]);
          nativeSetTimeout(() => {
            try { commit(el, before); } catch (e) { failed(e); return; }
            fired();
          }, 0);
          return;
        }
        fill(spec.values);
        dispatch(el, spec);
      } catch (e) {
        failed(e);
        return;
      }
      fired();
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
    point(loc, done) {
      done(locate(loc));
    },
    // What the agent of a frame's parent asks of it.
    frame: {
      html: () => documentHTML(fields()),
      candidates: () => candidates(),
      busy: () => ({ pending: pendingNet + pendingTimers, quietFor: now() - lastActivity }),
    },
  };
  function locate(loc) {  // an element's viewport centre, frame offsets included
    const el = query(loc);
    if (!el) return null;
    el.scrollIntoView({ block: 'center', inline: 'center' });
    const r = el.getBoundingClientRect();
    let x = r.left + r.width / 2;
    let y = r.top + r.height / 2;
    const parts = String(loc).split(' |> ');  // inside frames: add each frame's offset
    for (let i = parts.length - 1; i > 0; i--) {
      const frame = query(parts.slice(0, i).join(' |> '));
      const f = frame.getBoundingClientRect();
      x += f.left + frame.clientLeft;
      y += f.top + frame.clientTop;
    }
    return { x, y };
  }

  // ---- channel ---------------------------------------------------------------------------------
  // The crawler calls from an isolated world (the page cannot see or change its globals) by
  // dispatching an event of a secret type with a JSON request; the answer comes back the same
  // way. Events of these types reach no page listener, and the builtins used here were taken
  // before any page script ran.
  const detailOf = getter(CustomEvent.prototype, 'detail');
  const nativePreventDefault = Event.prototype.preventDefault;
  const nativeStopImmediate = Event.prototype.stopImmediatePropagation;
  const nativeParse = JSON.parse;
  const nativeStringify = JSON.stringify;
  const isArray = Array.isArray;
  const ownKeys = Object.keys;
  const finite = Number.isFinite;
  function receive(event) {  // the event's detail, the event kept from any other listener
    apply(nativePreventDefault, event, []);
    apply(nativeStopImmediate, event, []);
    return apply(detailOf, event, []);
  }
  function encode(value) {  // JSON without toJSON or any other method a page could replace
    if (typeof value === 'string') return apply(nativeStringify, null, [value]);
    if (typeof value === 'number') return finite(value) ? '' + value : 'null';
    if (typeof value === 'boolean') return value ? 'true' : 'false';
    if (value === null || typeof value !== 'object') return 'null';
    let out = '';
    if (isArray(value)) {
      for (let i = 0; i < value.length; i++) out += (i ? ',' : '') + encode(value[i]);
      return '[' + out + ']';
    }
    const keys = ownKeys(value);
    for (let i = 0; i < keys.length; i++) {
      const item = value[keys[i]];
      if (item === undefined || typeof item === 'function') continue;
      out += (out ? ',' : '') + apply(nativeStringify, null, [keys[i]]) + ':' + encode(item);
    }
    return '{' + out + '}';
  }
  const METHODS = { __proto__: null, snapshot: agent.snapshot, fire: agent.fire, replay: agent.replay, point: agent.point };
  nativeAdd.call(window, CHANNEL.request, (event) => {
    const detail = receive(event);
    let request = null;
    try { request = nativeParse(detail); } catch (e) { return; }
    const method = METHODS[request.method];
    const answer = (result) => signal(window, CHANNEL.answer, '{"id":' + encode(request.id) + ',"result":' + encode(result) + '}');
    if (!method) { answer({ error: 'unknown-method', message: String(request.method) }); return; }
    try {
      apply(method, agent, [request.arg, answer]);
    } catch (e) {
      answer({ error: 'agent-failed', message: String(e && e.message || e) });
    }
  }, true);
  nativeAdd.call(window, CHANNEL.frame, (event) => { receive(event).frame = agent.frame; }, true);
  nativeAdd.call(window, CHANNEL.note, (event) => {
    const { kind, item } = receive(event);
    (kind === 'dialog' ? dialogs : popups).push(item);
  }, true);
})
