// locate.js: the locators that find elements by what a person reads on them (text, label,
// placeholder, alt text, title, test id), and the refinements every locator kind shares
// (hasText, within, has). It runs in the worker's isolated world, with Playwright's
// semantics (injectedScript's text, label and attribute engines); nothing of the caller's
// is ever run or parsed as script or CSS: the match comes as JSON data.
//
// req.op says what to do:
//   find     returns the matching elements of the document (and its open shadow roots and
//            same-origin frames), in document order, at most req.max of them;
//   hasText  returns, for each element given, whether its text matches req.match;
//   within   returns, for each of the first req.n elements, whether one of the others
//            holds it (is an ancestor, across open shadow roots);
//   has      returns, for each of the first req.n elements, whether it holds one of the
//            others (never itself);
//   boxes    returns, for each element given, the centre of its box in its session's
//            viewport ([x, y], or null without a box), for a message.
// A match is {string, exact} or {regex, flags}: see transport.TextMatch, whose Go Matcher
// this mirrors (white space folded as transport.FoldSpace does).
function (req, ...els) {
  // Go's unicode.IsSpace, which transport.FoldSpace folds.
  const SPACE = /[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/g;
  // transport.ZeroWidth's characters, which transport.FoldSpace drops first.
  const ZERO_WIDTH = /[\u200b\u200c\u200d\u2060\ufeff]/g;
  const fold = (s) => String(s == null ? '' : s).replace(ZERO_WIDTH, '').replace(SPACE, ' ').replace(/^ | $/g, '');
  const matcher = (m) => {
    if (!m) return () => true;
    if (m.regex) {
      const re = new RegExp(m.regex, m.flags || '');
      return (t) => re.test(t);
    }
    const want = fold(m.string);
    if (m.exact) return (t) => t === want;
    const low = want.toLowerCase();
    return (t) => t.toLowerCase().includes(low);
  };

  // An element's text, as Playwright's elementText: every text node under it, and under
  // its open shadow root, but nothing of script, style, noscript or the head; a button-like
  // input's text is its value.
  const texts = new Map();
  const skipped = (el) => el.nodeType === 1 && (el.nodeName === 'SCRIPT' || el.nodeName === 'STYLE' ||
    el.nodeName === 'NOSCRIPT' || !!(el.ownerDocument.head && el.ownerDocument.head.contains(el)));
  const rawText = (root) => {
    let v = texts.get(root);
    if (v !== undefined) return v;
    v = '';
    if (!skipped(root)) {
      const type = root.nodeName === 'INPUT' ? String(root.type).toLowerCase() : '';
      if (type === 'submit' || type === 'button') v = String(root.value || '');
      else {
        for (let c = root.firstChild; c; c = c.nextSibling) {
          if (c.nodeType === 3) v += c.nodeValue || '';
          else if (c.nodeType === 1) v += rawText(c);
        }
        if (root.shadowRoot) v += rawText(root.shadowRoot);
      }
    }
    texts.set(root, v);
    return v;
  };
  const folded = new Map();
  const text = (root) => {
    let f = folded.get(root);
    if (f === undefined) { f = fold(rawText(root)); folded.set(root, f); }
    return f;
  };

  // up is an element's parent, from a shadow root to its host.
  const up = (n) => {
    const p = n.parentNode;
    return p && p.nodeType === 11 && p.host ? p.host : p;
  };
  const holds = (outer, el) => {
    for (let n = up(el); n; n = up(n)) if (n === outer) return true;
    return false;
  };

  if (req.op === 'hasText') {
    const m = matcher(req.match);
    return els.map((el) => m(text(el)));
  }
  if (req.op === 'within' || req.op === 'has') {
    const cands = els.slice(0, req.n), others = els.slice(req.n);
    return cands.map((c) => others.some((o) => o !== c && (req.op === 'within' ? holds(o, c) : holds(c, o))));
  }
  if (req.op === 'boxes') {
    return els.map((el) => {
      const r = el.getBoundingClientRect();
      if (!r || (r.width === 0 && r.height === 0)) return null;
      let x = r.left + r.width / 2, y = r.top + r.height / 2;
      // Into the session's viewport through same-process frames (as hitTestFn, the other way).
      for (let w = el.ownerDocument.defaultView; w && w.frameElement; w = w.parent) {
        const f = w.frameElement, b = f.getBoundingClientRect();
        x += b.left + f.clientLeft; y += b.top + f.clientTop;
      }
      return [Math.round(x), Math.round(y)];
    });
  }

  // find: every element in document order, a shadow tree right after its host, a
  // same-origin frame's document right after its frame element.
  const out = [];
  const m = matcher(req.match);
  const FORM = new Set(['BUTTON', 'METER', 'OUTPUT', 'PROGRESS', 'SELECT', 'TEXTAREA']);
  const labels = (el) => {
    const ids = el.getAttribute('aria-labelledby');
    if (ids !== null) {
      const root = el.getRootNode();
      const found = ids.split(/\s+/).filter(Boolean)
        .map((id) => root.getElementById ? root.getElementById(id) : el.ownerDocument.getElementById(id))
        .filter(Boolean);
      if (found.length) return found.map(text);
    }
    const aria = el.getAttribute('aria-label');
    if (aria !== null && aria.trim()) return [fold(aria)];
    const input = el.nodeName === 'INPUT' && String(el.type).toLowerCase() !== 'hidden';
    if ((FORM.has(el.nodeName) || input) && el.labels) return [...el.labels].map(text);
    return [];
  };
  const attr = (el, name) => {
    const v = el.getAttribute(name);
    return v !== null && m(fold(v));
  };
  const ALT = new Set(['IMG', 'AREA']);
  const test = {
    // The innermost: its own text matches and no child element's (or shadow root's) does.
    text: (el) => {
      if (skipped(el) || !m(text(el))) return false;
      for (const c of el.children) if (m(text(c))) return false;
      return !(el.shadowRoot && m(text(el.shadowRoot)));
    },
    label: (el) => labels(el).some(m),
    placeholder: (el) => (el.nodeName === 'INPUT' || el.nodeName === 'TEXTAREA') && attr(el, 'placeholder'),
    altText: (el) => (ALT.has(el.nodeName) || (el.nodeName === 'INPUT' && String(el.type).toLowerCase() === 'image')) && attr(el, 'alt'),
    title: (el) => attr(el, 'title'),
    testId: (el) => el.getAttribute(req.attr) === req.id,
  }[req.kind];
  const walk = (root) => {
    for (const el of root.querySelectorAll('*')) {
      if (out.length >= req.max) return;
      if (test(el)) out.push(el);
      if (el.shadowRoot) walk(el.shadowRoot);
      if (el.nodeName === 'IFRAME' || el.nodeName === 'FRAME') {
        let doc = null;
        try { doc = el.contentDocument; } catch (e) { doc = null; } // cross-origin: not ours to read
        if (doc) walk(doc);
      }
    }
  };
  walk(document);
  return out;
}
