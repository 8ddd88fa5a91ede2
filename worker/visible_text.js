// visible_text.js: the text a person sees on the page, for `read` and `assert textContains`.
// It runs in the worker's isolated world. It never returns input, textarea or select values,
// password values, hidden or off-screen text, HTML, frame contents or script output.
function (maxChars) {
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
  const root = document.body || document.documentElement;
  const lines = [];
  let line = '', block = null, total = 0, truncated = false;
  if (root) {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      if (!el || !shown(el)) continue;
      const words = n.data.replace(/\s+/g, ' ');
      if (words.trim() === '') continue;
      const b = blockOf(el);
      if (b !== block && line.trim() !== '') { lines.push(line.trim()); line = ''; }
      block = b;
      line += words;
      total += words.length;
      if (total > maxChars) { truncated = true; break; }
    }
  }
  if (line.trim() !== '') lines.push(line.trim());
  let text = lines.map((l) => l.replace(/ {2,}/g, ' ')).join('\n');
  if (text.length > maxChars) { text = text.slice(0, maxChars); truncated = true; }
  return {url: location.href, title: document.title, text, truncated};
}
