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

  // rows indexes the tables' rows by kind and name, so that an event
  // finds its row without a walk over every row: at thousands of tools a
  // burst of changes would otherwise cost the browser rows times events.
  let rows = new Map();
  function key(kind, name) {
    return kind + '\u0000' + name;
  }
  function index() {
    rows = new Map();
    for (const tr of document.querySelectorAll('tr[data-kind]')) {
      rows.set(key(tr.dataset.kind, tr.dataset.name), tr);
    }
  }

  function rowFor(kind, name) {
    return rows.get(key(kind, name)) || null;
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
    rows.set(key(kind, name), tr);
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

  // count writes the "up of all" counts in one walk over the rows, at
  // most ten times a second however many changes came meanwhile.
  let counting = false;
  function count() {
    if (counting) return;
    counting = true;
    setTimeout(function () {
      counting = false;
      const up = new Map(), all = new Map();
      for (const tr of rows.values()) {
        const kind = tr.dataset.kind;
        all.set(kind, (all.get(kind) || 0) + 1);
        if (tr.dataset.state === (kind === 'skill' ? 'active' : 'available')) up.set(kind, (up.get(kind) || 0) + 1);
      }
      for (const el of document.querySelectorAll('[data-count]')) {
        const kind = el.dataset.count;
        el.textContent = (up.get(kind) || 0) + ' of ' + (all.get(kind) || 0);
      }
    }, 100);
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

  // resync reads the page again when it lacks changes (the stream began
  // after the state the page tells, or fell behind) and puts its tables
  // in place of these, without a reload. Changes that arrive meanwhile
  // are held, and those newer than the new state applied after it. The
  // new tables are gate's escaped HTML, parsed inert (DOMParser runs no
  // script) and adopted as they are.
  let held = null;
  function resync() {
    if (held) return;
    held = [];
    setLive('syncing', 'catching up…');
    fetch(location.href, {headers: {Accept: 'text/html'}, cache: 'no-store', credentials: 'same-origin'})
      .then(function (r) {
        if (!r.ok) throw new Error(String(r.status));
        return r.text();
      })
      .then(function (text) {
        const fresh = new DOMParser().parseFromString(text, 'text/html');
        for (const id of ['tools', 'servers', 'skills', 'flips']) {
          const mine = document.getElementById(id), theirs = fresh.getElementById(id);
          if (mine && theirs) mine.replaceWith(document.adoptNode(theirs));
        }
        index();
        seen = Number(fresh.body.dataset.generation);
        const pending = held;
        held = null;
        for (const m of pending) {
          if (Number(m.lastEventId) > seen) change(m);
        }
        count();
        setLive('connected', 'live');
      })
      .catch(function () {
        held = null;
        setLive('stale', 'changes were missed: reload the page');
      });
  }

  function change(m) {
    if (held) {
      held.push(m);
      return;
    }
    seen = Number(m.lastEventId) || seen;
    apply(JSON.parse(m.data));
  }

  index();
  let events = null;
  function connect() {
    events = new EventSource('v1/events');
    events.addEventListener('hello', function (m) {
      if (Number(JSON.parse(m.data).generation) > seen) {
        resync();
        return;
      }
      setLive('connected', 'live');
    });
    events.addEventListener('change', change);
    // The stream fell behind and gate ended it: a new one's hello tells
    // that changes were missed, and the page reads the state again.
    events.addEventListener('overflow', function () {
      events.close();
      connect();
    });
    events.addEventListener('error', function () {
      if (events.readyState === EventSource.CLOSED) {
        setLive('stale', 'disconnected: reload the page');
      } else if (!held) {
        setLive('reconnecting', 'reconnecting…');
      }
    });
  }
  connect();
})();
