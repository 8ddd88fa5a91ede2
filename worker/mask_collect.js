// Finds, in one frame's document, what a screenshot must not show and the worker cannot name
// by node: password fields, fields whose value holds a typed secret, and text runs where the
// page echoed one (open shadow roots included). Runs in the worker's isolated world of that
// frame with (secrets). Returns {items: [[[x, y, w, h], …], …]}: each item's client rects in
// this frame's viewport; the worker moves them into the tab's viewport.
function (secrets) {
  const items = [];
  const rectsOf = (list) => [...list].filter(r => r.width > 0 && r.height > 0).map(r => [r.left, r.top, r.width, r.height]);
  const live = secrets.filter(s => s && s.length > 0);
  const roots = [document];
  for (let i = 0; i < roots.length && i < 1024; i++) {
    const root = roots[i];
    for (const el of root.querySelectorAll('*')) {
      if (el.shadowRoot) roots.push(el.shadowRoot);
    }
    for (const f of root.querySelectorAll('input, textarea')) {
      const password = f.tagName === 'INPUT' && (f.getAttribute('type') || '').toLowerCase() === 'password';
      const v = f.value || '';
      if (password || live.some(s => v.includes(s))) items.push(rectsOf(f.getClientRects()));
    }
    if (!live.length) continue;
    const tw = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let n = tw.nextNode(); n; n = tw.nextNode()) {
      for (const s of live) {
        for (let i = n.data.indexOf(s); i >= 0; i = n.data.indexOf(s, i + 1)) {
          const r = document.createRange();
          r.setStart(n, i); r.setEnd(n, i + s.length);
          items.push(rectsOf(r.getClientRects()));
        }
      }
    }
  }
  return { items, truncated: roots.length >= 1024 };
}
