(els) => {
  // Returns the point where a pointer moved now lands on the one element els holds, after the
  // checks Playwright's hover makes: attached, its box the same across two animation frames,
  // visible, and the element (or one inside it) the hit target at the point, the centre of its
  // first box. It returns null when a check fails or is not one it makes: more or fewer than
  // one element, a pinch-zoomed viewport, a box not wholly in view (Playwright's hover scrolls
  // it in: outside the viewport or a scrolling ancestor), display: contents, or frames that do
  // not come within 250 ms. The caller then hovers with Playwright's, which waits, scrolls,
  // retries and reports as ever.
  if (els.length !== 1) return null;
  const el = els[0];
  if (!el.isConnected || el.ownerDocument !== document) return null;
  if (window.visualViewport && window.visualViewport.scale !== 1) return null;
  const up = (e) => e.parentElement || (e.parentNode && e.parentNode.nodeType === 11 ? e.parentNode.host : null);
  const box = () => {
    const r = el.getBoundingClientRect();
    return [r.top, r.left, r.width, r.height];
  };
  const frame = () => new Promise((done) => requestAnimationFrame(() => done()));
  const inView = (r) => {
    const de = document.documentElement;
    const w = Math.min(innerWidth, de.clientWidth || innerWidth), h = Math.min(innerHeight, de.clientHeight || innerHeight);
    if (r.left < 0 || r.top < 0 || r.right > w || r.bottom > h) return false;
    for (let a = up(el); a && a !== de && a !== document.body; a = up(a)) {
      const cs = getComputedStyle(a);
      if (cs.overflowX === "visible" && cs.overflowY === "visible") continue;
      const b = a.getBoundingClientRect();
      const left = b.left + a.clientLeft, top = b.top + a.clientTop;
      if (r.left < left || r.top < top || r.right > left + a.clientWidth || r.bottom > top + a.clientHeight) return false;
    }
    return true;
  };
  const hitsAt = (x, y) => {
    // Playwright's hit check (expectHitTarget): the topmost element at the point, looked for
    // through each shadow root on the way from the document to el, must be el or inside it.
    const roots = [];
    for (let e = el; e; ) {
      let n = e;
      while (n.parentNode) n = n.parentNode;
      if (n.nodeType !== 9 && n.nodeType !== 11) return false;
      roots.push(n);
      if (n.nodeType === 9) break;
      e = n.host;
    }
    let hit;
    for (let i = roots.length - 1; i >= 0; i--) {
      const root = roots[i];
      const all = root.elementsFromPoint(x, y);
      const one = root.elementFromPoint(x, y);
      if (one && all[0] && up(one) === all[0] && getComputedStyle(one).display === "contents") all.unshift(one);
      if (all[0] && all[1] === one && roots.slice(i).some((r) => r.host === all[0])) all.shift();
      if (!all[0]) break;
      hit = all[0];
      if (i && hit !== roots[i - 1].host) break;
    }
    while (hit && hit !== el) hit = hit.assignedSlot || up(hit);
    return hit === el;
  };
  const check = async () => {
    await frame();
    const first = box();
    await frame();
    const second = box();
    if (!el.isConnected || first.some((v, i) => v !== second[i])) return null;
    const cs = getComputedStyle(el);
    if (cs.display === "contents" || cs.visibility !== "visible" || !el.checkVisibility()) return null;
    const bounds = el.getBoundingClientRect();
    if (!(bounds.width > 0 && bounds.height > 0) || !inView(bounds)) return null;
    const r = [...el.getClientRects()].find((q) => q.width * q.height > 0.99);
    if (!r) return null;
    const x = Math.round((r.left + r.width / 2) * 100) / 100;
    const y = Math.round((r.top + r.height / 2) * 100) / 100;
    return hitsAt(x, y) ? { x, y } : null;
  };
  const late = new Promise((done) => setTimeout(() => done(null), 250));
  return Promise.race([check(), late]);
}
