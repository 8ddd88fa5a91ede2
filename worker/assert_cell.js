// assert_cell.js: finds one table cell for `assert textContains` with a cell, and returns its
// visible text (visible_text.js, passed in as visibleText). It runs in the worker's isolated
// world, with `this` the table when the assertion names one, else over the page's tables.
//
// The column is the one whose header cell's text is `column` (white space folded; else
// ignoring case). The row is the one with a cell whose text is `rowKey`, else the only one
// with a cell containing it. Column positions count colspans. At most maxRows rows of each
// table are looked at. What is missing is said, never guessed: {miss: "table" | "column" |
// "row"}, or {ambiguous: n} when n rows match the key equally well.
function (visibleText, rowKey, column, maxRows, maxChars) {
  const norm = (s) => (s || '').replace(/\s+/g, ' ').trim();
  const scope = this && this.nodeType === 1 ? this : null;
  const tables = scope ? [scope]
    : Array.from(document.querySelectorAll('table, [role="table"], [role="grid"], [role="treegrid"]'));
  if (tables.length === 0) return {miss: 'table'};
  const CELL = ['cell', 'gridcell', 'columnheader', 'rowheader'];
  const rowsOf = (tb) => {
    const rows = tb.tagName === 'TABLE' ? Array.from(tb.rows)
      : Array.from(tb.querySelectorAll('[role="row"]'));
    return rows.slice(0, maxRows);
  };
  const cellsOf = (r) => r.tagName === 'TR' ? Array.from(r.cells)
    : Array.from(r.querySelectorAll('[role]')).filter((c) => CELL.includes(c.getAttribute('role')) && c.closest('[role="row"]') === r);
  // A header cell: a columnheader, or a <th> in a <thead>, with scope=col, or in a row of
  // header cells only.
  const headerCell = (c) => c.tagName === 'TH' || c.getAttribute('role') === 'columnheader';
  const isHeader = (c, cells, r) => c.getAttribute('role') === 'columnheader' || c.tagName === 'TH' &&
    (r.parentElement.tagName === 'THEAD' || c.getAttribute('scope') === 'col' || cells.every((p) => headerCell(p.cell)));
  // Each cell with the first column position it covers and how many it spans.
  const placed = (r) => {
    let at = 0;
    return cellsOf(r).map((c) => { const p = {cell: c, at, span: Math.max(1, c.colSpan || 1)}; at += p.span; return p; });
  };
  const want = norm(column), wantLower = want.toLowerCase();
  const candidates = [];
  for (const tb of tables) {
    const rows = rowsOf(tb);
    let col = -1, header = null;
    for (const r of rows) {
      const cells = placed(r);
      const heads = cells.filter((p) => isHeader(p.cell, cells, r));
      if (heads.length === 0) continue;
      const hit = heads.find((p) => norm(p.cell.innerText) === want) || heads.find((p) => norm(p.cell.innerText).toLowerCase() === wantLower);
      if (hit) { col = hit.at; header = r; break; }
    }
    const body = rows.filter((r) => {
      if (r === header || r.parentElement.tagName === 'THEAD') return false;
      const cells = placed(r);
      return cells.length > 0 && !cells.every((p) => headerCell(p.cell));
    });
    if (col >= 0) candidates.push({rows: body, col});
  }
  if (candidates.length === 0) return {miss: 'column', tables: tables.length};
  const key = norm(rowKey);
  let equal = [], containing = [];
  for (const {rows, col} of candidates) {
    for (const r of rows) {
      const cells = placed(r);
      const texts = cells.map((p) => norm(p.cell.innerText));
      const at = cells.find((p) => p.at <= col && col < p.at + p.span);
      if (texts.includes(key)) equal.push(at);
      else if (texts.some((t) => t.includes(key))) containing.push(at);
    }
  }
  const found = equal.length > 0 ? equal : containing;
  if (found.length === 0) return {miss: 'row'};
  if (found.length > 1) return {ambiguous: found.length};
  if (!found[0]) return {text: '', truncated: false}; // the row has no cell in that column
  const t = visibleText(maxChars, found[0].cell);
  return {text: t.text, truncated: t.truncated};
}
