// Masks what a screenshot must not show, then proves it. Called on the tab's document in the
// worker's isolated world with (items): every match of the redaction rules in every frame of
// the tab, each a list of [x, y, w, h] rects already moved into the tab's viewport, or null
// for a match the worker could not place. One layer of black boxes above the whole page
// covers them all: a frame's content, even its top layer, paints inside its <iframe>, below
// the layer.
// Returns {matched, unmasked}: unmasked counts matches with a point inside the viewport that
// is not under a mask, measured after masking, and matches that could not be placed.
// elementFromPoint sees through nothing: a match painted above the mask layer (a modal dialog
// of this document, or an <iframe> in its top layer) counts.
function (items) {
  const ATTR = 'data-fastbrowser-mask';
  for (const old of document.querySelectorAll('[' + ATTR + ']')) old.remove();
  const layer = document.createElement('div');
  layer.setAttribute(ATTR, '');
  layer.style.cssText = 'all:initial;position:absolute;left:0;top:0;width:0;height:0;overflow:visible;z-index:2147483647;pointer-events:none';
  const sx = window.scrollX, sy = window.scrollY;
  const cover = ([x, y, w, h]) => {
    const b = document.createElement('div');
    b.style.cssText = 'all:initial;display:block;position:absolute;background:#000;pointer-events:auto;' +
      'left:' + (x + sx - 2) + 'px;top:' + (y + sy - 2) + 'px;width:' + (w + 4) + 'px;height:' + (h + 4) + 'px';
    layer.appendChild(b);
  };
  items.forEach(rs => rs && rs.forEach(cover));
  document.documentElement.appendChild(layer);
  const vw = window.innerWidth, vh = window.innerHeight;
  const shows = ([x0, y0, w, h]) => {
    for (const fx of [0.05, 0.5, 0.95]) for (const fy of [0.1, 0.5, 0.9]) {
      const x = x0 + w * fx, y = y0 + h * fy;
      if (x < 0 || y < 0 || x >= vw || y >= vh) continue;
      const hit = document.elementFromPoint(x, y);
      if (!hit || hit.parentNode !== layer) return true;
    }
    return false;
  };
  let unmasked = 0;
  for (const rs of items) {
    if (rs === null || rs.some(shows)) unmasked++;
  }
  return { matched: items.length, unmasked };
}
