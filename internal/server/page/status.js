// The status page's live updates: it follows /v1/events and writes each
// change into the page. Everything an event carries is written with
// textContent, never as markup, so a name or reason is text whatever it
// holds. Without this script the page is whole, as of its rendering.
'use strict';
(function () {
  const body = document.body;
  const live = document.getElementById('live');
  // The page tells the state as of event `generation`; a stream that
  // starts later than that missed the events in between.
  let seen = Number(body.dataset.generation);

  function setLive(state, text) {
    body.dataset.live = state;
    live.textContent = text;
  }

  function when(at) {
    const d = new Date(at);
    return isNaN(d.getTime()) ? String(at) : d.toISOString().replace('T', ' ').replace(/\.\d+Z$/, 'Z');
  }

  function rowFor(kind, name) {
    for (const tr of document.querySelectorAll('tr[data-kind]')) {
      if (tr.dataset.kind === kind && tr.dataset.name === name) return tr;
    }
    return null;
  }

  function setField(tr, field, text) {
    for (const td of tr.cells) {
      if (td.dataset.field === field) td.textContent = text;
    }
  }

  // newRow adds a row for a thing the page did not list (a reload added
  // it), with the table's columns.
  function newRow(kind, name) {
    const tbody = document.getElementById(kind + 's');
    if (!tbody) return null;
    const tr = document.createElement('tr');
    tr.dataset.kind = kind;
    tr.dataset.name = name;
    for (const field of tbody.dataset.fields.split(' ')) {
      const td = document.createElement('td');
      td.dataset.field = field;
      tr.appendChild(td);
    }
    setField(tr, 'name', name);
    tbody.appendChild(tr);
    return tr;
  }

  function addRecent(e) {
    const tbody = document.getElementById('flips');
    const tr = document.createElement('tr');
    for (const text of [when(e.at), e.type, e.name, e.state, e.reason || '', e.code || '']) {
      const td = document.createElement('td');
      td.textContent = String(text);
      tr.appendChild(td);
    }
    tr.cells[3].dataset.state = String(e.state);
    tbody.insertBefore(tr, tbody.firstChild);
    while (tbody.rows.length > Number(tbody.dataset.max)) tbody.deleteRow(-1);
  }

  function count() {
    for (const el of document.querySelectorAll('[data-count]')) {
      const kind = el.dataset.count;
      let up = 0, all = 0;
      for (const tr of document.querySelectorAll('tr[data-kind]')) {
        if (tr.dataset.kind !== kind) continue;
        all++;
        if (tr.dataset.state === (kind === 'skill' ? 'active' : 'available')) up++;
      }
      el.textContent = up + ' of ' + all;
    }
  }

  function apply(e) {
    if (e.pending) return; // held back by its policy: not a change
    if (e.type === 'tool' || e.type === 'server' || e.type === 'skill') {
      const tr = rowFor(e.type, e.name) || newRow(e.type, e.name);
      if (tr) {
        tr.dataset.state = String(e.state);
        setField(tr, 'state', e.state);
        setField(tr, 'reason', e.reason || '');
        setField(tr, 'code', e.code || '');
        setField(tr, 'action', e.action || '');
        setField(tr, 'since', when(e.at));
        setField(tr, 'offered', e.available ? 'yes' : 'no');
      }
    }
    addRecent(e);
    count();
  }

  // missed: the page lacks changes. It reloads, but not twice within ten
  // seconds (a service that changes faster than a page loads would
  // otherwise reload it for ever); then it says so instead.
  function missed() {
    const last = Number(sessionStorage.getItem('gate-status-reloaded') || 0);
    if (Date.now() - last > 10000) {
      sessionStorage.setItem('gate-status-reloaded', String(Date.now()));
      location.reload();
      return;
    }
    setLive('stale', 'changes were missed: reload the page');
  }

  const events = new EventSource('v1/events');
  events.addEventListener('hello', function (m) {
    const gen = Number(JSON.parse(m.data).generation);
    if (gen > seen) {
      missed();
      return;
    }
    setLive('connected', 'live');
  });
  events.addEventListener('change', function (m) {
    seen = Number(m.lastEventId) || seen;
    apply(JSON.parse(m.data));
  });
  events.addEventListener('overflow', function () {
    events.close();
    missed();
  });
  events.addEventListener('error', function () {
    if (body.dataset.live !== 'stale') setLive('reconnecting', 'reconnecting…');
  });
})();
