// Plans a bounded read of a huge document's accessibility tree, in document order: whole
// subtrees ("roots") while they fit in the element budget, and above them the elements they
// hang from ("shells", read without their children). Runs in the worker's isolated world
// with (budget, maxRoots); returns [shells, roots, truncated]. Walks without recursion, so
// nesting depth cannot overflow the stack.
function (budget, maxRoots) {
  const top = document.documentElement;
  if (!top) return [[document], [], false];
  const size = new Map();
  const order = [];
  for (const stack = [top]; stack.length;) {
    const el = stack.pop();
    order.push(el);
    for (let c = el.lastElementChild; c; c = c.previousElementSibling) stack.push(c);
  }
  for (let i = order.length - 1; i >= 0; i--) {
    let s = 1;
    for (let c = order[i].firstElementChild; c; c = c.nextElementSibling) s += size.get(c);
    size.set(order[i], s);
  }
  const shells = [document], roots = [];
  let left = budget, truncated = false;
  const next = [top];
  while (next.length) {
    const el = next.pop();
    if (roots.length >= maxRoots || left <= 0) { truncated = true; break; }
    const s = size.get(el);
    if (s <= left) { roots.push(el); left -= s; continue; }
    shells.push(el);
    left--;
    const kids = [];
    for (let c = el.firstElementChild; c; c = c.nextElementSibling) kids.push(c);
    for (let i = kids.length - 1; i >= 0; i--) next.push(kids[i]);
  }
  return [shells, roots, truncated || next.length > 0];
}
