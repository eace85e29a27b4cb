(el) => {
  // Reports whether a pointer cannot reach el: it lies off the page (left: -9999px) or is
  // clipped to a pixel or less (the "visually hidden" pattern of accessibility toggles), by
  // its own box, a clip or clip-path, or an ancestor that hides its overflow.
  if (el.getClientRects().length === 0) return false; // not rendered: nothing to reach yet
  const r = el.getBoundingClientRect();
  let [left, top, right, bottom] = [r.left, r.top, r.right, r.bottom];
  const within = (l, t, rt, b) => {
    left = Math.max(left, l); top = Math.max(top, t);
    right = Math.min(right, rt); bottom = Math.min(bottom, b);
  };
  for (let a = el; a && a !== document.documentElement; a = a.parentElement) {
    const cs = getComputedStyle(a);
    const box = a.getBoundingClientRect();
    const clip = /^rect\((.*)\)$/.exec(cs.clip || "");
    if (clip && (cs.position === "absolute" || cs.position === "fixed")) {
      const [t, rt, b, l] = clip[1].split(/[ ,]+/).map((v) => (v === "auto" ? NaN : parseFloat(v)));
      within(box.left + (l || 0), box.top + (t || 0),
        isNaN(rt) ? box.right : box.left + rt, isNaN(b) ? box.bottom : box.top + b);
    }
    const inset = /^inset\(\s*(\d+(?:\.\d+)?)%/.exec(cs.clipPath || "");
    if (inset && parseFloat(inset[1]) >= 50) within(0, 0, 0, 0);
    if (a !== el && (cs.overflowX !== "visible" || cs.overflowY !== "visible")) {
      within(box.left, box.top, box.right, box.bottom);
    }
  }
  const offPage = right + window.scrollX <= 0 || bottom + window.scrollY <= 0 ||
    left + window.scrollX >= document.documentElement.scrollWidth ||
    top + window.scrollY >= document.documentElement.scrollHeight;
  return right - left <= 1 || bottom - top <= 1 || offPage;
}
