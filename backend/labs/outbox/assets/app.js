// Outbox: the page half of the outbox lab. Every app event is posted to the server through
// labkit's one promise chain (lab.js), so the server logs them in the order they happened;
// sends run on the same chain. Each Send mints a new operation id; Retry resends a send the
// page could not confirm with the same one. The Sent list always shows the server's store.
'use strict';

(() => {
  const SENT = 'Message sent';
  const LOST = 'Could not confirm the send: the connection closed before the server answered.';
  const { $, enqueue, post, show, cell, event: log } = lab;
  const fields = { to: $('to'), subject: $('subject'), body: $('body') };
  const op = $('op');
  const notice = $('notice');
  const alertBox = $('alert');
  const alertText = $('alert-text');
  const retry = $('retry');
  const rows = $('rows');
  const rewrite = JSON.parse($('rewrite').textContent);

  function showAlert(text, canRetry) {
    alertText.textContent = text;
    retry.hidden = !canRetry;
    alertBox.hidden = text === '';
  }

  function render(messages) {
    if (messages.length === 0) {
      const td = cell('Nothing sent yet');
      td.colSpan = 2;
      td.className = 'empty';
      const tr = document.createElement('tr');
      tr.append(td);
      rows.replaceChildren(tr);
      return;
    }
    rows.replaceChildren(...messages.map((m) => {
      const tr = document.createElement('tr');
      tr.append(cell(m.to), cell(m.subject));
      return tr;
    }));
  }

  async function refresh() {
    const res = await fetch('/api/messages', { cache: 'no-store' });
    if (res.ok) render(await res.json());
  }

  function newOpID() {
    return 'op-' + crypto.getRandomValues(new Uint32Array(2)).join('-');
  }

  // The send the page could not confirm, which Retry sends again with the same operation id.
  let unconfirmed = null;

  async function deliver(message) {
    try {
      await post('/api/messages', message);
    } catch (err) {
      if (err.status) {
        showAlert(`Send refused: ${err.message}`, false);
        return;
      }
      unconfirmed = message;
      showAlert(LOST, true);
      log('send_failed', { op_id: message.op_id, text: LOST });
      return;
    }
    unconfirmed = null;
    await refresh().catch(() => {});
    show(notice, SENT);
    log('notice_shown', { op_id: message.op_id, text: SENT });
  }

  function send(message) {
    op.value = message.op_id;
    show(notice, '');
    showAlert('', false);
    enqueue(() => deliver(message));
  }

  for (const [name, el] of Object.entries(fields)) {
    el.addEventListener('input', () => log('field_changed', { field: name, value: el.value }));
  }
  $('composer').addEventListener('submit', (e) => e.preventDefault());
  $('send').addEventListener('click', () => {
    send({ op_id: newOpID(), to: fields.to.value, subject: fields.subject.value, body: fields.body.value });
  });
  fields.body.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) $('send').click();
  });
  retry.addEventListener('click', () => {
    if (unconfirmed) send(unconfirmed);
  });
  // The recipient-changed fault: the address book "resolves" the contact as the pointer
  // reaches Send, after the agent filled the field.
  if (rewrite) {
    $('send').addEventListener('pointerenter', () => {
      if (fields.to.value === '' || fields.to.value === rewrite) return;
      fields.to.value = rewrite;
      log('field_changed', { field: 'to', value: rewrite });
    });
  }

  const initial = JSON.parse($('initial').textContent);
  render(initial.messages);
  show(notice, initial.notice);
})();
