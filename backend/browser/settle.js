([maxMS, afterAnswerMS]) => new Promise((resolve) => {
  // Resolves "quiet" once none of the page's fetches and XMLHttpRequests waits for its answer,
  // the last was answered afterAnswerMS ago or more (an update the page schedules on a short
  // timer once answered is waited for; a page that sent nothing waits for no timer), and the
  // page has then painted two frames in a row, and run the tasks queued before each, without
  // anything observe.js reads changing (its count of changes, see changes.js, the same after
  // each frame as before it): the page has done what the answers it received asked of it, a
  // continuation that parses a body or schedules its update on the next frame included. After
  // maxMS it resolves "pending" while a request still waits or was answered too lately,
  // "moving" for a page that keeps changing. A document that counts nothing (it was not
  // prepared) resolves "quiet" at once.
  const changes = window[Symbol.for("observatory.changes")];
  if (!changes) return resolve("quiet");
  const busy = () => changes.pending() > 0 || changes.sinceAnswer() < afterAnswerMS;
  const bound = setTimeout(() => resolve(busy() ? "pending" : "moving"), maxMS);
  let last = changes.token();
  let still = 0;
  const frame = () => requestAnimationFrame(() => setTimeout(() => {
    const now = changes.token();
    still = now === last && !changes.pending() ? still + 1 : 0;
    last = now;
    if (still < 2 || busy()) return frame();
    clearTimeout(bound);
    resolve("quiet");
  }, 0));
  frame();
})
