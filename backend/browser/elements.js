(limit) => {
  // Lists the page's visible elements that have a role and an accessible name, with their
  // boxes in the shape of agent.Candidate, as JSON: what a target that matched nothing may
  // have meant. At most limit elements, in page order; names are cut at 200 characters.
  // It runs with aria.js's helpers declared first (see pageScript).
  const out = [];
  for (const el of deep(document.body || document.documentElement)) {
    const r = role(el);
    if (!r || !visible(el)) continue;
    const n = name(el, r);
    if (!n) continue;
    const b = el.getBoundingClientRect();
    out.push({
      role: r,
      name: n.slice(0, 200),
      similarity: 0,
      box: { x: b.x, y: b.y, width: b.width, height: b.height, viewport_width: innerWidth, viewport_height: innerHeight },
    });
    if (out.length >= limit) break;
  }
  return JSON.stringify(out);
}
