// Lab reservations: the page half of the booking lab. Every app event is posted to the
// server through labkit's one promise chain (lab.js), so the server logs them in the order
// they happened; the save request runs on the same chain, so no event overtakes it. The table
// always shows the server's committed records, never the page's own memory.
'use strict';

(() => {
  const SAVED = 'Reservation saved';
  const { $, enqueue, post, show, cell, event: send } = lab;
  const dialog = $('dialog');
  const form = $('form');
  const title = $('title');
  const room = $('room');
  const save = $('save');
  const notice = $('notice');
  const alertBox = $('alert');
  const rows = $('rows');

  // The title is logged once per value: when it changes (blur) or, at the latest, just before
  // the next event, so a fill that fires only `input` is still logged in order.
  let loggedTitle = '';
  function flushTitle() {
    if (!dialog.open || title.value === loggedTitle) return;
    loggedTitle = title.value;
    send('field_changed', { field: 'title', value: loggedTitle });
  }

  function log(type, data) {
    flushTitle();
    return send(type, data);
  }

  function setSaving(on) {
    save.disabled = on;
    save.textContent = on ? 'Saving…' : 'Save reservation';
    form.setAttribute('aria-busy', String(on));
  }

  function roomLabel(value) {
    const option = [...room.options].find((o) => o.value === value);
    return option ? option.text : value;
  }

  function render(records) {
    if (records.length === 0) {
      const td = cell('No reservations');
      td.colSpan = 3;
      td.className = 'empty';
      rows.replaceChildren(document.createElement('tr'));
      rows.firstChild.append(td);
      return;
    }
    rows.replaceChildren(...records.map((r) => {
      const tr = document.createElement('tr');
      tr.append(cell(r.title), cell(roomLabel(r.room)), cell('Confirmed'));
      return tr;
    }));
  }

  async function refresh() {
    const res = await fetch('/api/reservations', { cache: 'no-store' });
    if (res.ok) render(await res.json());
  }

  function openDialog() {
    if (dialog.open) return;
    form.reset();
    loggedTitle = '';
    show(alertBox, '');
    setSaving(false);
    dialog.showModal();
    send('dialog_opened');
  }

  function closeDialog() {
    if (!dialog.open) return;
    flushTitle();
    dialog.close();
    send('dialog_closed');
  }

  async function submit() {
    const body = { title: title.value, room: room.value };
    try {
      await post('/api/reservations', body);
    } catch (err) {
      setSaving(false);
      const message = err.status ? err.message : `Could not reach the lab server: ${err.message}`;
      if (dialog.open) show(alertBox, message);
      // Only a refusal (409) is an app event; other failures were never logged as a save.
      if (err.status === 409 && dialog.open) send('alert_shown', { text: message });
      return;
    }
    setSaving(false);
    await refresh().catch(() => {});
    closeDialog();
    show(notice, SAVED);
    send('notice_shown', { text: SAVED });
  }

  $('open').addEventListener('click', openDialog);
  $('cancel').addEventListener('click', closeDialog);
  dialog.addEventListener('cancel', (e) => {
    e.preventDefault();
    closeDialog();
  });
  title.addEventListener('change', flushTitle);
  room.addEventListener('change', () => log('field_changed', { field: 'room', value: room.value }));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    if (save.disabled) return;
    flushTitle();
    setSaving(true);
    show(notice, '');
    show(alertBox, '');
    enqueue(submit);
  });

  // Start in step with the server: its records and notice, and a dialog a reload has closed.
  const initial = JSON.parse($('initial').textContent);
  render(initial.records);
  show(notice, initial.notice);
  if (initial.dialog_open) send('dialog_closed');
})();
