// Masks what a screenshot must not show, then proves it. Called on the document's element in
// the worker's isolated world with (secrets, ...elements): the elements the redaction rules
// matched (password fields, fields that received a secret, configured rules), and the typed
// secret values, whose text runs are masked wherever the page echoed them.
// Returns {matched, unmasked}: unmasked counts matches with a point inside the viewport that
// is not under a mask, measured after masking. elementFromPoint sees through nothing: a
// match in the top layer (a modal dialog) or otherwise painted above the mask layer counts.
function (secrets, ...targets) {
  const ATTR = 'data-fastbrowser-mask';
  for (const old of document.querySelectorAll('[' + ATTR + ']')) old.remove();
  const items = []; // {rects: () => DOMRect[] in top-frame viewport coordinates}
  const offsetOf = (doc) => {
    let x = 0, y = 0;
    for (let w = doc.defaultView; w && w !== window; w = w.parent) {
      const f = w.frameElement;
      if (!f) return null;
      const r = f.getBoundingClientRect();
      x += r.left + f.clientLeft; y += r.top + f.clientTop;
    }
    return [x, y];
  };
  const shift = (list, off) => [...list].map(r => new DOMRect(r.left + off[0], r.top + off[1], r.width, r.height));
  const elementRects = (el) => () => {
    const off = offsetOf(el.ownerDocument);
    if (!off) return null; // cannot place a mask: counts as unmasked when it has a box
    return shift(el.getClientRects(), off);
  };
  const seen = new Set();
  const addElement = (el) => {
    if (!el || seen.has(el) || !el.getClientRects) return;
    seen.add(el);
    items.push({ rects: elementRects(el) });
  };
  targets.forEach(addElement);
  // Text runs and field values that contain a typed secret, in this document and its
  // same-origin frames.
  const docs = [document];
  for (let i = 0; i < docs.length && i < 64; i++) {
    for (const f of docs[i].querySelectorAll('iframe, frame')) {
      try { if (f.contentDocument) docs.push(f.contentDocument); } catch (e) { /* cross-origin */ }
    }
  }
  const live = secrets.filter(s => s && s.length > 0);
  for (const doc of docs) {
    for (const f of doc.querySelectorAll('input[type="password" i]')) addElement(f);
    if (!live.length) continue;
    for (const f of doc.querySelectorAll('input, textarea')) {
      const v = f.value || '';
      if (live.some(s => v.includes(s))) addElement(f);
    }
    const root = doc.body || doc.documentElement;
    if (!root) continue;
    const tw = doc.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let n = tw.nextNode(); n; n = tw.nextNode()) {
      for (const s of live) {
        for (let i = n.data.indexOf(s); i >= 0; i = n.data.indexOf(s, i + 1)) {
          const r = doc.createRange();
          r.setStart(n, i); r.setEnd(n, i + s.length);
          items.push({ rects: () => { const off = offsetOf(doc); return off ? shift(r.getClientRects(), off) : null; } });
        }
      }
    }
  }
  const layer = document.createElement('div');
  layer.setAttribute(ATTR, '');
  layer.style.cssText = 'all:initial;position:absolute;left:0;top:0;width:0;height:0;overflow:visible;z-index:2147483647;pointer-events:none';
  const sx = window.scrollX, sy = window.scrollY;
  const cover = (r) => {
    if (r.width <= 0 || r.height <= 0) return;
    const b = document.createElement('div');
    b.style.cssText = 'all:initial;display:block;position:absolute;background:#000;pointer-events:auto;' +
      'left:' + (r.left + sx - 2) + 'px;top:' + (r.top + sy - 2) + 'px;width:' + (r.width + 4) + 'px;height:' + (r.height + 4) + 'px';
    layer.appendChild(b);
  };
  const boxes = items.map(it => it.rects());
  boxes.forEach(rs => rs && rs.forEach(cover));
  document.documentElement.appendChild(layer);
  const vw = window.innerWidth, vh = window.innerHeight;
  const shows = (r) => {
    for (const fx of [0.05, 0.5, 0.95]) for (const fy of [0.1, 0.5, 0.9]) {
      const x = r.left + r.width * fx, y = r.top + r.height * fy;
      if (x < 0 || y < 0 || x >= vw || y >= vh) continue;
      const hit = document.elementFromPoint(x, y);
      if (!hit || hit.parentNode !== layer) return true;
    }
    return false;
  };
  let unmasked = 0;
  items.forEach((it, i) => {
    const rs = it.rects();
    if (rs === null) { unmasked++; return; } // cannot be placed: never claimed masked
    if (rs.some(r => r.width > 0 && r.height > 0 && shows(r))) unmasked++;
  });
  return { matched: items.length, unmasked };
}
