// What the labs' pages share, loaded before each page's own script. Every app event is
// posted to the server through one promise chain, so the server logs them in the order they
// happened; a page runs its own requests on the same chain, so no event overtakes them.
'use strict';

const lab = (() => {
  // The serialized queue: each task starts when the one before has settled.
  let chain = Promise.resolve();
  function enqueue(task) {
    const run = chain.then(task);
    chain = run.catch(() => {});
    return run;
  }

  // post sends JSON and returns the answer; a non-2xx answer throws an Error carrying the
  // server's message and status.
  async function post(path, body) {
    const res = await fetch(path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    const answer = res.status === 204 ? {} : await res.json().catch(() => ({}));
    if (!res.ok) {
      const err = new Error(answer.error || `${path} answered HTTP ${res.status}`);
      err.status = res.status;
      throw err;
    }
    return answer;
  }

  return {
    $: (id) => document.getElementById(id),
    enqueue,
    post,
    // event posts one app event, in turn.
    event: (type, data) => enqueue(() => post('/api/events', { type, data })),
    // show sets an element's text, and hides it while the text is empty.
    show(el, text) {
      el.textContent = text;
      el.hidden = text === '';
    },
    // cell is a table cell holding text.
    cell(text) {
      const td = document.createElement('td');
      td.textContent = text;
      return td;
    },
  };
})();
