// expect.js: what the web-first assertion kinds (transport/expect.go) read of one element,
// with Playwright's semantics (injectedScript's elementState, elementText and expect). It
// runs with the element as `this`; req says what to read:
//   {name}          an attribute (present, value), never a password field's value attribute;
//   {text, inner}   the element's text: textContent as Playwright's elementText (every text
//                   node, open shadow roots included, not script/style/noscript; a
//                   button-like input's value), or innerText; bounded to req.max;
//   {values}        a multi-select's selected values;
//   always          class, focused, why it is hidden, whether it can be edited.
function (req) {
  const el = this;
  const tag = el.tagName ? el.tagName.toLowerCase() : '';
  const type = ((el.getAttribute && el.getAttribute('type')) || '').toLowerCase();
  const bound = (v) => {
    v = String(v == null ? '' : v);
    if (v.length <= req.max) return v;
    const end = /[\uD800-\uDBFF]/.test(v[req.max - 1]) ? req.max - 1 : req.max;
    return v.slice(0, end);
  };
  const out = {className: bound(el.getAttribute ? el.getAttribute('class') || '' : '')};

  // Why a hidden element is hidden, for the call log: the first cause found.
  const win = el.ownerDocument && el.ownerDocument.defaultView;
  const up = (e) => e.parentElement || (e.parentNode && e.parentNode.host) || null;
  out.hiddenBy = '';
  if (!el.isConnected) out.hiddenBy = 'detached';
  else if (win) {
    for (let e = el; e && !out.hiddenBy; e = up(e)) {
      if (e.nodeType === 1 && win.getComputedStyle(e).display === 'none') out.hiddenBy = 'display:none';
    }
    if (!out.hiddenBy) {
      const s = win.getComputedStyle(el);
      if (s.visibility !== 'visible') out.hiddenBy = 'visibility:' + s.visibility;
      else { const r = el.getBoundingClientRect(); if (!(r.width > 0 && r.height > 0)) out.hiddenBy = 'empty box'; }
    }
  }

  // Focus: the element is its root's active element (a shadow root's, or its document's).
  const root = el.getRootNode && el.getRootNode();
  out.focused = !!(root && root.activeElement === el);

  // Editable (Playwright's elementState 'editable'): inputs, textareas and selects by their
  // readonly attribute, contenteditable, and the roles that take aria-readonly by it; any
  // other element cannot be asked (Playwright throws).
  const role = ((el.getAttribute && el.getAttribute('role')) || '').toLowerCase();
  const readonlyRoles = ['checkbox', 'combobox', 'grid', 'gridcell', 'listbox', 'radiogroup', 'slider', 'spinbutton',
    'textbox', 'columnheader', 'rowheader', 'searchbox', 'switch', 'treegrid', 'menuitemcheckbox', 'menuitemradio', 'option'];
  if (tag === 'input' || tag === 'textarea' || tag === 'select') {
    out.canEdit = true;
    out.readOnly = el.hasAttribute('readonly');
  } else if (el.isContentEditable) {
    out.canEdit = true;
    out.readOnly = false;
  } else if (readonlyRoles.includes(role)) {
    out.canEdit = true;
    out.readOnly = ((el.getAttribute('aria-readonly') || '').toLowerCase() === 'true');
  } else {
    out.canEdit = false;
    out.readOnly = false;
  }

  if (req.name) {
    out.password = tag === 'input' && type === 'password';
    out.present = el.hasAttribute(req.name);
    out.attr = out.present && !(out.password && req.name.toLowerCase() === 'value') ? bound(el.getAttribute(req.name)) : '';
  }
  if (req.text) {
    if (req.inner) out.text = bound(el.innerText);
    else {
      const skipped = (e) => e.nodeType === 1 && (e.nodeName === 'SCRIPT' || e.nodeName === 'STYLE' ||
        e.nodeName === 'NOSCRIPT' || !!(e.ownerDocument.head && e.ownerDocument.head.contains(e)));
      const raw = (n) => {
        if (skipped(n)) return '';
        const t = n.nodeName === 'INPUT' ? String(n.type).toLowerCase() : '';
        if (t === 'submit' || t === 'button') return String(n.value || '');
        let v = '';
        for (let c = n.firstChild; c; c = c.nextSibling) {
          if (c.nodeType === 3) v += c.nodeValue || '';
          else if (c.nodeType === 1) v += raw(c);
          if (v.length > req.max) break;
        }
        if (n.shadowRoot) v += raw(n.shadowRoot);
        return v;
      };
      out.text = bound(raw(el));
    }
  }
  if (req.values) {
    out.multiple = tag === 'select' && !!el.multiple;
    out.values = out.multiple ? Array.from(el.selectedOptions).map((o) => bound(o.value)) : [];
  }
  return out;
}
