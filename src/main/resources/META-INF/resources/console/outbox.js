// Outbox: the tenant's backlog (pending, dead) and its lag, the dead events with their last error, and (ops) sending
// them back to the relay, one or all. The view reads itself again every few seconds while it is shown.

import { call, path } from './api.js';
import { h, number, say, show, table, time } from './dom.js';
import { explain, intent } from './intent.js';

const REFRESH_MS = 5000;
let timer = null;

export function leave() {
  clearInterval(timer);
}

export function render(main, session) {
  const summary = h('div', { class: 'summary' });
  const dead = h('div', {});
  const refreshed = h('p', { class: 'note' });
  const auto = h('input', { type: 'checkbox', id: 'auto-refresh', checked: true });
  let shown = '';
  const refresh = async () => {
    try {
      const [stats, events] = await Promise.all([call('GET', '/v1/admin/outbox'), call('GET', '/v1/admin/outbox/dead', { query: { limit: 200 } })]);
      show(summary, h('dl', { class: 'facts' },
        h('dt', {}, 'Pending'), h('dd', { 'data-fact': 'pending' }, number(stats.body.pending)),
        h('dt', {}, 'Dead'), h('dd', { 'data-fact': 'dead' }, number(stats.body.dead)),
        h('dt', {}, 'Lag (oldest pending)'), h('dd', { 'data-fact': 'lag' }, lag(stats.body.oldestPendingAgeSeconds))));
      const signature = events.body.map((e) => `${e.id}:${e.attempts}`).join();
      if (signature !== shown) { // redrawn only when it changed, so keyboard focus stays where it was
        shown = signature;
        show(dead, deadTable(events.body, session, refresh));
      }
      refreshed.textContent = `Read at ${time(new Date())}.`;
    } catch (e) {
      refreshed.textContent = explain(e);
    }
  };
  auto.addEventListener('change', () => {
    schedule(auto.checked, refresh);
    if (auto.checked) refresh(); // turned back on: read now, not a period later
  });
  show(main,
    h('h1', { tabindex: '-1' }, 'Outbox'),
    h('p', {}, 'Events written with each change wait here until the relay has published them to the broker. '
      + 'An event the broker refused more times than the relay retries is dead until it is sent back.'),
    summary,
    h('div', { class: 'field inline' }, auto, h('label', { for: 'auto-refresh' }, `Refresh every ${REFRESH_MS / 1000} s`)),
    refreshed,
    h('h2', {}, 'Dead events'),
    dead);
  refresh();
  schedule(true, refresh);
}

function schedule(on, refresh) {
  clearInterval(timer);
  if (on) timer = setInterval(() => document.hidden || refresh(), REFRESH_MS);
}

function deadTable(events, session, refresh) {
  const ops = session.roles.includes('ops');
  const requeue = (id) => intent(async () => {
    await call('POST', path('/v1/admin/outbox/dead/{id}/requeue', { id }));
    say(`Event ${id} sent back to the relay.`);
    await refresh();
  });
  const all = intent(async () => {
    const answer = await call('POST', '/v1/admin/outbox/dead/requeue', { body: {} });
    say(`${answer.body.requeued} dead event(s) sent back to the relay.`);
    await refresh();
  });
  return [
    table('Dead events, oldest first', ['id', 'type', 'aggregate', 'attempts', 'last error', 'written', 'action'],
      events.map((e) => h('tr', {}, h('td', {}, e.id), h('td', {}, e.type), h('td', {}, e.aggregateId),
        h('td', { class: 'n' }, e.attempts), h('td', { class: 'error-text' }, e.lastError || ''), h('td', {}, time(e.createdAt)),
        h('td', {}, ops ? h('button', { type: 'button', onclick: requeue(e.id), 'aria-label': `Requeue event ${e.id}` }, 'Requeue') : '')))),
    ops && events.length ? h('button', { type: 'button', onclick: all }, 'Requeue all dead events') : null,
  ];
}

function lag(seconds) {
  if (seconds === null || seconds === undefined) return 'none pending';
  return seconds < 60 ? `${Number(seconds).toFixed(1)} s` : `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s`;
}
