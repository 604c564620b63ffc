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
  // ---- natives -----------------------------------------------------------------------------------
  // Pages replace and extend builtins (old libraries, polyfills, analytics scripts), before or
  // after load, with versions that throw or return garbage. This script runs before any page
  // script, so it takes here every builtin it uses and later calls only these copies:
  // - methods are uncurried, Str.slice(text, 0, 9) for text.slice(0, 9), from tables with no
  //   prototype; Maps, Sets and observers are private subclasses holding the native methods;
  // - lists are walked with index loops or Arr helpers and collections with their own forEach,
  //   never for-of, spread or array destructuring (they call iterators a page can replace);
  // - a regex used to replace carries its own exec and flags, which the native replace reads;
  // - objects handed to natives (event and observer options) and read from the crawler have no
  //   prototype, so members a page adds to Object.prototype are never seen; answers are JSON
  //   built by encode(), which calls no toJSON.
  const apply = Reflect.apply;
  const uncurry = (fn) => (self, ...args) => apply(fn, self, args);
  const ownDescriptor = Object.getOwnPropertyDescriptor;
  const defineProperty = Object.defineProperty;
  const getter = (proto, name) => uncurry(ownDescriptor(proto, name).get);
  function natives(proto, names) {  // {name: uncurried method} for those of names proto has
    const out = { __proto__: null };
    for (let i = 0; i < names.length; i++) {
      if (typeof proto[names[i]] === 'function') out[names[i]] = uncurry(proto[names[i]]);
    }
    return out;
  }
  function privateClass(Base, names) {  // a subclass whose own prototype holds Base's members
    const Class = class extends Base {};
    for (let i = 0; i < names.length; i++) {
      defineProperty(Class.prototype, names[i], ownDescriptor(Base.prototype, names[i]));
    }
    return Class;
  }
  const keys = Object.keys;
  const assign = Object.assign;
  const protoOf = Object.getPrototypeOf;
  const setProto = Object.setPrototypeOf;
  const ownSymbols = Object.getOwnPropertySymbols;
  const OBJECT_PROTO = Object.prototype;
  const isArray = Array.isArray;
  const finite = Number.isFinite;
  const toText = String;
  const toNumber = Number;
  const { min, max, round, imul } = Math;
  const NativeError = Error;
  const NativeRegExp = RegExp;
  const NativeURL = URL;
  const cssEscape = CSS.escape;
  const SafeMap = privateClass(Map, ['get', 'set', 'has', 'delete', 'forEach', 'size']);
  const SafeSet = privateClass(Set, ['add', 'has', 'delete', 'forEach', 'size']);
  const SafeWeakMap = privateClass(WeakMap, ['get', 'set', 'has']);
  const Observer = privateClass(MutationObserver, ['observe', 'takeRecords']);
  const numberToString = uncurry(Number.prototype.toString);
  const fnToString = uncurry(Function.prototype.toString);
  const symbolName = getter(Symbol.prototype, 'description');
  const then = uncurry(Promise.prototype.then);
  const Str = natives(String.prototype, [
    'slice', 'trim', 'split', 'toLowerCase', 'toUpperCase', 'startsWith', 'includes', 'indexOf',
    'padStart', 'charCodeAt',
  ]);
  const regexExec = uncurry(RegExp.prototype.exec);
  const regexReplace = uncurry(RegExp.prototype[Symbol.replace]);
  const regexFlags = getter(RegExp.prototype, 'flags');
  const Re = {
    __proto__: null,
    exec: regexExec,  // a match, or null
    test: (re, text) => regexExec(re, text) !== null,
    replace: (text, re, by) => regexReplace(re, text, by),  // re made by Re.pin
    // The native replace looks up exec and flags on the regex: give it its own.
    pin: (re) => {
      defineProperty(re, 'exec', { __proto__: null, value: RegExp.prototype.exec });
      defineProperty(re, 'flags', { __proto__: null, value: regexFlags(re) });
      return re;
    },
  };
  const nativePush = uncurry(Array.prototype.push);
  // Array methods; all but sort also take array-likes (NodeList, HTMLCollection, arguments), and
  // map, filter and slice make plain arrays (no species constructor is looked up).
  const Arr = {
    __proto__: null,
    push: nativePush,
    join: uncurry(Array.prototype.join),
    sort: uncurry(Array.prototype.sort),
    indexOf: uncurry(Array.prototype.indexOf),
    includes: uncurry(Array.prototype.includes),
    from(list) { return Arr.slice(list, 0); },
    slice(list, start, end = list.length) {
      const out = [];
      for (let i = max(0, start); i < min(end, list.length); i++) nativePush(out, list[i]);
      return out;
    },
    concat(a, b) {
      const out = Arr.from(a);
      for (let i = 0; i < b.length; i++) nativePush(out, b[i]);
      return out;
    },
    forEach(list, fn) { for (let i = 0; i < list.length; i++) fn(list[i], i); },
    map(list, fn) {
      const out = [];
      for (let i = 0; i < list.length; i++) nativePush(out, fn(list[i], i));
      return out;
    },
    filter(list, fn) {
      const out = [];
      for (let i = 0; i < list.length; i++) if (fn(list[i], i)) nativePush(out, list[i]);
      return out;
    },
    find(list, fn) {
      for (let i = 0; i < list.length; i++) if (fn(list[i], i)) return list[i];
      return undefined;
    },
    some(list, fn) {
      for (let i = 0; i < list.length; i++) if (fn(list[i], i)) return true;
      return false;
    },
  };
  // The DOM's methods, on the prototypes that define them (a page may also shadow them on one
  // element or on document itself).
  const Dom = assign(
    natives(EventTarget.prototype, ['addEventListener', 'removeEventListener', 'dispatchEvent']),
    natives(Node.prototype, ['contains', 'cloneNode', 'getRootNode']),
    natives(Element.prototype, [
      'getAttribute', 'hasAttribute', 'setAttribute', 'removeAttribute', 'toggleAttribute',
      'getAttributeNames', 'closest', 'matches', 'getBoundingClientRect', 'checkVisibility',
      'getHTML', 'scrollIntoView', 'hasAttributes',
    ]),
    natives(HTMLElement.prototype, ['click', 'focus', 'blur']),
    natives(HTMLFormElement.prototype, ['requestSubmit']),
    natives(HTMLDialogElement.prototype, ['close']),
    natives(Event.prototype, ['preventDefault', 'stopImmediatePropagation']),
  );
  const SELECT = {  // nodeType -> the querySelector and querySelectorAll of its prototype
    __proto__: null,
    1: natives(Element.prototype, ['querySelector', 'querySelectorAll']),
    9: natives(Document.prototype, ['querySelector', 'querySelectorAll']),
    11: natives(DocumentFragment.prototype, ['querySelector', 'querySelectorAll']),
  };
  const selectOne = (scope, selector) => SELECT[scope.nodeType].querySelector(scope, selector);
  const selectAll = (scope, selector) => SELECT[scope.nodeType].querySelectorAll(scope, selector);
  const POINT = {  // nodeType -> the elementFromPoint of a document or a shadow root
    __proto__: null,
    9: uncurry(Document.prototype.elementFromPoint),
    11: uncurry(ShadowRoot.prototype.elementFromPoint),
  };
  // Markup and text through the native getters: a page that replaces outerHTML or innerText
  // (to hide or decorate content) changes neither the snapshot nor a label.
  const Markup = {
    __proto__: null,
    outer: getter(Element.prototype, 'outerHTML'),
    inner: getter(Element.prototype, 'innerHTML'),
    innerText: getter(HTMLElement.prototype, 'innerText'),
    text: getter(Node.prototype, 'textContent'),
  };
  const isHTML = (el) => el.namespaceURI === 'http://www.w3.org/1999/xhtml';
  const textOf = (el) => (isHTML(el) && Markup.innerText(el)) || Markup.text(el);  // what a user reads
  const defaultPrevented = getter(Event.prototype, 'defaultPrevented');
  const NativeEvent = Event;
  const NativeMouseEvent = MouseEvent;
  const NativePointerEvent = window.PointerEvent || MouseEvent;
  const NativeKeyboardEvent = KeyboardEvent;
  const NativeInputEvent = InputEvent;
  const NativeCustomEvent = CustomEvent;
  const NativeDragEvent = DragEvent;
  const NativeDataTransfer = DataTransfer;
  const execCommand = uncurry(Document.prototype.execCommand);
  const perfNow = uncurry(Performance.prototype.now);
  const entriesByType = uncurry(Performance.prototype.getEntriesByType);
  const computedStyle = window.getComputedStyle.bind(window);
  const scrollTo = window.scrollTo.bind(window);
  const microtask = window.queueMicrotask.bind(window);
  const nativeSetTimeout = window.setTimeout.bind(window);
  const nativeClearTimeout = window.clearTimeout.bind(window);
  const rAF = window.requestAnimationFrame.bind(window);
  const now = () => perfNow(performance);

  function signal(target, type, detail) {  // a synchronous event only agents listen to: handled?
    const event = new NativeCustomEvent(type, { __proto__: null, detail, cancelable: true });
    Dom.dispatchEvent(target, event);
    return defaultPrevented(event);
  }
  if (signal(window, CHANNEL.frame, { frame: null })) return;  // injected twice
  // The top page's agent asks the first MAX_FRAMES frames of a document for their content
  // (see frameAgents); a same-origin frame past them is never asked, so it gets no agent: a
  // page of a thousand frames would otherwise run a thousand, and leave it at a crawl.
  const MAX_FRAMES = 20;
  try {
    const host = window.frameElement;
    if (host) {
      const all = selectAll(host.ownerDocument, 'iframe, frame');
      let at = 0;
      while (at < all.length && all[at] !== host) at++;
      if (at >= MAX_FRAMES && at < all.length) return;
    }
  } catch (e) { /* a cross-origin parent: this frame keeps its agent */ }

  const POINTER_EVENTS = {
    __proto__: null,
    click: 'click', mousedown: 'click', mouseup: 'click', pointerdown: 'click', pointerup: 'click',
    touchstart: 'click', touchend: 'click', dblclick: 'dblclick', mouseover: 'mouseover',
    mouseenter: 'mouseover', pointerover: 'mouseover', pointerenter: 'mouseover',
    change: 'change', input: 'input', submit: 'submit', keydown: 'keydown:Enter',
    keyup: 'keydown:Enter', keypress: 'keydown:Enter', scroll: 'scroll', wheel: 'scroll',
    drop: 'drop', beforeunload: null,
  };
  function setOf(list) {
    const out = new SafeSet();
    for (let i = 0; i < list.length; i++) out.add(list[i]);
    return out;
  }
  function valuesOf(set) {  // a Set's items as an array
    const out = [];
    set.forEach((item) => Arr.push(out, item));
    return out;
  }
  const INTERACTIVE_ROLES = setOf([
    'button', 'link', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'option',
    'checkbox', 'radio', 'switch', 'treeitem', 'row', 'gridcell',
  ]);
  // The ARIA widgets a user presses whatever listener serves them (one in a closed shadow
  // root, one the page added before the agent could see it): each is clicked.
  const WIDGET_ROLES = setOf([
    'checkbox', 'switch', 'radio', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio',
    'option', 'treeitem', 'combobox',
  ]);
  function widgetRole(el) {  // the widget role a user would press el for, or ''
    const role = Dom.getAttribute(el, 'role');
    if (role && WIDGET_ROLES.has(role)) return role;
    if (role === 'button' || el.localName === 'button') {
      if (Dom.hasAttribute(el, 'aria-expanded') || Dom.hasAttribute(el, 'aria-haspopup')) return 'button';
    }
    return '';
  }
  // A combobox, or a control that opens a listbox or a menu: its options often exist only while
  // it is open (created on open, in a portal), so opening and choosing one is a single action,
  // ``choose:<k>`` for the k-th option it shows (up to inputs.max_options).
  const POPUP_KINDS = setOf(['listbox', 'menu', 'tree', 'grid', 'true']);
  const OPTION_ROLES = '[role=option], [role=menuitem], [role=menuitemradio], [role=menuitemcheckbox], [role=treeitem]';
  const CHOOSE = /^choose:(\d+)$/;
  function opensPopup(el) {
    if (el.localName === 'select' || Dom.getAttribute(el, 'aria-disabled') === 'true') return false;
    return Dom.getAttribute(el, 'role') === 'combobox' || POPUP_KINDS.has(Dom.getAttribute(el, 'aria-haspopup'));
  }
  // Mutations seen while the page is idle before a node counts as volatile; what intervals
  // and long callback chains change is volatile at once.
  const VOLATILE_AFTER = 2;
  const CHAIN = 3;  // a timer or frame callback this many generations deep runs by itself,
  const CHAIN_MS = 1000;  // once its chain is this old (an animation a user waits for is shorter)

  // ---- scope -------------------------------------------------------------------------------
  const pattern = (rule) => new NativeRegExp(rule[0], rule[1]);  // rule: [source, flags]
  const scopeInclude = Arr.map(CONFIG.include || [], pattern);
  const scopeExclude = Arr.map(CONFIG.exclude || [], pattern);
  const scopeOrigins = setOf(CONFIG.origins || []);
  const HTTP = /^https?:$/;
  function inScope(url) {
    let parsed;
    try { parsed = new NativeURL(url, location.href); } catch (e) { return false; }
    if (!Re.test(HTTP, parsed.protocol)) return false;
    const href = parsed.href;
    if (Arr.some(scopeExclude, (r) => Re.test(r, href))) return false;  // as Python's re.search
    if (scopeInclude.length) return Arr.some(scopeInclude, (r) => Re.test(r, href));
    return scopeOrigins.has(parsed.origin);
  }

  // ---- small helpers ---------------------------------------------------------------------------
  function hash(text) {  // FNV-1a, 32 bits, as 8 hex digits: a handler's identity
    let h = 0x811c9dc5;
    for (let i = 0; i < text.length; i++) {
      h ^= Str.charCodeAt(text, i);
      h = imul(h, 0x01000193);
    }
    return Str.padStart(numberToString(h >>> 0, 16), 8, '0');
  }
  const fnIds = new SafeWeakMap();
  function handlerId(fn) {
    if (!fn) return 'none';
    if (typeof fn !== 'function') return 'object';
    let id = fnIds.get(fn);
    if (!id) {
      let src = '';
      try { src = fnToString(fn); } catch (e) { src = toText(fn.name); }
      id = hash(src);
      fnIds.set(fn, id);
    }
    return id;
  }
  const SPACES = Re.pin(/\s+/g);
  function collapse(text, limit) {
    const t = Str.trim(Re.replace(text || '', SPACES, ' '));
    return t.length > limit ? Str.slice(t, 0, limit) : t;
  }

  // ---- crawl rules -------------------------------------------------------------------------------
  // click, dont_click and click_once (statecrawl.config.Rules). A rule selects the elements for
  // which all it gives holds: a CSS selector, an XPath (evaluated in the element's own tree:
  // its document or the shadow root it lies in), its text or label (exact, or a pattern), an
  // attribute; on pages whose URL (the top page's) its url matches. Each document's agent
  // applies them to its own candidates, so they hold in frames as in the page.
  const xpathEvaluate = uncurry(Document.prototype.evaluate);
  const xpathItem = uncurry(XPathResult.prototype.snapshotItem);
  const xpathLength = getter(XPathResult.prototype, 'snapshotLength');
  const XPATH_SNAPSHOT = 7;  // XPathResult.ORDERED_NODE_SNAPSHOT_TYPE
  function compileRules(list) {
    return Arr.map(list || [], (r) => {
      const at = r.attribute == null ? -1 : Str.indexOf(r.attribute, '=');
      return {
        __proto__: null, css: r.css, xpath: r.xpath,
        text: r.text == null ? null : collapse(r.text, Infinity),
        textRe: r.textRegex ? pattern(r.textRegex) : null,
        attr: r.attribute == null ? null
          : at < 0 ? [r.attribute, null] : [Str.slice(r.attribute, 0, at), Str.slice(r.attribute, at + 1)],
        url: r.url ? pattern(r.url) : null,
      };
    });
  }
  const RULES = CONFIG.rules || {};
  const clickRules = compileRules(RULES.click);
  const dontClickRules = compileRules(RULES.dontClick);
  const onceRules = compileRules(RULES.clickOnce);
  // The rules as they hold on the page now: {active, out(els), dont(els), once(els)}, each
  // asked of an action's elements (the element, and a form's submit button).
  function ruleMatcher() {
    let page = location.href;
    try { page = window.top.location.href; } catch (e) { /* a cross-origin top: the frame's own */ }
    const here = (list) => Arr.filter(list, (r) => !r.url || Re.test(r.url, page));
    const click = here(clickRules);
    const dont = here(dontClickRules);
    const once = here(onceRules);
    const selected = new SafeMap();  // rule -> Map(tree root -> Set of the elements its XPath selects)
    function selects(rule, el) {
      const root = Dom.getRootNode(el);
      if (!selected.has(rule)) selected.set(rule, new SafeMap());
      const byRoot = selected.get(rule);
      if (!byRoot.has(root)) {
        const found = new SafeSet();
        // (a shadow root is no context node: one of its elements is, and '/' is the root)
        const context = root.nodeType === 9 ? root : selectOne(root, '*');
        try {
          const result = context && xpathEvaluate(document, rule.xpath, context, null, XPATH_SNAPSHOT, null);
          for (let i = 0; result && i < xpathLength(result); i++) found.add(xpathItem(result, i));
        } catch (e) { /* checked before the crawl: selects nothing */ }
        byRoot.set(root, found);
      }
      return byRoot.get(root).has(el);
    }
    function holds(rule, el) {
      if (rule.css != null) {
        let matched = false;
        try { matched = Dom.matches(el, rule.css); } catch (e) { matched = false; }
        if (!matched) return false;
      }
      if (rule.attr && (rule.attr[1] === null ? !Dom.hasAttribute(el, rule.attr[0])
        : Dom.getAttribute(el, rule.attr[0]) !== rule.attr[1])) return false;
      if (rule.xpath != null && !selects(rule, el)) return false;
      if (rule.text == null && !rule.textRe) return true;
      const texts = [collapse(textOf(el), Infinity), label(el)];
      if (rule.text != null && !Arr.includes(texts, rule.text)) return false;
      return !rule.textRe || Arr.some(texts, (t) => Re.test(rule.textRe, t));
    }
    const any = (list, els) => Arr.some(list, (r) => Arr.some(els, (el) => holds(r, el)));
    return {
      __proto__: null,
      active: click.length + dont.length + once.length > 0,
      out: (els) => any(dont, els) || (click.length > 0 && !any(click, els)),
      dont: (els) => any(dont, els),
      once: (els) => once.length > 0 && any(once, els),
    };
  }
  let ruledOut = 0;  // the candidates the last collection left out by a rule, frames' included

  // ---- shadow roots -------------------------------------------------------------------------------
  // Open roots are reachable through el.shadowRoot; closed ones only through this hook. Every
  // root is watched like the document, and its content is part of the state.
  const closedRoots = new SafeWeakMap();  // host -> closed shadow root
  const knownRoots = new SafeSet();       // roots seen so far, to serialize and watch
  const OBSERVED = { __proto__: null, subtree: true, childList: true, attributes: true, characterData: true };
  const nativeAttachShadow = Element.prototype.attachShadow;
  Element.prototype.attachShadow = function (...args) {
    const root = apply(nativeAttachShadow, this, args);
    try {
      if (root.mode === 'closed') closedRoots.set(this, root);
      watchRoot(root);
      if (briefRoot) briefRoot(root);
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
    const all = selectAll(root, '*');
    for (let i = 0; i < all.length; i++) {
      Arr.push(out, all[i]);
      const shadow = shadowOf(all[i]);
      if (shadow) elements(shadow, out);
    }
    return out;
  }
  function liveRoots() {  // the shadow roots in the document now, for serialization
    const out = [];
    knownRoots.forEach((root) => {
      if (root.host.isConnected) Arr.push(out, root); else knownRoots.delete(root);
    });
    return out;
  }
  function innerHTMLOf(el) {  // children, shadow content as declarative shadow DOM
    const roots = knownRoots.size ? liveRoots() : [];
    return roots.length && Dom.getHTML ? Dom.getHTML(el, { __proto__: null, shadowRoots: roots }) : Markup.inner(el);
  }
  // A locator: selectors joined by ' >>> ' step into shadow roots, by ' |> ' into frames.
  function query(loc) {
    let el = null;
    const inFrames = Str.split(toText(loc), ' |> ');
    for (let i = 0; i < inFrames.length; i++) {
      let scope = document;
      if (i > 0) {
        try { scope = el.contentDocument; } catch (e) { return null; }
      }
      const parts = Str.split(inFrames[i], ' >>> ');
      for (let j = 0; j < parts.length; j++) {
        if (!scope) return null;
        try { el = selectOne(scope, parts[j]); } catch (e) { return null; }
        if (!el) return null;
        scope = shadowOf(el);
      }
    }
    return el;
  }

  // ---- same-origin frames ------------------------------------------------------------------------
  // Each frame's document has an agent of its own; the top one asks those of same-origin
  // frames for their content, candidates and pending work, so a frame is part of the state.
  function frameAgents() {  // [[frame element, its agent's frame interface]]
    const out = [];
    const all = selectAll(document, 'iframe, frame');
    for (let i = 0; i < all.length && out.length < MAX_FRAMES; i++) {
      const asked = { __proto__: null, frame: null };
      try { if (all[i].contentWindow) signal(all[i].contentWindow, CHANNEL.frame, asked); } catch (e) { /* gone */ }
      if (asked.frame) Arr.push(out, [all[i], asked.frame]);
    }
    return out;
  }
  function framesQuietFor(t) {  // how long every frame has been idle (Infinity without frames)
    let quiet = Infinity;
    const frames = frameAgents();
    for (let i = 0; i < frames.length; i++) {
      try {
        const busy = frames[i][1].busy();
        quiet = min(quiet, busy.pending ? -1 : busy.quietFor);
      } catch (e) { /* a frame going away */ }
    }
    return quiet;
  }

  // ---- listeners ---------------------------------------------------------------------------------
  const listeners = new SafeWeakMap();  // target -> Map(type -> Map(handlerId -> count))
  const listening = new SafeSet();      // targets with pointer listeners (for delegation); weakly pruned
  const nativeAdd = EventTarget.prototype.addEventListener;
  const nativeRemove = EventTarget.prototype.removeEventListener;
  EventTarget.prototype.addEventListener = function (type, fn, options) {
    try {
      if (fn && type in POINTER_EVENTS) {
        let byType = listeners.get(this);
        if (!byType) { byType = new SafeMap(); listeners.set(this, byType); }
        let ids = byType.get(type);
        if (!ids) { ids = new SafeMap(); byType.set(type, ids); }
        const id = handlerId(fn);
        ids.set(id, (ids.get(id) || 0) + 1);
        listening.add(this);
      }
    } catch (e) { /* never break the page */ }
    return apply(nativeAdd, this, [type, fn, options]);
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
    return apply(nativeRemove, this, [type, fn, options]);
  };
  const ONCE = { __proto__: null, once: true };
  const EVENT_TYPES = keys(POINTER_EVENTS);
  const ON_NAMES = Arr.map(EVENT_TYPES, (type) => 'on' + type);

  // Map(event -> [handler ids]) for listeners, on* attributes and properties, and the
  // [type, handler] pairs a framework keeps for the element (``more``).
  // A framework's root dispatches for the framework: ``hooked`` false leaves its listeners out.
  function ownEvents(el, more = [], hooked = true) {
    const events = new SafeMap();
    const add = (type, id) => {
      const event = POINTER_EVENTS[type];
      if (!event) return;
      if (!events.has(event)) events.set(event, []);
      Arr.push(events.get(event), type + ':' + id);
    };
    const byType = hooked && listeners.get(el);
    if (byType) byType.forEach((ids, type) => ids.forEach((count, id) => add(type, id)));
    // An on* attribute whose property is no function (it did not compile) still names a
    // handler; most elements have no attribute at all, so their names are read once.
    let attributes = null;
    if (hooked && el.nodeType === 1 && Dom.hasAttributes(el)) {
      const names = Dom.getAttributeNames(el);
      for (let i = 0; i < names.length; i++) {
        if (Str.startsWith(names[i], 'on')) (attributes || (attributes = new SafeSet())).add(names[i]);
      }
    }
    for (let i = 0; hooked && i < EVENT_TYPES.length; i++) {
      const prop = el[ON_NAMES[i]];
      if (typeof prop === 'function') add(EVENT_TYPES[i], handlerId(prop));
      else if (attributes && attributes.has(ON_NAMES[i])) add(EVENT_TYPES[i], hash(Dom.getAttribute(el, ON_NAMES[i])));
    }
    for (let i = 0; i < more.length; i++) add(more[i][0], handlerId(more[i][1]));
    return events;
  }

  // ---- framework handlers ------------------------------------------------------------------------
  // Frameworks keep handlers where the addEventListener hook cannot name them: React on the
  // props of each element (it listens at the root), Preact and Vue in maps on the element,
  // Svelte 5 in delegated properties, jQuery (and Backbone through it) in its data, with the
  // selectors it delegates to.
  const ON = Re.pin(/^on/);
  const LISTEN_OPTIONS = Re.pin(/(Capture|Once|Passive)+$/);
  const PREACT_CAPTURE = Re.pin(/(true|false)$/);
  const REACT_HANDLER = /^on[A-Z]/;
  const JQUERY_KEY = /^jQuery\d+$/;
  function eventType(name) {  // 'onDoubleClickCapture' -> 'dblclick', 'onKeydown' -> 'keydown'
    const type = Str.toLowerCase(Re.replace(Re.replace(name, ON, ''), LISTEN_OPTIONS, ''));
    return type === 'doubleclick' ? 'dblclick' : type;
  }
  function functions(value) {
    return Arr.filter(isArray(value) ? value : [value], (fn) => typeof fn === 'function');
  }
  function frameworkHandlers(el) {  // [[type, handler]] the element's framework knows of
    const out = [];
    const give = (type, fns) => { for (let i = 0; i < fns.length; i++) Arr.push(out, [type, fns[i]]); };
    const own = keys(el);
    for (let i = 0; i < own.length; i++) {
      const k = own[i];
      const value = el[k];
      if (!value || (typeof value !== 'object' && typeof value !== 'function')) continue;
      if (Str.startsWith(k, '__reactProps$')) {  // React 17+
        const names = keys(value);
        for (let j = 0; j < names.length; j++) {
          const fn = value[names[j]];
          if (Re.test(REACT_HANDLER, names[j]) && typeof fn === 'function') give(eventType(names[j]), [fn]);
        }
      } else if (k === '_vei') {  // Vue 3 invokers: {onClick: invoker}, the handler in .value
        const names = keys(value);
        for (let j = 0; j < names.length; j++) {
          const invoker = value[names[j]];
          give(eventType(names[j]), functions(invoker && invoker.value));
        }
      } else if (k === 'l' && protoOf(value) === OBJECT_PROTO) {  // Preact
        const names = keys(value);
        for (let j = 0; j < names.length; j++) {
          const type = Str.toLowerCase(Re.replace(names[j], PREACT_CAPTURE, ''));
          if (type in POINTER_EVENTS) give(type, functions(value[names[j]]));
        }
      } else if (Str.startsWith(k, '__') && Str.slice(k, 2) in POINTER_EVENTS) {  // early Svelte 5
        give(Str.slice(k, 2), Arr.slice(functions(value), 0, 1));
      }
    }
    const symbols = ownSymbols(el);
    for (let i = 0; i < symbols.length; i++) {  // Svelte 5: el[Symbol('events')]
      const value = el[symbols[i]];
      if (symbolName(symbols[i]) !== 'events' || !value || typeof value !== 'object') continue;
      const types = keys(value);
      for (let j = 0; j < types.length; j++) {
        if (types[j] in POINTER_EVENTS) give(types[j], functions(value[types[j]]));
      }
    }
    return out;
  }
  // jQuery keeps its data on each element under an expando key ("jQuery" and digits), also
  // when it is bundled and has no global: {events: {type: [{handler, selector, origType}]}}.
  function jqueryEvents(target) {
    const own = keys(target);
    for (let i = 0; i < own.length; i++) {
      if (!Re.test(JQUERY_KEY, own[i])) continue;
      const events = target[own[i]] && target[own[i]].events;
      if (events && typeof events === 'object') return events;
    }
    return null;
  }
  function jqueryDelegated() {  // {handlers: Map(element -> [[type, handler]]), roots: Set}
    const handlers = new SafeMap();
    const roots = new SafeSet();
    const give = (el, pair) => {
      if (!handlers.has(el)) handlers.set(el, []);
      Arr.push(handlers.get(el), pair);
    };
    listening.forEach((t) => {
      if (t === window || !(t.nodeType === 1 || t.nodeType === 9)) return;
      const events = jqueryEvents(t);
      if (!events) return;
      const types = keys(events);
      for (let i = 0; i < types.length; i++) {
        const type = types[i];
        const list = isArray(events[type]) ? events[type] : [];
        for (let j = 0; j < list.length; j++) {
          const h = list[j];
          if (!h || typeof h.handler !== 'function') continue;
          const pair = [h.origType || type, h.handler];
          if (typeof h.selector !== 'string' || !h.selector) { if (t.nodeType === 1) give(t, pair); continue; }
          let matches;
          try { matches = selectAll(t, h.selector); } catch (e) { continue; }  // jQuery-only syntax
          roots.add(t.nodeType === 9 ? t.documentElement : t);
          Arr.forEach(matches, (el) => give(el, pair));
        }
      }
    });
    return { handlers, roots };
  }

  // ---- guard -------------------------------------------------------------------------------------
  // What a crawl may not do to a site it does not own (CONFIG.guard, null when off): a request
  // made while an action is fired is kept in when it deletes, drops, empties, resets or changes
  // a password (GUARD.words): a DELETE; a URL with such a word in its path, a query key, or a
  // query value other than a search's (q=delete is a search); and for any other method than
  // GET, such a word in its body or in the label, name, value or id of the element fired. A
  // form is judged before it is sent (its typed fields aside: they hold what the crawl typed);
  // links by their URL, before they are followed. GUARD.allow: URLs and labels let through.
  const GUARD = CONFIG.guard;
  const DESTRUCTIVE = GUARD && new NativeRegExp(GUARD.words, 'i');
  const ALLOWED = GUARD ? Arr.map(GUARD.allow, (p) => new NativeRegExp(p, 'i')) : [];
  const SEARCH_KEY = /^(q|s|query|search|term|terms|keywords?|text|find)$/i;
  const CAMEL = Re.pin(/([a-z])([A-Z])/g);
  const JOINED = Re.pin(/[_+]+/g);
  const TYPED = /^(text|search|email|url|tel|password|number|textarea)$/;
  const NativePromise = Promise;
  const NativeTypeError = TypeError;
  const NativeFormData = FormData;
  const NativeURLSearchParams = URLSearchParams;
  const formEntries = uncurry(FormData.prototype.entries);
  const uriDecode = decodeURIComponent;
  const guarded = [];  // why each request kept in since the last snapshot
  const unprompted = [];  // likewise, for the writes the page sent with no action of the crawl's
  const STORES = /^(PUT|PATCH|DELETE)$/;  // methods that always store, change or delete
  let firingWords = '';  // the label, name, value and id of the element being fired
  function destructive(text) {  // the first destructive word of text, identifiers split, or null
    if (!text) return null;
    const found = Re.exec(DESTRUCTIVE, Re.replace(Re.replace(toText(text), CAMEL, '$1 $2'), JOINED, ' '));
    return found ? found[0] : null;
  }
  const allowed = (text) => Arr.some(ALLOWED, (re) => Re.test(re, text));
  function decoded(text) {
    try { return uriDecode(text); } catch (e) { return text; }
  }
  function pairsWhy(pairs) {  // a destructive key or value of [key, value, judged] triples
    for (let i = 0; i < pairs.length; i++) {
      const found = destructive(pairs[i][0]) || (pairs[i][2] && destructive(pairs[i][1]));
      if (found) return found;
    }
    return null;
  }
  function queryPairs(search) {  // [key, value, judged] of a query string: a search's value is not
    const out = [];
    const parts = Str.split(Str.startsWith(search, '?') ? Str.slice(search, 1) : search, '&');
    for (let i = 0; i < parts.length; i++) {
      if (!parts[i]) continue;
      const at = Str.indexOf(parts[i], '=');
      const key = decoded(at < 0 ? parts[i] : Str.slice(parts[i], 0, at));
      Arr.push(out, [key, at < 0 ? '' : decoded(Str.slice(parts[i], at + 1)), !Re.test(SEARCH_KEY, key)]);
    }
    return out;
  }
  function urlWhy(url, extra) {  // the destructive word of a GET of url (and form pairs extra), or null
    let parsed;
    try { parsed = new NativeURL(url, location.href); } catch (e) { return null; }
    return destructive(decoded(parsed.pathname)) || pairsWhy(Arr.concat(queryPairs(parsed.search), extra || []));
  }
  function bodyText(body) {  // what a script's request body says, where it can be read at once
    if (typeof body === 'string') return body;
    if (body instanceof NativeURLSearchParams) return toText(body);
    if (!(body instanceof NativeFormData)) return '';
    const out = [];
    const it = formEntries(body);
    for (let r = it.next(); !r.done; r = it.next()) Arr.push(out, r.value[0] + '=' + (typeof r.value[1] === 'string' ? r.value[1] : ''));
    return Arr.join(out, '&');
  }
  // Why a request made now is kept in, or null. A request is the action's when the action is
  // being fired and it comes from no interval and no timer chain begun before (an autosave an
  // earlier action set going); a PUT, PATCH or DELETE is kept in whoever sent it.
  function requestWhy(method, url, body) {
    if (!GUARD) return null;
    const verb = Str.toUpperCase(toText(method || 'GET'));
    const stores = Re.test(STORES, verb);
    const mine = phase === 'firing' && !unasked && (chainOrigin === null || chainOrigin >= fireStart);
    if (!mine && !stores) return null;
    let target;
    try { target = new NativeURL(toText(url), location.href).href; } catch (e) { return null; }
    if (allowed(target) || (mine && allowed(firingWords))) return null;
    const found = stores ? verb : urlWhy(target)
      || (verb !== 'GET' && verb !== 'HEAD' && (destructive(body) || destructive(firingWords)));
    if (!found) return null;
    const why = verb + ' ' + target + ': ' + found;
    Arr.push(mine ? guarded : unprompted, why);
    return why;
  }
  function formPairs(form, submitter) {  // [name, value, judged] of what submitting form sends
    const pairs = [];
    Arr.forEach(selectAll(form, 'input, select, textarea'), (el) => {
      const name = Dom.getAttribute(el, 'name');
      if (!name || el.disabled || Re.test(/^(submit|image|button|reset)$/, el.type)) return;
      if ((el.type === 'checkbox' || el.type === 'radio') && !el.checked) return;
      Arr.push(pairs, [name, toText(el.value), !Re.test(TYPED, el.localName === 'textarea' ? 'textarea' : el.type)]);
    });
    const name = submitter && Dom.getAttribute(submitter, 'name');
    if (name) Arr.push(pairs, [name, toText(submitter.value), true]);
    return pairs;
  }
  function formWhy(form, submitter) {  // why submitting form is kept in, or null
    if (!GUARD || phase !== 'firing') return null;
    // (attributes: a field named "action" or "method" shadows the form's properties)
    const attr = (name) => (submitter && Dom.getAttribute(submitter, 'form' + name)) || Dom.getAttribute(form, name);
    const verb = Str.toUpperCase(attr('method') || 'get');
    if (verb === 'DIALOG') return null;
    const pairs = formPairs(form, submitter);
    let target;
    try { target = new NativeURL(attr('action') || location.href, location.href).href; } catch (e) { return null; }
    if (verb !== 'GET') {
      const body = Arr.join(Arr.map(pairs, (p) => (p[2] ? p[0] + '=' + p[1] : p[0])), '&');
      return requestWhy(verb, target, body + ' ' + (submitter ? label(submitter) + ' ' + elementWords(submitter) : ''));
    }
    if (allowed(target) || allowed(firingWords)) return null;
    const found = urlWhy(target, Arr.map(pairs, (p) => [p[0], p[1], p[2] && !Re.test(SEARCH_KEY, p[0])]));
    if (!found) return null;
    const why = 'GET ' + target + ': ' + found;
    Arr.push(guarded, why);
    return why;
  }
  function elementWords(el) {  // the words an element says what it does by, besides its label
    if (el.nodeType !== 1) return '';  // (the window, for scrolling)
    return Arr.join(Arr.map(['name', 'value', 'id', 'title', 'aria-label'], (a) => Dom.getAttribute(el, a) || ''), ' ');
  }
  function linkWhy(url) {  // why following a link is kept in, or null
    if (!GUARD) return null;
    const found = !allowed(url) && urlWhy(url);
    return found ? 'GET ' + url + ': ' + found : null;
  }

  // ---- pending network and timers -------------------------------------------------------------
  let pendingNet = 0;
  let pendingTimers = 0;
  let lastActivity = now();
  const touch = () => { lastActivity = now(); };
  // A page still adding elements (a search's results shown one by one by a timer chain, each
  // fetching its summary) is still being built: the timers of a chain that adds them stay
  // pending work past CHAIN_MS, and the settle timeout waits while the page grows, until
  // growthTimeoutMs passed. A state taken halfway would be another at each visit. Only growth
  // counts (see grows): a clock, a spinner or a list re-rendered in place adds nothing.
  const GROWING_MS = 500;  // the page grew this recently: it is still being built
  let grewAt = -Infinity;
  const chainGrewAt = new SafeMap();  // a chain's origin -> when a callback of it last grew the page
  const growing = (since) => now() - grewAt < GROWING_MS && now() - since < CONFIG.growthTimeoutMs;
  const chainGrowing = (origin, ms) => now() - (chainGrewAt.get(origin) ?? -Infinity) < GROWING_MS
    && now() - origin + ms <= CONFIG.growthTimeoutMs;
  // Frames drawn since the last activity: a second frame's start comes after the first, which
  // holds the page as it is now, was drawn, so a picture copied from the compositor then (a
  // thumbnail) shows the page as it is. A settle asks for them without waiting (``framing``);
  // the ``drawn`` call waits until two were drawn (or FRAME_WAIT_MS passed: a page that draws
  // none, hidden, is not waited for).
  // A scroll is a change too, though no activity (the page need not settle again): one of
  // the window's is seen at once by where it is, one of a box's by its scroll event, which
  // comes with the next frame (a box scrolled by a script the crawl does not run, just
  // before a picture, may be shown where it was).
  const FRAME_WAIT_MS = 100;
  let framesSince = 0;
  let framedFrom = '';  // the activity and the scroll the frames counted are since
  let frameAsked = false;
  let scrolls = 0;
  Dom.addEventListener(window, 'scroll', () => { scrolls++; }, { __proto__: null, capture: true, passive: true });
  function framing() {  // ask for frames until two were drawn since the last activity or scroll
    const from = lastActivity + ' ' + window.scrollX + ' ' + window.scrollY + ' ' + scrolls;
    if (framedFrom !== from) { framedFrom = from; framesSince = 0; }
    if (frameAsked || framesSince >= 2) return framesSince >= 2;
    frameAsked = true;
    rAF(() => { frameAsked = false; framesSince++; framing(); });
    return false;
  }
  const netDone = () => { pendingNet = max(0, pendingNet - 1); touch(); };
  const counting = (promise) => then(promise, (v) => { netDone(); return v; }, (e) => { netDone(); throw e; });

  const xhrOpen = XMLHttpRequest.prototype.open;
  const xhrSend = XMLHttpRequest.prototype.send;
  const opened = new SafeWeakMap();  // XMLHttpRequest -> [method, URL]
  XMLHttpRequest.prototype.open = function (...args) {
    opened.set(this, [args[0], args[1]]);
    return apply(xhrOpen, this, args);
  };
  XMLHttpRequest.prototype.send = function (...args) {
    const request = opened.get(this);
    if (request && requestWhy(request[0], request[1], bodyText(args[0]))) {
      const xhr = this;  // kept in: it fails as a network error does
      nativeSetTimeout(() => {
        Dom.dispatchEvent(xhr, new NativeEvent('error'));
        Dom.dispatchEvent(xhr, new NativeEvent('loadend'));
      }, 0);
      return undefined;
    }
    pendingNet++;
    touch();
    Dom.addEventListener(this, 'loadend', netDone, ONCE);
    try { return apply(xhrSend, this, args); } catch (e) { netDone(); throw e; }
  };
  if (window.fetch) {
    const nativeFetch = window.fetch;
    window.fetch = function (...args) {
      const asked = args[0] instanceof Request ? args[0] : null;
      const init = args[1] || {};
      if (requestWhy(init.method || (asked ? asked.method : 'GET'), asked ? asked.url : args[0], bodyText(init.body))) {
        return new NativePromise((_, reject) => reject(new NativeTypeError('kept in by the crawl\'s guard')));
      }
      pendingNet++;
      touch();
      let promise;
      try { promise = apply(nativeFetch, this, args); } catch (e) { netDone(); throw e; }
      return counting(promise);
    };
    // Reading a response body is network work too: the page renders once it has the body.
    const READS = ['json', 'text', 'arrayBuffer', 'blob', 'formData'];
    for (let i = 0; i < READS.length; i++) {
      const read = Response.prototype[READS[i]];
      if (!read) continue;
      Response.prototype[READS[i]] = function (...args) {
        pendingNet++;
        touch();
        return counting(apply(read, this, args));
      };
    }
  }

  if (Navigator.prototype.sendBeacon) {
    const beacon = Navigator.prototype.sendBeacon;
    Navigator.prototype.sendBeacon = function (...args) {
      return requestWhy('POST', args[0], bodyText(args[1])) ? false : apply(beacon, this, args);
    };
  }

  // Short timers count as pending work, but only a few generations deep or for CHAIN_MS
  // after the chain began, so a polling loop (a timer that re-arms itself forever) cannot keep
  // the page from settling, while a scripted fade of a few hundred milliseconds (a chain of a
  // dozen frames, then the content it fades in) is waited for. A chain is the work a callback
  // set going: its origin is when the first callback of it was scheduled. A longer timer (up
  // to longTimerMs: a widget shown a second later) counts only when the page or the action
  // set it (not a timer, an interval or a long chain), and only until one such has run since
  // the action: a loop that polls through fetch and a long timer holds a settle once at most.
  const timers = new SafeMap();  // id -> true while pending
  let timerGeneration = 0;
  let chainOrigin = null;  // while a timer or frame callback runs: when its chain began
  const young = (origin, ms) => now() - origin + ms <= CHAIN_MS || chainGrowing(origin, ms);
  let longTimerRan = false;  // a counted long timer ran since the last action was fired
  window.setTimeout = function (fn, delay) {
    const ms = toNumber(delay) || 0;
    const generation = timerGeneration + 1;
    const origin = chainOrigin === null ? now() : chainOrigin;
    const long = ms > CONFIG.timerMs;
    const counted = typeof fn === 'function' && (long
      ? ms <= CONFIG.longTimerMs && generation === 1 && !longTimerRan
      : generation <= CHAIN || young(origin, ms));
    let id;
    const args = Arr.from(arguments);
    if (typeof fn === 'function') {
      args[0] = function (...a) {
        if (counted && timers.delete(id)) { pendingTimers--; touch(); if (long) longTimerRan = true; }
        const saved = timerGeneration;
        const savedOrigin = chainOrigin;
        timerGeneration = generation;
        chainOrigin = origin;
        try {
          return chained(fn, this, a, origin, generation > CHAIN && !counted);
        } finally { timerGeneration = saved; chainOrigin = savedOrigin; }
      };
    }
    id = apply(nativeSetTimeout, null, args);
    if (counted) { timers.set(id, true); pendingTimers++; }
    return id;
  };
  window.clearTimeout = function (id) {
    if (timers.delete(id)) pendingTimers--;
    return nativeClearTimeout(id);
  };
  // What intervals and long callback chains change, changes with no user action: volatile.
  const nativeSetInterval = window.setInterval.bind(window);
  window.setInterval = function (fn) {
    const args = Arr.from(arguments);
    if (typeof fn === 'function') args[0] = function (...a) { return spontaneously(fn, this, a); };
    return apply(nativeSetInterval, null, args);
  };
  // Animation frames are pending work too, as timers are (a render on the next frame, a fade).
  let frameGeneration = 0;
  const pendingFrames = new SafeSet();
  window.requestAnimationFrame = function (fn) {
    const generation = frameGeneration + 1;
    const origin = chainOrigin === null ? now() : chainOrigin;
    const counted = typeof fn === 'function' && (generation <= CHAIN || young(origin, 0));
    const id = rAF((t) => {
      if (counted && pendingFrames.delete(id)) { pendingTimers--; touch(); }
      const saved = frameGeneration;
      const savedOrigin = chainOrigin;
      frameGeneration = generation;
      chainOrigin = origin;
      try {
        return chained(fn, window, [t], origin, generation > CHAIN && !counted);
      } finally { frameGeneration = saved; chainOrigin = savedOrigin; }
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
      return apply(observe, this, args);
    };
  }

  // ---- CSS animations and transitions -----------------------------------------------------------
  // Animations last a millisecond and transitions do not run (a style change takes effect at
  // once; a 1 ms transition would make every style change of every element one, their
  // default duration being 0 s for all properties), in the document and in every shadow
  // root, and an animation a script starts (``el.animate``, as web-component kits run theirs)
  // lasts a millisecond an iteration too; a page settles once the animations running have
  // ended (``browser.animations = "page"`` leaves all of them at the page's own pace). A kit
  // waits for an overlay's enter or leave animation to end (animationend, transitionend, or
  // a timer as long as the computed duration) before it puts
  // the DOM in its end state: at the page's own pace, hundreds of ms an action for the same
  // end state, and a snapshot taken before it is half-way. Kits take a 0 s duration as no
  // transition, as they do for users who ask for reduced motion. An animation's delay is kept:
  // what a page shows for a while before it fades (a toast) is still shown when the page has
  // settled. The sheet is adopted, so no snapshot holds it, and is put back when the page
  // replaces the document's adopted sheets.
  const BRIEF = new CSSStyleSheet();
  BRIEF.replaceSync('*, *::before, *::after, *::backdrop { animation-duration: 1ms !important; '
    + 'transition-duration: 0s !important; transition-delay: 0s !important; }');
  const withBrief = (sheets) => (Arr.includes(sheets, BRIEF) ? sheets : Arr.concat(sheets, [BRIEF]));
  // Adopts the sheet into ``root`` and keeps it there when the page replaces the root's
  // adopted sheets (``mine``: which roots of the prototype's kind are the crawler's to brief).
  function briefAdopted(proto, mine) {
    const adopted = ownDescriptor(proto, 'adoptedStyleSheets');
    if (!adopted || !adopted.set) return null;
    const setAdopted = uncurry(adopted.set);
    defineProperty(proto, 'adoptedStyleSheets', {
      __proto__: null, configurable: true, enumerable: adopted.enumerable, get: adopted.get,
      set(sheets) { setAdopted(this, mine(this) && isArray(sheets) ? withBrief(sheets) : sheets); },
    });
    return (root) => setAdopted(root, withBrief(Arr.from(apply(adopted.get, root, []))));
  }
  let briefRoot = null;  // adopts the sheet into a new shadow root (null: animations at page pace)
  if (CONFIG.briefAnimations) {
    const briefDocument = briefAdopted(Document.prototype, (root) => root === document);
    if (briefDocument) briefDocument(document);
    briefRoot = briefAdopted(ShadowRoot.prototype, () => true);
    const nativeAnimate = Element.prototype.animate;
    Element.prototype.animate = function (keyframes, options) {
      try {
        if (typeof options === 'number') options = min(options, 1);
        else if (options && typeof options === 'object' && typeof options.duration === 'number') {
          options = assign({}, options, { duration: min(options.duration, 1) });
        }
      } catch (e) { /* never break the page */ }
      return apply(nativeAnimate, this, [keyframes, options]);
    };
  }
  // A finite animation that ends within timer_ms (a delayed one may wait longer: a toast's
  // fade) is pending work, as a short timer is; an infinite one never ends and is not.
  // (A document's animations leave out those of its shadow trees: each root is asked too.)
  const documentAnimations = uncurry(Document.prototype.getAnimations);
  const rootAnimations = uncurry(ShadowRoot.prototype.getAnimations);
  const playState = getter(Animation.prototype, 'playState');
  const effectOf = getter(Animation.prototype, 'effect');
  const computedTiming = uncurry(AnimationEffect.prototype.getComputedTiming);
  function animating() {
    let all = documentAnimations(document);
    if (knownRoots.size) Arr.forEach(liveRoots(), (root) => { all = Arr.concat(all, rootAnimations(root)); });
    for (let i = 0; i < all.length; i++) {
      const effect = playState(all[i]) === 'running' && effectOf(all[i]);
      const timing = effect && computedTiming(effect);
      if (!timing || !finite(timing.endTime)) continue;
      if (timing.localTime == null || timing.endTime - timing.localTime <= CONFIG.timerMs) return true;
    }
    return false;
  }

  // ---- dialogs and popups ----------------------------------------------------------------------
  const dialogs = [];
  const popups = [];
  // What a frame's page does is reported to the top page's agent, which the crawler reads.
  function note(kind, item) {
    let told = false;
    try { told = window.top !== window && signal(window.top, CHANNEL.note, { kind, item }); } catch (e) { told = false; }
    if (!told) Arr.push(noted(kind), item);
  }
  function noted(kind) {  // the list a dialog, popup, blocked navigation or download goes into
    const lists = { __proto__: null, dialog: dialogs, blocked, saving };
    return lists[kind] || popups;
  }
  const accept = CONFIG.dialogs !== 'dismiss';
  window.alert = (message) => { note('dialog', { type: 'alert', message: toText(message) }); };
  window.confirm = (message) => {
    note('dialog', { type: 'confirm', message: toText(message) });
    return accept;
  };
  window.prompt = (message, value) => {
    note('dialog', { type: 'prompt', message: toText(message) });
    return accept ? (value ?? '') : null;
  };
  window.open = (url) => {
    if (url) note('popup', new NativeURL(toText(url), location.href).href);
    return null;
  };
  // A link that would open another window is recorded instead (runs after the page's own
  // click handlers, so a handler that cancels the click wins).
  const SAME_WINDOW = /^(_self|_top|_parent)?$/i;
  Dom.addEventListener(window, 'click', (e) => {
    const a = e.target && e.target.nodeType === 1 && Dom.closest(e.target, 'a[href][target], area[href][target]');
    if (!a || defaultPrevented(e) || Re.test(SAME_WINDOW, a.target)) return;
    Dom.preventDefault(e);
    note('popup', a.href);
  });

  // ---- paths ------------------------------------------------------------------------------------
  // A volatile node is named by its nearest id-bearing ancestor and the tag.class chain below it,
  // so the name survives list insertions; statecrawl.models computes the same name in Python.
  // A class that marks where the focus is names nothing (statecrawl.models.dom.FOCUS_CLASS).
  const FOCUS_CLASS = /(?:^|[-_])(?:is-|has-)?focus(?:ed|-?visible|-within)?$/i;
  function step(el) {
    const classes = Arr.sort(Arr.filter(Arr.from(el.classList || []), (c) => !Re.test(FOCUS_CLASS, c)));
    return el.localName + (classes.length ? '.' + Arr.join(classes, '.') : '');
  }
  // A shadow root is a <template> step below its host, as in the serialized snapshot. An id
  // made up per page view anchors nothing (statecrawl.models.dom.GENERATED_ID).
  const GENERATED_ID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{16,}|\d{13,}|(?=[a-z]*\d)(?=\d*[a-z])[a-z\d]{10,}|-[0-9a-f]{6,8}$/i;
  const anchors = (node) => node.id && !Re.test(GENERATED_ID, node.id);
  function anchoredPath(el) {
    const parts = [];
    for (let node = el; node && node.nodeType === 1;) {
      if (anchors(node)) { Arr.push(parts, '#' + node.id); break; }
      Arr.push(parts, step(node));
      if (!node.parentElement && node.parentNode && node.parentNode.host) Arr.push(parts, 'template');
      node = parentOf(node);
    }
    return Arr.join(reversed(parts), '/');
  }
  function reversed(list) {
    const out = [];
    for (let i = list.length - 1; i >= 0; i--) Arr.push(out, list[i]);
    return out;
  }
  function nodePath(node) {  // childNodes indexes in the snapshot, for replaying frames
    const path = [];
    while (node && node.parentNode) {
      const parent = node.parentNode;
      const index = Arr.indexOf(parent.childNodes, node);
      // A host's shadow root is serialized as its first child.
      Arr.push(path, parent.nodeType === 1 && shadowOf(parent) ? index + 1 : index);
      node = parent;
    }
    return reversed(path);
  }
  function locator(el) {  // a selector, prefixed by its host's locator inside a shadow root
    const root = Dom.getRootNode(el);
    const inner = localLocator(el, root);
    return root.host ? locator(root.host) + ' >>> ' + inner : inner;
  }
  function localLocator(el, root) {
    const parts = [];
    for (let node = el; node && node.nodeType === 1; node = node.parentElement) {
      if (node.id && selectAll(root, '#' + cssEscape(node.id)).length === 1) {
        Arr.push(parts, '#' + cssEscape(node.id));
        break;
      }
      if (node === document.documentElement) { Arr.push(parts, 'html'); break; }
      let index = 1;
      for (let sib = node.previousElementSibling; sib; sib = sib.previousElementSibling) {
        if (sib.localName === node.localName) index++;
      }
      Arr.push(parts, node.localName + ':nth-of-type(' + index + ')');
    }
    return Arr.join(reversed(parts), ' > ');
  }

  // ---- mutations: frames while firing, volatility while idle ---------------------------------
  let phase = 'loading';  // loading | firing | idle | leaving
  let frames = null;
  let fireStart = 0;
  const volatileCounts = new SafeMap();  // "path|kind" -> count
  const volatile = new SafeSet();

  function learnVolatile(records, spontaneous) {
    const seen = new SafeSet();
    for (let i = 0; i < records.length; i++) {
      const r = records[i];
      const el = r.target.nodeType === 1 ? r.target : r.target.parentElement;
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
    const targets = new SafeMap();  // node -> op
    for (let i = 0; i < records.length; i++) {
      const r = records[i];
      const node = r.target;
      if (!node.isConnected) continue;
      const host = outerHost(node);
      if (host) targets.set(host, { k: 'html' });  // shadow content: its host's whole markup
      else if (r.type === 'childList') targets.set(node, { k: 'html' });
      else if (r.type === 'characterData') { if (!targets.has(node)) targets.set(node, { k: 'text' }); }
      else if (!targets.has(node) || targets.get(node).k === 'attr') {
        const op = targets.get(node) || { k: 'attr', names: new SafeSet() };
        op.names.add(r.attributeName);
        targets.set(node, op);
      }
    }
    const ops = [];
    targets.forEach((op, node) => {
      for (let a = node.parentNode; a; a = a.parentNode) {
        const other = targets.get(a);
        if (other && other.k === 'html') return;  // covered
      }
      const p = nodePath(node);
      if (op.k === 'html') {
        Arr.push(ops, node.nodeType === 9
          ? { p, k: 'html', v: Markup.outer(document.documentElement) }
          : { p, k: 'html', v: innerHTMLOf(node) });
      } else if (op.k === 'text') {
        Arr.push(ops, { p, k: 'text', v: node.data });
      } else {
        op.names.forEach((name) => Arr.push(ops, { p, k: 'attr', n: name, v: Dom.getAttribute(node, name) }));
      }
    });
    Arr.sort(ops, (a, b) => a.p.length - b.p.length);
    if (ops.length) Arr.push(frames, { t: round(now() - fireStart), ops });
  }
  function outerHost(node) {  // the outermost shadow host above node, if it is in a shadow tree
    let host = null;
    for (let root = Dom.getRootNode(node); root.host; root = Dom.getRootNode(root.host)) host = root.host;
    return host;
  }
  let knownVolatile = new SafeSet();  // names the crawler learned, from this page or others
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
  // A dialog that closes fires its close event in a task of its own, and the page's listener
  // shows what closing did: until that event (or CLOSE_MS), the page is not settled.
  // (It is heard at the dialog, which a page may have taken out of the document by then,
  // and at the window first, before a listener of the dialog's can stop it.)
  const CLOSE_MS = 500;
  let closing = 0;
  const closed = (r) => r.attributeName === 'open' && r.target.localName === 'dialog'
    && !Dom.hasAttribute(r.target, 'open');
  const heard = (e) => {
    if (e.target && e.target.localName === 'dialog') { closing = 0; touch(); }
  };
  Dom.addEventListener(window, 'close', heard, true);
  function grows(records) {  // whether mutation records add more elements than they remove
    let net = 0;
    Arr.forEach(records, (r) => {
      if (r.type !== 'childList') return;
      for (let i = 0; i < r.addedNodes.length; i++) if (r.addedNodes[i].nodeType === 1) net++;
      for (let i = 0; i < r.removedNodes.length; i++) if (r.removedNodes[i].nodeType === 1) net--;
    });
    return net > 0;
  }
  function onMutations(records, spontaneous) {  // returns whether they grew the page
    if (!records.length) return false;
    Arr.forEach(records, (r) => {
      if (!closed(r)) return;
      closing = now();
      Dom.addEventListener(r.target, 'close', heard, ONCE);
    });
    if (spontaneous || phase === 'idle') learnVolatile(records, spontaneous);
    // Mutations of known-volatile nodes (a ticking clock) do not keep the page from settling.
    if (Arr.some(records, (r) => !isVolatile(r))) touch();
    const grew = grows(records);  // (volatile or not: a list may be learned so)
    if (grew) grewAt = now();
    if (phase === 'firing' && frames) recordFrame(records);
    return grew;
  }
  let unasked = 0;  // while a callback of no action runs (an interval, a long timer chain)
  function spontaneously(fn, self, args, origin = null) {  // (a long timer it sets is no pending work)
    onMutations(observer.takeRecords(), false);
    const saved = timerGeneration;
    timerGeneration = max(saved, 1);
    unasked++;
    try { return apply(fn, self, args); } finally {
      unasked--;
      timerGeneration = saved;
      ran(origin, true);
    }
  }
  // A timer's or frame's callback in the chain begun at origin (alone: no pending work).
  function chained(fn, self, args, origin, alone) {
    if (alone) return spontaneously(fn, self, args, origin);
    try { return apply(fn, self, args); } finally { ran(origin, false); }
  }
  function ran(origin, spontaneous) {  // a callback ran: what it changed, and whether it grew the page
    if (!onMutations(observer.takeRecords(), spontaneous) || origin === null) return;
    if (chainGrewAt.size > 64) chainGrewAt.forEach((_, key) => chainGrewAt.delete(key));
    chainGrewAt.set(origin, now());
  }
  const observer = new Observer((records) => onMutations(records, false));
  observer.observe(document, OBSERVED);

  // ---- navigation ------------------------------------------------------------------------------
  let leavingTo = null;
  const blocked = [];
  const saving = [];  // the downloads the page asked for since the last snapshot: [URL, name]
  let onLeave = null;
  // A form submission navigates in a task of its own, after the submit event: until that
  // navigation starts (or a second passes), the page is not settled.
  let submitting = 0;
  Dom.addEventListener(window, 'submit', (e) => {
    microtask(() => {
      if (!defaultPrevented(e) && (e.target.method || 'get') !== 'dialog') submitting = now();
    });
  });
  Dom.addEventListener(window, 'submit', (e) => {
    if (formWhy(e.target, e.submitter)) Dom.preventDefault(e);
  }, true);
  const nativeSubmit = HTMLFormElement.prototype.submit;
  HTMLFormElement.prototype.submit = function (...args) {
    if (formWhy(this, null)) return undefined;
    submitting = now();
    return apply(nativeSubmit, this, args);
  };
  if (window.navigation) {
    Dom.addEventListener(navigation, 'navigate', (e) => {
      const submitted = submitting;  // (a form was judged as it was submitted)
      submitting = 0;
      const url = e.destination.url;
      if (!submitted && !e.formData && e.cancelable && requestWhy('GET', url, '')) {
        Dom.preventDefault(e);
        return;
      }
      if (e.destination.sameDocument) return;
      // A download (<a download>, a script's blob) leaves the page where it is: the crawler
      // keeps what it saves (statecrawl.download).
      // The crawler is told, as the browser may begin it after the snapshot.
      if (typeof e.downloadRequest === 'string' && (Re.test(/^blob:/, url) || inScope(url))) {
        note('saving', [url, e.downloadRequest]);
        return;
      }
      if (!inScope(url)) {
        note('blocked', url);  // a frame's too: the state is the top page's
        if (e.cancelable) Dom.preventDefault(e);
        return;
      }
      leavingTo = { url, method: e.formData ? 'POST' : 'GET' };
      if (listeners.get(window)?.has('beforeunload') || typeof window.onbeforeunload === 'function') {
        Arr.push(dialogs, { type: 'beforeunload', message: '' });
      }
      phase = 'leaving';
      if (onLeave) onLeave();
    });
  }

  // ---- candidates ------------------------------------------------------------------------------
  const VISIBILITY = { __proto__: null, checkOpacity: true, checkVisibilityCSS: true };
  const RENDERED = { __proto__: null, checkVisibilityCSS: true };
  function shown(el, how) {  // a box on screen, seen (VISIBILITY) or only laid out (RENDERED)
    if (!el.isConnected) return false;
    if (Dom.checkVisibility && !Dom.checkVisibility(el, how)) return false;
    const r = Dom.getBoundingClientRect(el);
    return r.width > 0 && r.height > 0;
  }
  const visible = (el) => shown(el, VISIBILITY);

  // ---- reach: what a user's pointer can reach ------------------------------------------------
  // An element is actionable when a hit test at its box (the centre, then four inset corners)
  // finds it or a descendant: opacity does not stop a pointer, an element laid over it does (a
  // modal's backdrop, a banner), and elementFromPoint passes through pointer-events: none.
  // A hit test costs a fraction of a millisecond, so only elements in doubt get one: those
  // only laid out (opacity 0), and those under a layer that a probe of the viewport found (a
  // fixed or sticky element, or a positioned one with a z-index). An element out of view (or
  // scrolled away in a box) is tested against what a scroll would bring over it, the fixed
  // layer over the viewport's middle, with no scrolling: a scroll, even one undone at once,
  // runs the page's scroll listeners. Results hold for one collection of candidates.
  let reached = new SafeMap();  // element -> null (reached) or what covers it
  let probed = null;            // {layers: [[element, box]], middle}: what lies over the viewport
  function freshReach() {
    reached = new SafeMap();
    probed = null;
  }
  function hitAt(el, x, y) {  // the topmost element at (x, y) in el's own tree (a shadow root's)
    const root = Dom.getRootNode(el);
    const at = POINT[root.nodeType];
    return at ? at(root, x, y) : null;
  }
  function hitPoints(r) {
    const dx = min(3, r.width / 4);
    const dy = min(3, r.height / 4);
    return [
      [r.left + r.width / 2, r.top + r.height / 2], [r.left + dx, r.top + dy],
      [r.right - dx, r.top + dy], [r.left + dx, r.bottom - dy], [r.right - dx, r.bottom - dy],
    ];
  }
  function layer(node) {  // the element above node (or node) that may lie over other content
    for (let n = node; n && n !== document.body; n = parentOf(n)) {
      const style = computedStyle(n);
      const position = style.position;
      if (position === 'fixed' || position === 'sticky') return n;
      if (position === 'absolute' && style.zIndex !== 'auto') return n;
    }
    return null;
  }
  // The probe: hit tests at 15 points of the viewport (its edges, where headers and banners
  // are, and its middle, where a backdrop is), and a modal dialog, which makes all else inert.
  const PROBE = [0.02, 0.25, 0.5, 0.75, 0.98];
  function probe() {
    if (probed) return probed;
    const layers = [];
    let middle = null;
    const give = (el) => {
      if (!Arr.some(layers, (l) => l[0] === el)) Arr.push(layers, [el, Dom.getBoundingClientRect(el)]);
    };
    let modal = null;
    try { modal = selectOne(document, ':modal'); } catch (e) { modal = null; }
    for (let i = 0; i < PROBE.length; i++) {
      for (let j = 0; j < 3; j++) {
        const x = window.innerWidth * (0.1 + 0.4 * j);
        const hit = POINT[9](document, x, window.innerHeight * PROBE[i]);
        const found = hit && layer(hit);
        if (!found) continue;
        give(found);
        if (i === 2 && j === 1 && computedStyle(found).position === 'fixed') middle = found;
      }
    }
    if (modal) { give(modal); middle = modal; }
    probed = { layers, middle, modal };
    return probed;
  }
  function inDoubt(el, r) {  // a layer may lie over el's box
    const p = probe();
    if (p.modal && !deepContains(p.modal, el)) return true;
    return Arr.some(p.layers, (l) => !deepContains(l[0], el) && !deepContains(el, l[0])
      && l[1].left < r.right && r.left < l[1].right && l[1].top < r.bottom && r.top < l[1].bottom);
  }
  function afterScroll(el) {  // what covers el once scrolled to the viewport's middle, or null
    const over = probe().middle;
    return over && !deepContains(over, el) ? over : null;
  }
  function clipped(el, x, y) {  // (x, y) is outside a box above el that clips its overflow
    for (let node = parentOf(el); node && node !== document.documentElement; node = parentOf(node)) {
      if (node.scrollHeight <= node.clientHeight && node.scrollWidth <= node.clientWidth) continue;
      const r = Dom.getBoundingClientRect(node);
      const outside = x < r.left || x > r.right || y < r.top || y > r.bottom;
      if (outside && computedStyle(node).overflow !== 'visible') return true;
    }
    return false;
  }
  function scrollsToMiddle(y) {  // a scroll of the document can bring viewport height y to the middle
    const root = document.scrollingElement || document.documentElement;
    const to = window.scrollY + y - window.innerHeight / 2;
    return to >= 0 && to <= root.scrollHeight - window.innerHeight;
  }
  function hitTest(el) {
    const r = Dom.getBoundingClientRect(el);
    if (!(r.width > 0 && r.height > 0)) return el;  // nothing to point at
    const points = hitPoints(r);
    const middle = points[0];
    const inView = (x, y) => x >= 0 && y >= 0 && x < window.innerWidth && y < window.innerHeight;
    if (!Arr.some(points, (pt) => inView(pt[0], pt[1]))) return afterScroll(el);
    if (visible(el) && !inDoubt(el, r)) return null;
    let top = null;
    for (let i = 0; i < points.length; i++) {
      if (!inView(points[i][0], points[i][1])) continue;
      const hit = hitAt(el, points[i][0], points[i][1]);
      if (hit && deepContains(el, hit)) return null;
      if (!top) top = hit;
    }
    if (!top || clipped(el, middle[0], middle[1])) return afterScroll(el);
    // Under a header or a banner a scroll takes it out from under: a user scrolls.
    const over = layer(top);
    if (over && !deepContains(over, el) && over !== probe().middle && scrollsToMiddle(middle[1])) {
      return afterScroll(el);
    }
    return top;
  }
  function reach(el) {  // null when a pointer reaches el, else what is over it (el: no box)
    if (!reached.has(el)) reached.set(el, hitTest(el));
    return reached.get(el);
  }
  function labelReached(el) {  // a label of the control el that a pointer reaches, or null
    const labels = el.labels || [];
    for (let i = 0; i < labels.length; i++) {
      if (shown(labels[i], RENDERED) && !reach(labels[i])) return labels[i];
    }
    return null;
  }
  function describeNode(node) {  // "div#backdrop.modal.fade": what covers a candidate
    if (!node || node.nodeType !== 1) return '';
    const classes = Arr.slice(Arr.sort(Arr.from(node.classList || [])), 0, 3);
    return node.localName + (node.id ? '#' + node.id : '') + (classes.length ? '.' + Arr.join(classes, '.') : '');
  }
  function enabled(el) {
    if (el.disabled) return false;
    if (Dom.closest(el, 'fieldset[disabled]')) return false;
    return Dom.getAttribute(el, 'aria-disabled') !== 'true';
  }
  function label(el) {
    const attr = (name) => Dom.getAttribute(el, name);
    if (el.localName === 'form') {
      const button = selectOne(el, 'button:not([type]), button[type=submit], input[type=submit]');
      return collapse(attr('aria-label') || attr('name') || el.id
        || (button && (textOf(button) || button.value)) || 'form', 80);
    }
    if (Dom.matches(el, 'textarea, select, input:not([type=button], [type=submit], [type=reset])')) {
      // A field is named by what it asks for, never by what has been typed into it.
      const names = fieldNames(el);
      return names.length ? collapse(names[0], 80) : el.localName;
    }
    const text = attr('aria-label') || collapse(textOf(el), 80)
      || attr('title') || attr('alt') || el.value || attr('placeholder') || attr('name') || '';
    return collapse(toText(text), 80);
  }
  function status(el, how) {
    const parts = [how, 'enabled'];
    if (el.checked) Arr.push(parts, 'checked');
    if (el.selected) Arr.push(parts, 'selected');
    const expanded = Dom.getAttribute(el, 'aria-expanded');
    if (expanded) Arr.push(parts, 'expanded=' + expanded);
    return Arr.join(parts, ',');
  }

  const ruleCache = new SafeWeakMap();  // document or shadow root -> {key, hover, pointer}
  const HOVER_RULE = /^(.*?):hover((?:[\w\-.#[\]="':()]*)?)(\s*[>+~\s]\s*)(.+)$/;
  const HOVER = Re.pin(/:hover/g);
  // What a root's style sheets say: [ancestor selector, revealed selector] from `A:hover B`
  // rules (hover), and the selectors of rules that give a pointer cursor (pointer).
  function styleRules(root) {
    const sheets = Arr.concat(root.styleSheets, root.adoptedStyleSheets || []);
    const cached = ruleCache.get(root);
    if (cached && cached.key === sheets.length) return cached;
    const rules = [];
    const pointer = [];
    const walk = (list) => {
      for (let i = 0; i < list.length; i++) {
        const rule = list[i];
        if (rule.cssRules && !rule.selectorText) { walk(rule.cssRules); continue; }
        if (!rule.selectorText) continue;
        if (rule.style && rule.style.cursor === 'pointer') Arr.push(pointer, rule.selectorText);
        if (!Str.includes(rule.selectorText, ':hover')) continue;
        const selectors = Str.split(rule.selectorText, ',');
        for (let j = 0; j < selectors.length; j++) {
          const m = Re.exec(HOVER_RULE, selectors[j]);
          if (!m) continue;
          const ancestor = Str.trim(m[1] + m[2]);
          const revealed = Str.trim(Re.replace(ancestor + m[3] + m[4], HOVER, ''));
          Arr.push(rules, [ancestor || '*', revealed]);
        }
      }
    };
    for (let i = 0; i < sheets.length; i++) {
      try { walk(sheets[i].cssRules); } catch (e) { /* cross-origin sheet */ }
    }
    const found = { key: sheets.length, hover: rules, pointer };
    ruleCache.set(root, found);
    return found;
  }
  function pointerHinted(shadows) {  // the elements a rule or a style attribute gives a pointer cursor
    const found = new SafeSet();
    const roots = Arr.concat([document], shadows);
    for (let i = 0; i < roots.length; i++) {
      const selectors = Arr.concat(styleRules(roots[i]).pointer, ['[style*="cursor"]']);
      for (let j = 0; j < selectors.length; j++) {
        let matches;
        try { matches = selectAll(roots[i], selectors[j]); } catch (e) { continue; }
        Arr.forEach(matches, (el) => found.add(el));
      }
    }
    return found;
  }
  function hoverReveals(shadows) {  // Map(revealed root element -> ancestor element to hover)
    const found = new SafeMap();
    const roots = Arr.concat([document], shadows);
    for (let i = 0; i < roots.length; i++) {
      const rules = styleRules(roots[i]).hover;
      for (let j = 0; j < rules.length; j++) {
        const ancestorSel = rules[j][0];
        let matches;
        try { matches = selectAll(roots[i], rules[j][1]); } catch (e) { continue; }
        Arr.forEach(matches, (el) => {
          if (visible(el)) return;
          let anc = null;
          try { anc = el.parentElement && Dom.closest(el.parentElement, ancestorSel); } catch (e) { anc = null; }
          if (anc && visible(anc)) found.set(el, anc);
        });
      }
    }
    return found;
  }
  function hoverAncestor(el, revealed) {
    let found = null;
    revealed.forEach((anc, root) => {
      if (!found && (root === el || Dom.contains(root, el))) found = anc;
    });
    return found;
  }

  const JAVASCRIPT = /^javascript:/i;
  function linkTarget(el) {
    if (el.localName !== 'a' && el.localName !== 'area') return null;
    const href = Dom.getAttribute(el, 'href');
    if (!href || Str.startsWith(href, '#') || Re.test(JAVASCRIPT, href)) return null;
    let url;
    try { url = new NativeURL(href, location.href); } catch (e) { return null; }
    if (!Re.test(HTTP, url.protocol)) return null;
    return url.href;
  }

  // Targets whose listeners may serve their descendants: Map(root element -> Map(event -> ids)).
  const DELEGATED = setOf(['click', 'change', 'input', 'keydown:Enter']);
  function delegators() {
    const out = new SafeMap();
    listening.forEach((t) => {
      const byType = listeners.get(t);
      if (!byType) return;
      const root = t === window || t === document ? document.documentElement : t;
      if (!root || root.nodeType !== 1 || !root.isConnected) return;
      byType.forEach((m, type) => {
        const event = POINTER_EVENTS[type];
        if (!DELEGATED.has(event)) return;
        if (!out.has(root)) out.set(root, new SafeMap());
        const byEvent = out.get(root);
        if (!byEvent.has(event)) byEvent.set(event, []);
        m.forEach((count, id) => Arr.push(byEvent.get(event), type + ':' + id));
      });
    });
    return out;
  }
  const INTERACTIVE = 'a[href], button, input, select, textarea, summary, [role], [tabindex], [contenteditable]';
  // Where a page delegates with no framework to say to what, its listener is fired on the
  // innermost element a user would take for a control, never on a wrapper of controls.
  function looksInteractive(el, style) {
    if (selectOne(el, INTERACTIVE)) return false;
    if (el.localName === 'label') return !el.control;  // a label for a control is that control
    const role = Dom.getAttribute(el, 'role');
    if (role && INTERACTIVE_ROLES.has(role)) return true;
    if (Dom.hasAttribute(el, 'tabindex') && el.tabIndex >= 0) return true;
    if (style.cursor === 'pointer') {
      const parent = el.parentElement;
      return !parent || computedStyle(parent).cursor !== 'pointer';
    }
    // data-* attributes mark list items, tabs and cards that a delegated handler reads: the
    // innermost such elements.
    const hasData = (node) => Arr.some(Dom.getAttributeNames(node), (name) => Str.startsWith(name, 'data-'));
    if (!hasData(el)) return false;
    return !Arr.some(selectAll(el, '*'), hasData);
  }


  // ---- forms -------------------------------------------------------------------------------------
  const TEXT_TYPES = setOf(['', 'text', 'search', 'email', 'url', 'tel']);
  // Fields a user sets by picking, not by typing words: what to pick when no value is given
  // (a range's ends and middle; a date, time or colour of each format; a number in range).
  const SAMPLES = {
    __proto__: null, number: null, range: null, color: '#ff0000', date: '2024-06-15', time: '12:00',
    month: '2024-06', week: '2024-W24', 'datetime-local': '2024-06-15T12:00',
  };
  const NAME_END = Re.pin(/[:*]\s*$/);
  const uriEncode = encodeURIComponent;
  function fieldNames(el) {  // what a user's NAME may refer to: labels, aria-label, placeholder, name, id
    const names = Arr.map(el.labels || [], (l) => Markup.text(l));
    Arr.push(names, Dom.getAttribute(el, 'aria-label'), Dom.getAttribute(el, 'placeholder'), el.name, el.id);
    return Arr.map(Arr.filter(names, (n) => n), (n) => Str.toLowerCase(Re.replace(collapse(n, 200), NAME_END, '')));
  }
  const inputs = new SafeMap();
  const inputNames = keys(CONFIG.inputs || {});
  for (let i = 0; i < inputNames.length; i++) {
    inputs.set(Str.toLowerCase(inputNames[i]), CONFIG.inputs[inputNames[i]]);
  }
  // Entries of inputs.fields, found by a CSS selector or a name, come first: their values, or
  // random values of a kind drawn from the crawl's seed (the same in every crawl with that seed).
  const FIELD_SPECS = Arr.map(CONFIG.fields || [], (f) => assign({ __proto__: null }, f, {
    name: f.name == null ? null : Str.toLowerCase(f.name),
  }));
  function specOf(el, names) {  // the first inputs.fields entry that finds el, or null
    return Arr.find(FIELD_SPECS, (spec) => {
      if (spec.name != null) return Arr.includes(names, spec.name);
      try { return Dom.matches(el, spec.css); } catch (e) { return false; }  // the browser refuses it
    }) || null;
  }
  function givenValues(el) {
    const names = fieldNames(el);
    const spec = FIELD_SPECS.length ? specOf(el, names) : null;
    if (spec) return spec.kind ? randomValues(el, spec, names) : spec.values;
    for (let i = 0; i < names.length; i++) if (inputs.has(names[i])) return inputs.get(names[i]);
    return null;
  }
  function random(text) {  // a generator of numbers in [0, 1) seeded by text (mulberry32)
    let a = toNumber('0x' + hash(text));
    return () => {
      a = (a + 0x6d2b79f5) | 0;
      let t = imul(a ^ (a >>> 15), 1 | a);
      t = (t + imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }
  const KIND_OF_TYPE = {
    __proto__: null, email: 'email', number: 'number', range: 'number', date: 'date', url: 'url', tel: 'tel',
  };
  const KIND_OF_NAME = [
    [/mail/i, 'email'], [/phone|mobile|\btel/i, 'tel'], [/url|website|homepage/i, 'url'],
    [/date|birth/i, 'date'], [/\bage\b|count|number|quantity|amount|year|zip|postcode/i, 'number'],
  ];
  function kindsOf(el, names) {  // the kinds a field's type and names suggest, likeliest first
    const joined = Arr.join(names, ' ');
    const byName = Arr.find(KIND_OF_NAME, (pair) => Re.test(pair[0], joined));
    return Arr.filter([KIND_OF_TYPE[el.type], byName && byName[1], 'text', 'number'], (k) => k);
  }
  const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
  function word(next, n) {
    let out = '';
    for (let i = 0; i < n; i++) out += LETTERS[(next() * 26) | 0];
    return out;
  }
  const digits = (next, n) => Arr.join(Arr.map(Arr.from({ length: n }), () => toText((next() * 10) | 0)), '');
  const pad = (n) => Str.padStart(toText(n), 2, '0');
  function randomValue(kind, el, next) {  // one value of kind, in a number field's range and step
    if (kind === 'email') return word(next, 6) + '@example.com';
    if (kind === 'url') return 'https://example.com/' + word(next, 6);
    if (kind === 'tel') return '+1555' + digits(next, 7);
    if (kind === 'date') {
      return (2000 + ((next() * 30) | 0)) + '-' + pad(1 + ((next() * 12) | 0)) + '-' + pad(1 + ((next() * 28) | 0));
    }
    if (kind === 'number') {
      const low = el.min !== '' && finite(+el.min) ? +el.min : 1;
      const high = el.max !== '' && finite(+el.max) ? +el.max : max(low, 100);
      const step = finite(+el.step) && +el.step > 0 ? +el.step : 1;
      return toText(low + ((next() * (((high - low) / step | 0) + 1)) | 0) * step);
    }
    return word(next, 8);
  }
  function fits(el, value) {  // whether value matches the field's pattern attribute (if any)
    const source = Dom.getAttribute(el, 'pattern');
    if (!source) return true;
    try { return Re.test(new NativeRegExp('^(?:' + source + ')$', 'v'), value); } catch (e) { return true; }
  }
  // Random values of an entry's kind ("auto": the first kind its type and names suggest whose
  // value fits its pattern), each drawn from the seed, the entry and the draw's number alone.
  function randomValues(el, spec, names) {
    const kinds = spec.kind === 'auto' ? kindsOf(el, names) : [spec.kind];
    const at = toText(Arr.indexOf(FIELD_SPECS, spec));
    return Arr.map(Arr.from({ length: spec.count }), (_, k) => {
      const values = Arr.map(kinds, (kind) => randomValue(kind, el, random(CONFIG.seed + '|' + at + '|' + k)));
      return Arr.find(values, (v) => fits(el, v)) || values[0];
    });
  }
  function textValues(el) {  // what to type into a text field: the user's values, or the default
    return givenValues(el) || (CONFIG.defaultText != null ? [CONFIG.defaultText] : null);
  }
  function isText(el) {
    return el.localName === 'textarea' || (el.localName === 'input' && TEXT_TYPES.has(el.type));
  }
  const isPicked = (el) => el.localName === 'input' && el.type in SAMPLES;
  function rangeValues(el) {  // a range's minimum, middle (on its step) and maximum
    const low = el.min === '' ? 0 : +el.min;
    const high = el.max === '' ? 100 : +el.max;
    const step = el.step === '' || el.step === 'any' ? 1 : +el.step;
    const middle = low + round((high - low) / 2 / step) * step;
    return ['' + low, '' + middle, '' + high];
  }
  function pickedValues(el) {  // the values to pick, the current one first
    const given = givenValues(el);
    let values = given;
    if (!values) {
      if (el.type === 'range') values = rangeValues(el);
      else if (el.type === 'number') values = [el.min !== '' ? el.min : '1'];
      else values = [el.min || SAMPLES[el.type]];
    }
    values = Arr.filter(values, (v, i) => Arr.indexOf(values, v) === i);
    Arr.sort(values, (a, b) => (b === el.value) - (a === el.value));
    if (!given && !Arr.includes(values, el.value) && el.value !== '') values = Arr.concat([el.value], values);
    return Arr.slice(values, 0, given ? values.length : CONFIG.maxOptions);
  }
  const NO_VALUE = /^(button|submit|image|reset|hidden|password|file)$/;
  function isControl(el) {  // a form field that holds a value, a choice or a check
    return el.localName === 'select' || el.localName === 'textarea' || (el.localName === 'input'
      && !Re.test(NO_VALUE, el.type));
  }
  function selectValues(el) {  // a select's option values to try, the current one first
    const options = Arr.filter(el.options, (o) => !o.disabled);
    const given = givenValues(el);
    let values = Arr.map(options, (o) => o.value);
    if (given) values = Arr.filter(given, (v) => Arr.includes(values, v));
    Arr.sort(values, (a, b) => (b === el.value) - (a === el.value));
    return Arr.slice(values, 0, given ? values.length : CONFIG.maxOptions);
  }
  function choices(el, group) {  // [[locator, value], ...] for one field, current choice first
    if (isText(el)) {
      const values = textValues(el);
      return values ? Arr.map(values, (v) => [[locator(el), v]]) : null;
    }
    if (el.localName === 'select') return Arr.map(selectValues(el), (v) => [[locator(el), v]]);
    if (isPicked(el)) return Arr.map(pickedValues(el), (v) => [[locator(el), v]]);
    if (el.type === 'checkbox') {
      return Arr.map([el.checked, !el.checked], (on) => [[locator(el), on ? 'on' : 'off']]);
    }
    if (el.type === 'radio') {
      const sorted = Arr.sort(Arr.from(group), (a, b) => b.checked - a.checked);
      return Arr.map(Arr.slice(sorted, 0, CONFIG.maxOptions), (r) => [[locator(r), 'on']]);
    }
    return null;
  }
  function fieldsOf(container) {  // [{el, options}] for the enabled fields of a form
    const out = [];
    const radios = new SafeSet();
    Arr.forEach(selectAll(container, 'input, select, textarea'), (el) => {
      if (el.disabled || !isControl(el)) return;
      let group = null;
      if (el.type === 'radio') {
        if (!el.name || radios.has(el.name)) return;
        radios.add(el.name);
        group = Arr.filter(selectAll(container, 'input[type=radio]'), (r) => r.name === el.name && !r.disabled);
      }
      const options = choices(el, group);
      if (options && options.length) Arr.push(out, { el, options });
    });
    return out;
  }
  function combinations(fields) {  // one field varied at a time around the first choice of each
    if (!fields.length) return [];
    const base = Arr.map(fields, (f) => f.options[0]);
    const combos = [base];
    Arr.forEach(fields, (f, i) => {
      for (let j = 1; j < f.options.length; j++) {
        const combo = Arr.from(base);
        combo[i] = f.options[j];
        Arr.push(combos, combo);
      }
    });
    // Each combination as one list of [locator, value] pairs.
    return Arr.map(combos, (combo) => {
      let pairs = [];
      for (let i = 0; i < combo.length; i++) pairs = Arr.concat(pairs, combo[i]);
      return pairs;
    });
  }
  function describe(method, target, values) {
    const pairs = Arr.join(Arr.map(values, (pair) => {
      const el = query(pair[0]);
      const name = (el && (el.name || el.id)) || pair[0];
      const value = el && el.type === 'radio' ? el.value : pair[1];  // a radio is on: say which one
      return uriEncode(name) + '=' + uriEncode(value);
    }), '&');
    return method + ' ' + target + (pairs ? ' ' + pairs : '');
  }
  function hasListener(el, type) {
    for (let node = el; node; node = node.parentNode || node.host) {
      if (listeners.get(node)?.has(type) || (node.nodeType === 1 && typeof node['on' + type] === 'function')) return true;
    }
    return !!listeners.get(window)?.has(type);
  }
  const SUBMITTER = 'button:not([type]), button[type=submit], input[type=submit], input[type=image]';
  function formCandidates(add) {  // returns the forms given values, whose plain submit is left out
    const filled = new SafeSet();
    Arr.forEach(document.forms, (form) => {
      if (!visible(form)) return;
      const combos = combinations(fieldsOf(form));
      if (!combos.length) return;
      filled.add(form);
      const method = Str.toUpperCase(Dom.getAttribute(form, 'method') || 'GET');
      const target = form.action || location.href;
      const scripted = hasListener(form, 'submit');
      const button = selectOne(form, SUBMITTER)
        || Arr.find(selectAll(document, '[form]'), (b) => b.form === form && b.type === 'submit');
      Arr.forEach(combos, (values) => {
        // A scripted submit does what its handler does with the values, wherever the page is.
        const action = scripted ? describe('SCRIPT', method, values) : describe(method, target, values);
        add(form, 'submit', 'submit', action, 'visible', null, {
          values, submitter: button && visible(button) ? locator(button) : null,
        });
      });
    });
    // A text field outside any form given values by name, with a button beside it: type the
    // value, click the button.
    Arr.forEach(selectAll(document, 'input, textarea'), (el) => {
      if (el.form || !isText(el) || !visible(el) || !enabled(el)) return;
      if (FIELD_SPECS.length && specOf(el, fieldNames(el))) return;  // (a loose field: above)
      const given = givenValues(el);
      if (!given) return;
      const parent = el.parentElement;
      const container = parent && (selectOne(parent, 'button') ? parent : parent.parentElement);
      const button = container && selectOne(container, 'button, input[type=button]');
      if (!button || !visible(button) || !enabled(button)) return;
      Arr.forEach(given, (value) => {
        const values = [[locator(el), value]];
        add(button, 'click', 'submit', describe('CLICK', locator(button), values), 'visible', null, { values });
      });
    });
    return filled;
  }
  // Fields outside any form that an inputs.fields entry names go with the clicked controls of
  // their section, the nearest of a control's SECTION_LEVELS closest ancestors that holds such
  // a field (a link whose onclick reads them, a button beside a search box): the control is
  // fired after they are filled, one field varied at a time as a form's are. (Values given by
  // name alone, inputs.values, reach a loose text field only through a button beside it: typed
  // into every field of a section, they would make each state of a page with a search box two.)
  const SECTION_LEVELS = 3;
  function looseFields() {  // [{el, options}]: the fields outside any form given values, seen
    const out = [];
    Arr.forEach(selectAll(document, 'input, select, textarea'), (el) => {
      if (el.form || el.disabled || !isControl(el) || el.type === 'checkbox' || el.type === 'radio') return;
      if (!specOf(el, fieldNames(el))) return;
      if (!givenValues(el) || !visible(el) || !enabled(el)) return;
      const options = choices(el, null);
      if (options && options.length) Arr.push(out, { el, options });
    });
    return out;
  }
  function sectionValues(el, loose, sections) {  // the value combinations control el is fired with
    let node = parentOf(el);
    for (let i = 0; node && i < SECTION_LEVELS; i++) {
      if (!sections.has(node)) sections.set(node, combinations(Arr.filter(loose, (f) => deepContains(node, f.el))));
      if (sections.get(node).length || node === document.body) return sections.get(node);
      node = parentOf(node);
    }
    return [];
  }
  // A field with a listener of its own (or a framework's, or a delegating ancestor's) is an
  // action in itself: a box or radio is clicked, a select gets each option, a text field gets
  // a value typed and committed (Enter, then change and blur).
  const FIELD_EVENTS = ['click', 'change', 'input', 'keydown:Enter'];
  function controlActions(el, events, inherited, add, how, hover, filled) {
    let own = [];
    for (let i = 0; i < FIELD_EVENTS.length; i++) own = Arr.concat(own, events.get(FIELD_EVENTS[i]) || []);
    const inForm = el.form && filled.has(el.form);
    if (!own.length && (inForm || !inherited)) return;
    const handler = own.length ? 'handler:' + Arr.join(Arr.sort(own), '+') : inherited;
    const loc = locator(el);
    if (el.type === 'checkbox' || el.type === 'radio') {
      add(el, 'click', 'script', handler, how, hover);
    } else if (el.localName === 'select') {
      Arr.forEach(Arr.slice(selectValues(el), 1), (value) => {
        add(el, 'change', 'script', 'option:' + value + ' ' + handler, how, hover, { values: [[loc, value]] });
      });
    } else if (isPicked(el)) {
      Arr.forEach(pickedValues(el), (value) => {
        if (value === el.value) return;
        add(el, 'change', 'script', 'value:' + value + ' ' + handler, how, hover, { values: [[loc, value]] });
      });
    } else if (isText(el) && !inForm) {
      Arr.forEach(textValues(el) || [], (value) => {
        const values = [[loc, value]];
        add(el, 'keydown:Enter', 'submit', describe('ENTER', loc, values), how, hover, { values });
      });
    }
  }

  const BUTTON_INPUT = /^(button|submit|image|reset)$/;
  const MODAL = 'dialog[open], [aria-modal="true"]';
  const INHERITED_EVENTS = ['change', 'input', 'click', 'keydown:Enter'];
  // What the last collection left out because something covers it: [{locator, label, event,
  // action, covered_by}], sent with the snapshot.
  let covered = [];
  function candidates() {
    const out = [];
    const seen = new SafeSet();
    const shadows = liveRoots();
    const revealed = hoverReveals(shadows);
    const hinted = pointerHinted(shadows);
    const delegating = delegators();
    const jq = jqueryDelegated();
    const owners = [];  // the element of each candidate in out
    const served = new SafeSet();  // delegating roots whose listeners serve candidates inside them
    freshReach();
    covered = [];
    let cover = null;  // what covers the element being looked at: its actions are left out
    const drags = [];  // [element, how, hover] of each draggable element a pointer reaches
    const drops = [];  // the elements with a drop listener
    const loose = FIELD_SPECS.length ? looseFields() : [];
    const sections = new SafeMap();  // ancestor -> the value combinations of its loose fields
    const add = (el, event, kind, action, how, hover, extra) => {
      if (loose.length && event === 'click' && kind === 'script' && !extra && !isControl(el)
        && !Re.test(CHOOSE, action)) {
        const combos = sectionValues(el, loose, sections);
        if (combos.length) {
          Arr.forEach(combos, (values) => {
            adding(el, event, 'submit', describe('CLICK', action, values), how, hover, { values });
          });
          return;
        }
      }
      adding(el, event, kind, action, how, hover, extra);
    };
    const adding = (el, event, kind, action, how, hover, extra) => {
      const loc = locator(el);
      const id = loc + '|' + event + '|' + action;
      if (seen.has(id)) return;
      seen.add(id);
      if (cover) {
        Arr.push(covered, { locator: loc, label: label(el), event, action, covered_by: describeNode(cover) });
        return;
      }
      Arr.push(owners, el);
      Arr.push(out, { loc, event, kind, action, how, hover, extra });
    };
    const filled = formCandidates(add);
    const all = document.body ? elements(document.body) : [];
    // What frameworks say about each element; a delegating root above such elements serves
    // exactly those (described), and no guess is made for it.
    const known = Arr.map(all, (el) => Arr.concat(frameworkHandlers(el), jq.handlers.get(el) || []));
    const described = new SafeSet();
    jq.roots.forEach((root) => described.add(root));
    Arr.forEach(all, (el, i) => {
      if (!known[i].length) return;
      for (let node = parentOf(el); node; node = parentOf(node)) if (delegating.has(node)) described.add(node);
    });
    // The nearest delegating ancestor (with no framework to describe it) listening to
    // ``event``; every element asks, so what each ancestor has above it is kept.
    const nearest = new SafeMap();  // event -> Map(node -> the delegator at or above it, or null)
    const delegatorOf = (el, event) => {
      if (!nearest.has(event)) nearest.set(event, new SafeMap());
      const byNode = nearest.get(event);
      const path = [];
      let found = null;
      for (let node = parentOf(el); node; node = parentOf(node)) {
        if (byNode.has(node)) { found = byNode.get(node); break; }
        Arr.push(path, node);
        const ids = delegating.get(node)?.get(event);
        if (ids && !described.has(node)) { found = [node, 'delegated:' + Arr.join(Arr.sort(Arr.from(ids)), '+')]; break; }
      }
      for (let i = 0; i < path.length; i++) byNode.set(path[i], found);
      return found;
    };
    Arr.forEach(all, (el, i) => {
      // What an element offers is cheap to learn, whether it is visible is not: most
      // elements of a big page offer nothing, and are left before that question.
      const tag = el.localName;
      const button = tag === 'button' || (tag === 'input' && Re.test(BUTTON_INPUT, el.type));
      const anchor = (tag === 'a' || tag === 'area') && Dom.hasAttribute(el, 'href');
      const control = isControl(el);
      const href = linkTarget(el);
      const events = ownEvents(el, known[i], !described.has(el));
      const role = widgetRole(el);
      const summary = tag === 'summary' && el.parentElement && el.parentElement.localName === 'details';
      const editable = el.isContentEditable && Dom.hasAttribute(el, 'contenteditable');
      const draggable = Dom.getAttribute(el, 'draggable') === 'true';
      if (!(button || anchor || control || href || events.size || hinted.has(el) || role || summary
        || editable || draggable) && !delegatorOf(el, 'click')) return;
      if (!events.size && Dom.closest(el, 'svg *')) return;  // a part of an icon, with nothing of its own
      let how = 'visible';
      let hover = null;
      cover = null;
      if (visible(el)) {
        if (reach(el) && !(control && labelReached(el))) cover = reach(el);
      } else {
        const anc = hoverAncestor(el, revealed);
        if (anc) {
          how = 'hover-visible';
          hover = locator(anc);
        } else if (!(control && labelReached(el)) && !(shown(el, RENDERED) && !reach(el))) {
          return;  // neither seen nor reached: opacity 0 with something over it, or no box
        }
      }
      if (!enabled(el)) return;
      if (events.has('drop')) Arr.push(drops, el);
      if (draggable && !cover) Arr.push(drags, [el, how, hover]);
      if (editable) {  // an editing host: the user's text, or the default, typed into it
        Arr.forEach(textValues(el) || [], (value) => {
          const values = [[locator(el), value]];
          add(el, 'input', 'script', describe('TYPE', locator(el), values), how, hover, { values });
        });
      }
      if (opensPopup(el)) {
        for (let k = 0; k < CONFIG.maxOptions; k++) add(el, 'click', 'script', 'choose:' + k, how, hover);
      }
      // (A described root's own listeners are the framework's dispatchers, not actions.)
      if (control) {
        const inherited = Arr.find(Arr.map(INHERITED_EVENTS, (e) => delegatorOf(el, e)), (found) => found);
        if (inherited) served.add(inherited[0]);
        controlActions(el, events, inherited && inherited[1], add, how, hover, filled);
        return;
      }
      if (href && !events.has('click')) {
        add(el, 'click', 'link', href, how, hover);
      }
      events.forEach((ids, event) => {
        if (event === 'scroll' || event === 'submit' || event === 'drop') return;
        if (event === 'keydown:Enter' || event === 'input' || event === 'change') {
          if (!el.isContentEditable || editable) return;
        }
        add(el, event, 'script', 'handler:' + Arr.join(Arr.sort(ids), '+'), how, hover);
      });
      if (events.has('click') || href) return;
      if (button) {
        const form = el.form;
        if (form && filled.has(form) && el.type === 'submit') return;
        add(el, 'click', 'script', form ? 'button:' + locator(form) : 'button', how, hover);
        return;
      }
      if (anchor) {
        add(el, 'click', 'script', 'href:' + Dom.getAttribute(el, 'href'), how, hover);
        return;
      }
      if (summary) {  // a disclosure the browser itself opens and closes
        add(el, 'click', 'script', 'details', how, hover);
        return;
      }
      const delegator = delegatorOf(el, 'click');
      if (delegator && looksInteractive(el, computedStyle(el))) {
        add(el, 'click', 'script', delegator[1], how, hover);
        served.add(delegator[0]);
        return;
      }
      if (role && !delegator) {
        add(el, 'click', 'script', 'role:' + role, how, hover);
        return;
      }
      // No listener anywhere, but a pointer cursor: what a user takes for a control.
      const style = !delegator && !events.size && hinted.has(el) && computedStyle(el);
      if (style && style.cursor === 'pointer' && looksInteractive(el, style)) {
        add(el, 'click', 'script', 'cursor:pointer', how, hover);
      }
    });
    cover = null;
    // A draggable element dropped on each target that listens for drops (HTML5 drag and drop).
    Arr.forEach(drags, (drag) => {
      const targets = Arr.filter(drops, (t) => !deepContains(drag[0], t) && !deepContains(t, drag[0]));
      Arr.forEach(Arr.slice(targets, 0, CONFIG.maxOptions), (t) => {
        add(drag[0], 'drop', 'script', 'drop:' + locator(t), drag[1], drag[2]);
      });
    });
    // What a modal opened, Escape closes: the key a user presses to leave it.
    Arr.forEach(Arr.concat([document], shadows), (root) => {
      Arr.forEach(selectAll(root, MODAL), (el) => {
        if (visible(el)) add(el, 'keydown:Escape', 'script', 'key:Escape', 'visible', null);
      });
    });
    const scrollWanted = (listeners.get(window)?.has('scroll') || listeners.get(document)?.has('scroll')
      || listeners.get(window)?.has('wheel') || observedIntersections > 0);
    const root = document.scrollingElement || document.documentElement;
    if (scrollWanted && root.scrollHeight > window.innerHeight + 1) {
      Arr.push(owners, root);
      Arr.push(out, {
        loc: 'window', label: 'end of page', event: 'scroll', kind: 'script', action: 'scroll:end',
        status: 'visible,enabled', hover: null,
      });
    }
    listening.forEach((t) => {
      if (t.nodeType !== 1 || !t.isConnected || !listeners.get(t)?.has('scroll')) return;
      if (t.scrollHeight > t.clientHeight + 1 && visible(t)) {
        add(t, 'scroll', 'script', 'scroll:end', 'visible', null);
      }
    });
    // A container that serves its descendants is fired through them, not on its own; a label
    // whose control is an action is a way to fire that control, not a second action. Labels
    // and statuses are asked of the kept candidates only (a big page offers more than
    // ``maxActions``).
    // The crawl rules leave out what they forbid (the page's own scrolling is no element's).
    const actors = setOf(owners);
    const rules = ruleMatcher();
    ruledOut = 0;
    const kept = [];
    for (let i = 0; i < out.length && kept.length < CONFIG.maxActions; i++) {
      const c = out[i];
      const el = owners[i];
      if (c.event === 'click' && ((served.has(el) && Str.startsWith(c.action, 'handler:')
        && !Dom.matches(el, 'a[href], button, summary'))
        || (el.localName === 'label' && el.control && actors.has(el.control)))) continue;
      const submitter = rules.active && c.extra && c.extra.submitter ? query(c.extra.submitter) : null;
      const els = submitter ? [el, submitter] : [el];
      if (rules.active && c.loc !== 'window' && rules.out(els)) { ruledOut++; continue; }
      const why = c.kind === 'link' ? linkWhy(c.action) : null;
      Arr.push(kept, assign({
        locator: c.loc, label: c.label ?? label(el), event: c.event, kind: c.kind, action: c.action,
        status: c.status ?? status(el, c.how), hover: c.hover,
      }, c.extra, rules.once(els) ? { once: true } : null, why ? { guarded: why } : null));
    }
    const frames = kept.length < CONFIG.maxActions ? frameAgents() : [];
    for (let i = 0; i < frames.length; i++) {
      const el = frames[i][0];
      if (!visible(el)) continue;
      const at = (loc) => (loc ? locator(el) + ' |> ' + loc : loc);
      let found = [];
      try { found = frames[i][1].candidates(); } catch (e) { found = []; }
      try { ruledOut += frames[i][1].ruledOut(); } catch (e) { /* a frame going away */ }
      if (rules.dont([el])) {  // a frame a dont_click rule selects: nothing in it is fired
        ruledOut += found.length;
        continue;
      }
      for (let j = 0; j < found.length; j++) {
        const c = found[j];
        if (c.locator === 'window') continue;  // a frame's own scrolling
        const inFrame = assign({}, c, { locator: at(c.locator), hover: at(c.hover) });
        if (c.submitter) inFrame.submitter = at(c.submitter);
        if (c.values) inFrame.values = Arr.map(c.values, (pair) => [at(pair[0]), pair[1]]);
        Arr.push(kept, inFrame);
      }
    }
    return Arr.slice(kept, 0, CONFIG.maxActions);
  }

  // ---- snapshot ----------------------------------------------------------------------------------
  function fields() {  // every form field, in the document and its shadow roots
    const selector = 'input, textarea, select';
    let out = Arr.from(selectAll(document, selector));
    const roots = liveRoots();
    for (let i = 0; i < roots.length; i++) out = Arr.concat(out, selectAll(roots[i], selector));
    return out;
  }
  function formState(all) {
    const out = [];
    Arr.forEach(all, (el) => {
      if (el.type === 'checkbox' || el.type === 'radio') {
        if (el.checked !== el.defaultChecked) Arr.push(out, [anchoredPath(el), el.name || '', el.checked ? 'on' : 'off']);
      } else if (el.localName === 'select') {
        Arr.push(out, [anchoredPath(el), el.name || '', Arr.join(Arr.map(el.selectedOptions, (o) => o.value), ',')]);
      } else if (el.type !== 'password' && el.value !== el.defaultValue) {
        Arr.push(out, [anchoredPath(el), el.name || '', el.value]);
      }
    });
    return out;
  }
  // Write what each field holds into its attributes (value, checked, selected), so that the
  // serialized DOM shows what tells the state apart; returns the function that undoes it.
  const UNREFLECTED = /^(password|file|hidden)$/;
  function reflectValues(all) {
    const undo = [];
    Arr.forEach(all, (el) => {
      if (Re.test(UNREFLECTED, el.type)) return;
      if (el.type === 'checkbox' || el.type === 'radio') {
        const on = el.checked;
        if (on === Dom.hasAttribute(el, 'checked')) return;
        Dom.toggleAttribute(el, 'checked', on);
        Arr.push(undo, () => { Dom.toggleAttribute(el, 'checked', !on); el.checked = on; });
      } else if (el.localName === 'select') {
        const chosen = Arr.map(el.options, (o) => o.selected);
        Arr.push(undo, () => Arr.forEach(chosen, (on, i) => { el.options[i].selected = on; }));
        Arr.forEach(el.options, (option) => {
          const on = option.selected;
          if (on === Dom.hasAttribute(option, 'selected')) return;
          Dom.toggleAttribute(option, 'selected', on);
          Arr.push(undo, () => Dom.toggleAttribute(option, 'selected', !on));
        });
      } else if (el.value !== el.defaultValue) {
        const value = el.value;
        const before = el.localName === 'textarea' ? el.defaultValue : Dom.getAttribute(el, 'value');
        if (el.localName === 'textarea') el.defaultValue = value; else Dom.setAttribute(el, 'value', value);
        Arr.push(undo, () => {
          if (el.localName === 'textarea') el.defaultValue = before;
          else if (before === null) Dom.removeAttribute(el, 'value');
          else Dom.setAttribute(el, 'value', before);
          if (el.value !== value) el.value = value;
        });
      }
    });
    return () => {
      for (let i = undo.length - 1; i >= 0; i--) undo[i]();
      observer.takeRecords();
    };
  }
  function doctype() {
    const d = document.doctype;
    return d ? '<!DOCTYPE ' + d.name + '>\n' : '';
  }
  const AMPERSAND = Re.pin(/&/g);
  const QUOTE = Re.pin(/"/g);
  function replaceFirst(text, find, by) {  // text with its first ``find`` (a string) made ``by``
    const at = Str.indexOf(text, find);
    return at < 0 ? text : Str.slice(text, 0, at) + by + Str.slice(text, at + find.length);
  }
  // The DOM with field values and shadow roots written out, and each same-origin frame's
  // content as the srcdoc of its element (marked for the time of the serialization).
  function documentHTML(all) {
    const html = document.documentElement;
    if (!html) return '';
    const undo = reflectValues(all);
    const frames = Arr.filter(frameAgents(), (pair) => !Dom.hasAttribute(pair[0], 'srcdoc'));
    Arr.forEach(frames, (pair, i) => Dom.setAttribute(pair[0], 'data-statecrawl-frame', toText(i)));
    let text;
    try {
      if (!knownRoots.size || !Dom.getHTML) text = doctype() + Markup.outer(html);
      else {
        const shell = Markup.outer(Dom.cloneNode(html, false));
        text = doctype() + Str.slice(shell, 0, -'</html>'.length) + innerHTMLOf(html) + '</html>';
      }
    } finally {
      Arr.forEach(frames, (pair) => Dom.removeAttribute(pair[0], 'data-statecrawl-frame'));
      undo();
    }
    Arr.forEach(frames, (pair, i) => {
      let content = '';
      try { content = toText(pair[1].html()); } catch (e) { content = ''; }
      const escaped = Re.replace(Re.replace(content, AMPERSAND, '&amp;'), QUOTE, '&quot;');
      text = replaceFirst(text, 'data-statecrawl-frame="' + i + '"', 'srcdoc="' + escaped + '"');
    });
    return text;
  }
  let indexedDBUsed = false;
  if (window.indexedDB) {
    const open = IDBFactory.prototype.open;
    IDBFactory.prototype.open = function (...args) {
      indexedDBUsed = true;
      return apply(open, this, args);
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
    const entry = entriesByType(performance, 'navigation')[0];
    return entry && entry.responseStatus ? entry.responseStatus : null;
  }
  function drain(list) {  // the items of list, which is left empty
    const out = Arr.from(list);
    list.length = 0;
    return out;
  }
  // A light snapshot (for replays, whose states are known) leaves out the candidates.
  function snapshot(extra, light) {
    const begun = now();
    onMutations(observer.takeRecords());
    const all = fields();
    const html = documentHTML(all);
    return assign({
      url: location.href, title: document.title, html,
      form: formState(all), candidates: light ? [] : candidates(), covered: light ? [] : covered,
      ruledOut: light ? 0 : ruledOut,
      volatile: valuesOf(volatile),
      dialogs: drain(dialogs), popups: drain(popups), blocked: drain(blocked), guarded: drain(guarded),
      saving: drain(saving), unprompted: drain(unprompted),
      storage: storageUsed(), status: httpStatus(), session: sessionAlive(),
    }, extra, { snapshotMs: round(now() - begun) });
  }

  // ---- settle ------------------------------------------------------------------------------------
  // Wait conditions (timing.waits): on a page whose URL matches, the page is settled once their
  // element is there (and seen, if asked) or their time is up; those out of time are missed.
  const WAITS = Arr.filter(Arr.map(CONFIG.waits || [], (w) => {
    try { return assign({ __proto__: null }, w, { url: pattern(w.url) }); } catch (e) { return null; }
  }), (w) => w);  // (a pattern JavaScript cannot read waits for nothing)
  function waitMet(w) {
    let el = null;
    try { el = selectOne(document, w.css); } catch (e) { return true; }  // the browser refuses it
    return !!el && (!w.visible || visible(el));
  }
  // done(timedOut, missed): missed lists the selectors of the wait conditions out of time.
  function settle(done) {
    const start = now();
    const href = location.href;
    let waits = WAITS.length ? Arr.filter(WAITS, (w) => Re.test(w.url, href)) : WAITS;
    const missed = [];
    const held = (elapsed) => {  // whether a wait condition still holds the page back
      waits = Arr.filter(waits, (w) => {
        if (waitMet(w)) return false;
        if (elapsed < w.timeoutMs) return true;
        Arr.push(missed, w.css);
        return false;
      });
      return waits.length > 0;
    };
    let moving = false;  // a short animation was running at the last check
    const check = () => {
      if (phase === 'leaving') return;  // the document is going away; the caller was told
      const t = now();
      framing();  // (the frames a thumbnail waits for, asked for as soon as the page changed)
      const quietFor = t - lastActivity;
      const quiet = min(quietFor, framesQuietFor());
      const ready = document.readyState === 'complete' && pendingNet === 0 && pendingTimers === 0
        && !(submitting && t - submitting < 1000) && !(closing && t - closing < CLOSE_MS)
        && quiet >= 0;
      if (ready && quiet >= CONFIG.quietMs) {
        if (animating()) moving = true;
        else if (moving) {
          // The frame that ended them has sent their end events: the quiet window starts
          // again, for what their handlers set going.
          moving = false;
          touch();
        } else if (!(waits.length && held(t - start))) {
          // (a page that grows on past growthTimeoutMs is taken as far as it got)
          done(t - start >= CONFIG.growthTimeoutMs && t - grewAt < GROWING_MS, missed);
          return;
        }
      }
      const timedOut = t - start >= CONFIG.settleTimeoutMs && !growing(start);
      if (timedOut && !(waits.length && held(t - start))) {
        done(true, missed);
        return;
      }
      const wait = waits.length ? 20 : ready && !moving ? CONFIG.quietMs - quiet : 10;
      nativeSetTimeout(check, max(1, min(wait, 50)));
    };
    nativeSetTimeout(check, 0);  // after the tasks the event queued (a form's navigation)
  }

  function waitLoad(next) {
    if (document.readyState === 'complete') { next(); return; }
    Dom.addEventListener(window, 'load', () => next(), ONCE);
  }

  // ---- firing ------------------------------------------------------------------------------------
  function find(spec) {
    if (spec.locator === 'window') return window;
    let el = null;
    el = query(spec.locator);
    if (el && label(el) === spec.label) return el;
    // The locator moved (an inserted row, say): look for the same label on an element of the
    // same kind that offers the same event.
    const inShadows = Str.split(spec.locator, ' >>> ');
    const steps = Str.split(inShadows[inShadows.length - 1], ' > ');
    const last = Str.split(steps[steps.length - 1], ':')[0];
    const tag = Str.startsWith(last, '#') ? '' : last;
    const found = candidates();
    for (let i = 0; i < found.length; i++) {
      const c = found[i];
      if (c.label === spec.label && c.event === spec.event && c.action === spec.action) {
        const other = query(c.locator);
        if (other && (!tag || other.localName === tag)) return other;
      }
    }
    return el && !spec.label ? el : null;
  }
  function optionsShown(popup) {  // the enabled options laid out now (in popup, if given)
    const all = popup ? selectAll(popup, OPTION_ROLES) : Arr.filter(elements(document.body), (o) => Dom.matches(o, OPTION_ROLES));
    return Arr.filter(all, (o) => shown(o, RENDERED) && Dom.getAttribute(o, 'aria-disabled') !== 'true');
  }
  function popupOf(el) {  // the popup an opened control names (aria-controls or aria-owns), or null
    const id = Dom.getAttribute(el, 'aria-controls') || Dom.getAttribute(el, 'aria-owns');
    const popup = id ? selectOne(Dom.getRootNode(el), '#' + cssEscape(Str.split(id, ' ')[0])) : null;
    return popup && selectOne(popup, OPTION_ROLES) ? popup : null;
  }
  // Focus and click through the native methods of HTML elements (an SVG or MathML element
  // keeps its own focus, and has no click()).
  function focus(el, options) {
    if (isHTML(el)) Dom.focus(el, options);
    else if (el.focus) el.focus(options);
  }
  // An SVG or MathML element has no click(): it gets the click event a pointer would send.
  function click(el) {
    if (isHTML(el)) Dom.click(el); else mouse(el, 'click', { detail: 1 });
  }
  const PRESSED = setOf(['pointerdown', 'mousedown']);
  // Mouse and pointer events as a mouse sends them: at the middle of the element's box, the
  // primary button held between down and up.
  function mouse(el, type, init) {
    const pointer = Str.startsWith(type, 'pointer');
    const Ctor = pointer ? NativePointerEvent : NativeMouseEvent;
    const r = Dom.getBoundingClientRect(el);
    const options = {
      __proto__: null, bubbles: true, cancelable: true, composed: true, view: window,
      clientX: r.left + r.width / 2, clientY: r.top + r.height / 2, buttons: PRESSED.has(type) ? 1 : 0,
    };
    if (pointer) assign(options, { pointerId: 1, pointerType: 'mouse', isPrimary: true });
    Dom.dispatchEvent(el, new Ctor(type, assign(options, init)));
  }
  // A pointer that moves on leaves what it was over: mouseout and pointerout there, then
  // mouseleave and pointerleave at it and at each ancestor that does not hold the element it
  // moves to. A mouseover action leaves the pointer over its element (a tooltip it opened
  // shows in the state that follows); the next action that moves the pointer leaves it, as a
  // real pointer would: no state shows one control's tooltip while another is pressed. A
  // click leaves the pointer over what it clicked too, whatever the way to a state was.
  // ``over``: where the action leaves the pointer (a drop's target).
  let hovered = null;
  function moveTo(to, over = to) {
    const from = hovered;
    hovered = over;
    if (!from || from === to || !from.isConnected || Dom.contains(from, to)) return;
    const init = { __proto__: null, relatedTarget: to };
    mouse(from, 'pointerout', init); mouse(from, 'mouseout', init);
    const alone = { __proto__: null, bubbles: false, cancelable: false, relatedTarget: to };
    for (let node = from; node && node.nodeType === 1; node = node.parentElement) {
      if (Dom.contains(node, to)) break;
      mouse(node, 'pointerleave', alone); mouse(node, 'mouseleave', alone);
    }
  }
  const KEYS = { __proto__: null, Enter: 13, Escape: 27 };
  function key(el, type, name = 'Enter') {  // returns whether no listener prevented the default
    return Dom.dispatchEvent(el, new NativeKeyboardEvent(type, {
      __proto__: null, key: name, code: name, keyCode: KEYS[name], which: KEYS[name],
      bubbles: true, cancelable: true, composed: true,
    }));
  }
  // Escape pressed in a modal: at the focused element inside it, else at the modal. A native
  // modal dialog is then cancelled and closed, as the browser does for a real key.
  function escape(el) {
    const active = document.activeElement;
    const at = active && active !== document.body && deepContains(el, active) ? active : el;
    const go = key(at, 'keydown', 'Escape');
    key(at, 'keyup', 'Escape');
    if (go && el.localName === 'dialog' && el.open
      && Dom.dispatchEvent(el, new NativeEvent('cancel', { __proto__: null, cancelable: true }))) {
      Dom.close(el);
    }
  }
  function drag(el, type, dataTransfer) {  // a drag event at the middle of el's box
    const r = Dom.getBoundingClientRect(el);
    Dom.dispatchEvent(el, new NativeDragEvent(type, {
      __proto__: null, bubbles: true, cancelable: true, composed: true, view: window, dataTransfer,
      clientX: r.left + r.width / 2, clientY: r.top + r.height / 2,
    }));
  }
  function fireEvent(el, type) {  // a plain bubbling event: input or change
    Dom.dispatchEvent(el, new NativeEvent(type, { __proto__: null, bubbles: true }));
  }
  const VALUE_SETTERS = {  // the native value setter of each kind of field
    __proto__: null,
    textarea: uncurry(ownDescriptor(HTMLTextAreaElement.prototype, 'value').set),
    select: uncurry(ownDescriptor(HTMLSelectElement.prototype, 'value').set),
    input: uncurry(ownDescriptor(HTMLInputElement.prototype, 'value').set),
  };
  // What typing does: focus, the new value (through the native setter, which frameworks that
  // track the value see), an input event. Returns the value before, for the change on commit.
  function type(el, value) {
    const before = el.value;
    focus(el);
    (VALUE_SETTERS[el.localName] || VALUE_SETTERS.input)(el, value);
    Dom.dispatchEvent(el, new NativeInputEvent('input', {
      __proto__: null, bubbles: true, composed: true, data: value, inputType: 'insertText',
    }));
    return before;
  }
  function setValue(el, value) {  // typing, then leaving the field
    type(el, value);
    fireEvent(el, 'change');
  }
  // What pressing Enter in a field does, then leaving it: keydown and keypress, a change if the
  // value is new (a browser fires it on Enter), keyup, blur.
  function commit(el, before) {
    key(el, 'keydown'); key(el, 'keypress');
    if (el.isConnected && el.value !== before) fireEvent(el, 'change');
    key(el, 'keyup');
    if (el.isConnected) Dom.blur(el);
  }
  function heldBack(spec) {  // a submit whose button is disabled right after its values were set
    const button = spec.event === 'submit' && spec.values && spec.values.length && spec.submitter
      ? query(spec.submitter) : null;
    return !!button && !!button.disabled;
  }
  function typed(el, spec) {  // a value typed into this very field and committed with Enter
    const values = spec.values || [];
    return spec.event === 'keydown:Enter' && values.length === 1 && query(values[0][0]) === el;
  }
  function fill(values) {  // [[locator, value]]: text typed, options selected, boxes (un)checked
    const pairs = values || [];
    for (let i = 0; i < pairs.length; i++) {
      const loc = pairs[i][0];
      const value = pairs[i][1];
      const field = query(loc);
      if (!field) throw new NativeError('field not found: ' + loc);
      if (field.type === 'checkbox' || field.type === 'radio') {
        const want = value === 'on';
        if (field.checked !== want) click(field);
      } else if (field.isContentEditable) {  // what typing does there: the text replaced
        focus(field);
        execCommand(document, 'selectAll', false, null);
        execCommand(document, 'insertText', false, value);
        Dom.blur(field);
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
      if (el === window) scrollTo(0, target.scrollHeight);
      return;
    }
    if (ev === 'mouseover') {
      moveTo(el);
      mouse(el, 'pointerover'); mouse(el, 'mouseover');
      Dom.dispatchEvent(el, new NativeMouseEvent('mouseenter', { __proto__: null, bubbles: false, view: window }));
      mouse(el, 'mousemove');
      return;
    }
    if (ev === 'keydown:Enter') {
      focus(el);
      key(el, 'keydown'); key(el, 'keypress'); key(el, 'keyup');
      return;
    }
    if (ev === 'keydown:Escape') {
      escape(el);
      return;
    }
    if (ev === 'drop') {
      const target = query(Str.slice(spec.action, 5));
      if (!target) throw new NativeError('drop target not found: ' + Str.slice(spec.action, 5));
      moveTo(el, target);
      const data = new NativeDataTransfer();
      drag(el, 'dragstart', data);
      drag(target, 'dragenter', data); drag(target, 'dragover', data); drag(target, 'drop', data);
      drag(el, 'dragend', data);
      return;
    }
    if (ev === 'input' || ev === 'change') {
      if (spec.values && spec.values.length) return;  // fill() chose the option and said so
      focus(el);
      fireEvent(el, ev);
      return;
    }
    if (ev === 'submit') {
      const form = el.localName === 'form' ? el : el.form;
      if (spec.submitter) {
        const button = query(spec.submitter);
        if (button) { click(button); return; }
      }
      if (Dom.requestSubmit) Dom.requestSubmit(form);
      else { submitting = now(); apply(nativeSubmit, form, []); }
      return;
    }
    moveTo(el);
    mouse(el, 'pointerover'); mouse(el, 'mouseover'); mouse(el, 'pointerdown'); mouse(el, 'mousedown');
    focus(el, { __proto__: null, preventScroll: true });
    mouse(el, 'pointerup'); mouse(el, 'mouseup');
    click(el);
    if (ev === 'dblclick') { click(el); mouse(el, 'dblclick', { detail: 2 }); }
  }

  // ---- login -------------------------------------------------------------------------------------
  // A login form's fields are found by the names a user gives --input values by; the session
  // check and the targets of a login hook are each a CSS selector that matches or a text shown.
  const NOT_TYPED = /^(button|submit|image|reset|hidden|file)$/;
  const PRESSABLE = 'a, button, input, summary, label, [role=button], [role=link], [onclick], [tabindex]';
  function loginForm(names) {  // locators of the fields named, whether each is a password, the form
    const all = Arr.filter(selectAll(document, 'input, select, textarea'),
      (el) => !el.disabled && !(el.localName === 'input' && Re.test(NOT_TYPED, el.type)));
    const found = Arr.map(names, (name) => {
      const wanted = Str.toLowerCase(collapse(name, 200));
      return Arr.find(all, (el) => Arr.includes(fieldNames(el), wanted)) || null;
    });
    const first = Arr.find(found, (el) => el);
    const form = first && first.form;
    const submitter = form && selectOne(form, 'button:not([type=button]):not([type=reset]), input[type=submit], input[type=image]');
    return {
      fields: Arr.map(found, (el) => (el ? locator(el) : null)),
      secret: Arr.map(found, (el) => !!el && el.type === 'password'),
      form: form ? locator(form) : null,
      submitter: submitter ? locator(submitter) : null,
    };
  }
  function present(what) {  // {locator, shown}: the element named (a text names one a user presses)
    let el = null;
    try { el = selectOne(document, what); } catch (e) { el = null; }
    if (el) return { locator: locator(el), shown: true };
    const body = document.body;
    const wanted = Str.toLowerCase(collapse(what, 1000));
    const pressed = Arr.find(selectAll(document, PRESSABLE), (c) => Str.includes(Str.toLowerCase(label(c)), wanted));
    return { locator: pressed ? locator(pressed) : null, shown: !!body && Str.includes(textOf(body), what) };
  }
  function sessionAlive() {  // whether the page shows the session is alive (null: no check given)
    const check = CONFIG.session;
    if (!check) return null;
    return (check.in == null || present(check.in).shown) && !(check.out != null && present(check.out).shown);
  }

  const agent = {
    // Wait until the page has loaded and settled, then return a snapshot.
    snapshot(opts, done) {
      if (opts.volatile) knownVolatile = setOf(opts.volatile);
      if (phase === 'leaving') { done({ leaving: true }); return; }
      const begun = now();
      const go = () => settle((timedOut, missed) => {
        phase = 'idle';
        done(snapshot({ timedOut, missed, settleMs: round(now() - begun) }, opts.light));
      });
      waitLoad(() => (CONFIG.waitMs && phase === 'loading' ? nativeSetTimeout(go, CONFIG.waitMs) : go()));
    },
    // Fire one action, wait until settled, return the new snapshot (or where the page went).
    fire(spec, done) {
      if (spec.volatile) knownVolatile = setOf(spec.volatile);
      const el = find(spec);
      if (!el) { done({ error: 'not-found' }); return; }
      phase = 'firing';
      firingWords = spec.label + ' ' + elementWords(el);
      frames = [];
      longTimerRan = false;
      fireStart = now();
      lastActivity = fireStart;
      let answered = false;
      let absent = null;  // a choose:<k> whose popup shows only this many options
      const answer = (result) => { if (!answered) { answered = true; onLeave = null; done(result); } };
      onLeave = () => answer({ navigating: leavingTo, blocked: drain(blocked), dialogs: drain(dialogs) });
      const failed = (e) => {
        phase = 'idle';
        answer({ error: 'fire-failed', message: toText(e && e.message || e) });
      };
      const fired = () => {
        touch();  // the quiet window starts when the event has been handled
        if (phase === 'leaving') { if (onLeave) onLeave(); return; }
        if (CONFIG.waitMs) nativeSetTimeout(after, CONFIG.waitMs);
        else if (spec.event === 'scroll') rAF(() => rAF(after));
        else after();
      };
      const after = () => settle((timedOut, missed) => {
        if (phase === 'leaving') return;
        onMutations(observer.takeRecords());
        const recorded = frames;
        frames = null;
        phase = 'idle';
        const settleMs = round(now() - fireStart);
        answer(assign(snapshot({ timedOut, missed, frames: recorded, settleMs }, spec.light), { absent }));
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
        // The rest of the action once the page settled (unless it is leaving).
        const then = (rest) => settle(() => {
          if (phase === 'leaving') { if (onLeave) onLeave(); return; }
          try { rest(); } catch (e) { failed(e); return; }
          fired();
        });
        fill(spec.values);
        if (heldBack(spec)) {
          // The form's button is disabled until the page has seen the values (a form library
          // validates them on its next render): it is pressed once the page settled.
          then(() => dispatch(el, spec));
          return;
        }
        const choice = Re.exec(CHOOSE, toText(spec.action));
        const before = choice && setOf(optionsShown(null));
        dispatch(el, spec);
        if (choice) {
          then(() => {
            const options = Arr.filter(optionsShown(popupOf(el)), (o) => !before.has(o));
            const option = options[toNumber(choice[1])];
            absent = option ? null : options.length;
            // No such option: Escape closes the popup, so the page is back where it was.
            if (option) dispatch(option, { event: 'click' });
            else escape(document.activeElement || el);
          });
          return;
        }
      } catch (e) {
        failed(e);
        return;
      }
      fired();
    },
    // The navigation the page began did not leave it (it turned into a download): the
    // document is the page's again.
    stay(opts, done) {
      if (phase === 'leaving') { phase = 'idle'; leavingTo = null; }
      done({});
    },
    // Once two frames were drawn since the page last changed (see framing), for a picture.
    drawn(opts, done) {
      const start = now();
      const check = () => {
        if (framing() || now() - start >= FRAME_WAIT_MS || document.visibilityState === 'hidden') {
          done({ frames: framesSince });
        } else nativeSetTimeout(check, 4);
      };
      check();
    },
    // Fire several actions in a row (a replay), each settling before the next: one round trip.
    // Stops at the first that fails or leaves the page.
    replay(specs, done) {
      const steps = [];
      const next = (i) => {
        if (i >= specs.length) { done({ steps }); return; }
        agent.fire(specs[i], (result) => {
          Arr.push(steps, result);
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
    // The login form's fields by name, and what a CSS selector or a text names.
    login(names, done) {
      done(loginForm(names));
    },
    present(what, done) {
      done(present(what));
    },
    // What the agent of a frame's parent asks of it.
    frame: {
      html: () => documentHTML(fields()),
      candidates: () => candidates(),
      ruledOut: () => ruledOut,
      busy: () => ({ pending: pendingNet + pendingTimers, quietFor: now() - lastActivity }),
    },
  };
  function locate(loc) {  // an element's viewport centre, frame offsets included
    const el = query(loc);
    if (!el) return null;
    Dom.scrollIntoView(el, { __proto__: null, block: 'center', inline: 'center' });
    const r = Dom.getBoundingClientRect(el);
    let x = r.left + r.width / 2;
    let y = r.top + r.height / 2;
    const parts = Str.split(toText(loc), ' |> ');  // inside frames: add each frame's offset
    for (let i = parts.length - 1; i > 0; i--) {
      const frame = query(Arr.join(Arr.slice(parts, 0, i), ' |> '));
      const f = Dom.getBoundingClientRect(frame);
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
  const nativeParse = JSON.parse;
  const nativeStringify = JSON.stringify;
  function receive(event) {  // the event's detail, the event kept from any other listener
    Dom.preventDefault(event);
    Dom.stopImmediatePropagation(event);
    return detailOf(event);
  }
  // A request's objects have no prototype: what a page adds to Object.prototype is not an option.
  const bare = (key, value) => (value && typeof value === 'object' && !isArray(value) ? setProto(value, null) : value);
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
    const names = keys(value);
    for (let i = 0; i < names.length; i++) {
      const item = value[names[i]];
      if (item === undefined || typeof item === 'function') continue;
      out += (out ? ',' : '') + apply(nativeStringify, null, [names[i]]) + ':' + encode(item);
    }
    return '{' + out + '}';
  }
  const METHODS = {
    __proto__: null, snapshot: agent.snapshot, fire: agent.fire, replay: agent.replay, point: agent.point,
    login: agent.login, present: agent.present, stay: agent.stay, drawn: agent.drawn,
  };
  Dom.addEventListener(window, CHANNEL.request, (event) => {
    const detail = receive(event);
    let request = null;
    try { request = nativeParse(detail, bare); } catch (e) { return; }
    if (!request) return;
    const method = METHODS[request.method];
    const answer = (result) => signal(window, CHANNEL.answer, '{"id":' + encode(request.id) + ',"result":' + encode(result) + '}');
    if (!method) { answer({ error: 'unknown-method', message: toText(request.method) }); return; }
    try {
      apply(method, agent, [request.arg, answer]);
    } catch (e) {
      answer({ error: 'agent-failed', message: toText(e && e.message || e) });
    }
  }, true);
  nativeAdd.call(window, CHANNEL.frame, (event) => { receive(event).frame = agent.frame; }, true);
  nativeAdd.call(window, CHANNEL.note, (event) => {
    const { kind, item } = receive(event);
    Arr.push(noted(kind), item);
  }, true);
})
