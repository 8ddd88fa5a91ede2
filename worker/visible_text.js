// visible_text.js: the text a person sees on the page, for `read` and `assert textContains`.
// It runs in the worker's isolated world. It never returns input, textarea or select values,
// password values, hidden or off-screen text, HTML, frame contents or script output.
//
// Separators follow what a person sees, as innerText does: a block boundary is a new line;
// between two runs of one block, collapsed white space or a visible gap in the layout
// (margin, padding, a button's border, a wrap to the next line) is one space, and runs that
// touch (<b>Bold</b>ly) join into one word.
//
// scope, when given, is an element: the text is that element's (an assertion's target or
// table cell), and nothing of it shows when the element itself is hidden.
function (maxChars, scope) {
  // Elements whose text is never shown as page text (values, code, embedded documents).
  const SKIP = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'TEXTAREA', 'SELECT',
    'OPTION', 'OPTGROUP', 'DATALIST', 'INPUT', 'IFRAME', 'FRAME', 'FRAMESET', 'OBJECT',
    'EMBED', 'CANVAS', 'HEAD', 'TITLE']);
  const seen = new Map();
  const shown = (el) => {
    if (seen.has(el)) return seen.get(el);
    let ok = true;
    if (SKIP.has(el.tagName)) ok = false;
    else if (el.parentElement && !shown(el.parentElement)) ok = false;
    else if (el.checkVisibility && !el.checkVisibility({opacityProperty: true, visibilityProperty: true})) ok = false;
    else {
      // Moved out of the page (left:-10000px and the like) counts as hidden from sight.
      const r = el.getBoundingClientRect();
      if (r.right + window.scrollX <= 0 || r.bottom + window.scrollY <= 0) ok = false;
    }
    seen.set(el, ok);
    return ok;
  };
  const blockOf = (el) => {
    for (let e = el; e; e = e.parentElement) {
      const d = getComputedStyle(e).display;
      if (!d.startsWith('inline') && d !== 'contents') return e;
    }
    return null;
  };
  // The first or last box a text node is laid out in (one per line it spans).
  const edgeBox = (node, last) => {
    const range = document.createRange();
    range.selectNodeContents(node);
    const boxes = range.getClientRects();
    return boxes.length ? boxes[last ? boxes.length - 1 : 0] : null;
  };
  // apart says whether a person sees a gap between the end of text node a and the start of
  // text node b: b starts on another line, or the gap is at least a sixth of b's font size
  // (about half a space), so sub-pixel rounding between touching runs never splits a word.
  const apart = (a, b) => {
    const ra = edgeBox(a, true), rb = edgeBox(b, false);
    if (!ra || !rb) return false;
    if (rb.top >= ra.bottom || rb.bottom <= ra.top) return true;
    const gap = Math.max(rb.left - ra.right, ra.left - rb.right);
    if (gap < 1) return false;
    return gap >= (parseFloat(getComputedStyle(b.parentElement).fontSize) || 16) / 6;
  };
  const root = scope || document.body || document.documentElement;
  const lines = [];
  // prev is the line's last text node; space says collapsed white space followed it.
  let line = '', block = null, prev = null, space = false, total = 0, truncated = false;
  if (root) {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      if (!el || !shown(el)) continue;
      const words = n.data.replace(/\s+/g, ' ');
      if (words.trim() === '') {
        // White space between two inline elements is rendered as one space.
        if (prev) space = true;
        continue;
      }
      const b = blockOf(el);
      if (b !== block && line.trim() !== '') { lines.push(line.trim()); line = ''; prev = null; space = false; }
      block = b;
      let sep = '';
      if (prev && !line.endsWith(' ') && !words.startsWith(' ') && (space || apart(prev, n))) sep = ' ';
      line += sep + words;
      total += sep.length + words.length;
      prev = n;
      space = false;
      if (total > maxChars) { truncated = true; break; }
    }
  }
  if (line.trim() !== '') lines.push(line.trim());
  let text = lines.map((l) => l.replace(/ {2,}/g, ' ')).join('\n');
  if (text.length > maxChars) { text = text.slice(0, maxChars); truncated = true; }
  return {url: location.href, title: document.title, text, truncated};
}
