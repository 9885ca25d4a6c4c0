// Reservations: find one by id, reference or Idempotency-Key; its lines, allocations, expiry and settlements; the
// actions its status and the user's role allow, each click one intent with its own key; and a reservation made here.

import { call, path } from './api.js';
import { field, h, number, say, show, table, time } from './dom.js';
import { explain, intent } from './intent.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
let countdown = null;

export function leave() {
  clearInterval(countdown);
}

export function render(main, session, params) {
  const by = h('select', { name: 'by' }, h('option', { value: 'id' }, 'id'), h('option', { value: 'reference' }, 'reference'),
    h('option', { value: 'idempotencyKey' }, 'Idempotency-Key'));
  const value = h('input', { name: 'value', required: true, autocomplete: 'off', spellcheck: 'false' });
  const detail = h('section', { 'aria-label': 'The reservation' });
  const list = h('section', { 'aria-label': 'Reservations found' });
  const find = (event) => {
    event.preventDefault();
    search(session, by.value, value.value.trim(), list, detail);
  };
  show(main,
    h('h1', { tabindex: '-1' }, 'Reservations'),
    h('form', { class: 'inline', role: 'search', onsubmit: find }, field('Find by', by), field('Value', value),
      h('button', { type: 'submit' }, 'Find')),
    list, detail,
    session.roles.includes('reservations') ? reserveForm(session, detail) : null);
  if (params.get('id')) showReservation(session, params.get('id'), detail);
}

async function search(session, by, value, list, detail) {
  clearInterval(countdown);
  show(list);
  show(detail);
  if (by === 'id') {
    if (!UUID.test(value)) return say('A reservation id is a UUID.', 'error');
    return showReservation(session, value, detail);
  }
  const key = by === 'idempotencyKey' ? value.replace(/^"(.*)"$/, '$1') : value;
  try {
    const { body } = await call('GET', '/v1/reservations', { query: { [by]: key, limit: 50 } });
    say(`${body.items.length} reservation(s) found.`);
    if (body.items.length === 1) return showReservation(session, body.items[0].id, detail);
    show(list, table('Reservations found, newest first', ['id', 'status', 'reference', 'created'],
      body.items.map((r) => h('tr', {},
        h('td', {}, h('a', { href: `#/reservations?id=${r.id}` }, r.id)), h('td', {}, r.status), h('td', {}, r.reference || ''),
        h('td', {}, time(r.createdAt))))));
  } catch (e) {
    say(explain(e), 'error');
  }
}

async function showReservation(session, id, container) {
  clearInterval(countdown);
  try {
    const read = await call('GET', path('/v1/reservations/{id}', { id }));
    draw(session, read.body, container);
  } catch (e) {
    show(container, h('p', { class: 'error' }, explain(e)));
    say(explain(e), 'error');
  }
}

function draw(session, r, container) {
  clearInterval(countdown);
  history.replaceState(null, '', `#/reservations?id=${r.id}`);
  const expiry = h('dd', { 'data-fact': 'expires' });
  const heading = h('h2', { tabindex: '-1' }, `Reservation ${r.id}`);
  show(container, heading,
    h('dl', { class: 'facts' },
      h('dt', {}, 'Status'), h('dd', { 'data-fact': 'status' }, r.status),
      h('dt', {}, 'Reference'), h('dd', {}, r.reference || '—'),
      h('dt', {}, 'Created'), h('dd', {}, time(r.createdAt)),
      h('dt', {}, 'Expires'), expiry,
      h('dt', {}, 'Fulfilment'), h('dd', {}, r.fulfilment || 'immediate'),
      r.channel ? [h('dt', {}, 'Channel'), h('dd', {}, r.channel)] : null),
    lines(r),
    session.roles.includes('reservations') ? actions(session, r, container) : null);
  const tick = () => { expiry.textContent = remaining(r); };
  tick();
  if (r.status === 'HELD') countdown = setInterval(tick, 1000);
  return heading;
}

function remaining(r) {
  const seconds = Math.round((Date.parse(r.expiresAt) - Date.now()) / 1000);
  if (r.status !== 'HELD') return time(r.expiresAt);
  if (seconds <= 0) return `${time(r.expiresAt)} (due to expire now)`;
  return `${time(r.expiresAt)} (in ${Math.floor(seconds / 60)} min ${seconds % 60} s)`;
}

/** Where a line is held: its allocations, or the line itself when one location holds all of it. */
function placements(line) {
  return line.allocations?.length ? line.allocations : [line];
}

function lines(r) {
  const rows = r.lines.flatMap((line) => placements(line)
    .map((a) => h('tr', {}, h('th', { scope: 'row' }, line.sku), h('td', {}, a.location || '—'),
      [a.quantity, a.fulfilled || 0, a.released || 0].map((v) => h('td', { class: 'n' }, number(v))),
      h('td', { class: 'n' }, number(line.backordered || 0)))));
  return table('Lines and where they are held', ['sku', 'location', 'quantity', 'fulfilled', 'released', 'backordered'], rows);
}

/** The actions ReservationStatus allows from this status, each its own intent. */
function actions(session, r, container) {
  const redraw = async (answer, done) => {
    say(`${done}: the reservation is ${answer.body.status}${answer.replayed ? ' (already done: the stored answer was replayed)' : ''}.`);
    draw(session, answer.body, container).focus();
  };
  const act = (name, label, body) => h('button', { type: 'button', onclick: intent(async (key) => redraw(
    await call('POST', path(`/v1/reservations/{id}/${name}`, { id: r.id }), { key, body }), label)) }, label);
  const buttons = [];
  if (r.status === 'HELD') {
    const ttl = h('input', { type: 'number', name: 'ttlSeconds', min: 1, value: 900 });
    buttons.push(act('confirm', 'Confirm'), act('cancel', 'Cancel'),
      h('form', { class: 'inline', onsubmit: intent(async () => redraw(await call('POST', path('/v1/reservations/{id}/extend', { id: r.id }),
        { body: { ttlSeconds: Number(ttl.value) } }), 'Extended')) },
      field('Hold for (seconds from now)', ttl), h('button', { type: 'submit' }, 'Extend')));
  }
  if (['CONFIRMED', 'PARTIALLY_FULFILLED'].includes(r.status) && r.fulfilment === 'deferred') {
    const open = r.lines.flatMap((l) => placements(l).map((a) => ({ sku: l.sku, location: a.location,
      quantity: a.quantity - (a.fulfilled || 0) - (a.released || 0) }))).filter((s) => s.quantity > 0);
    if (open.length) buttons.push(act('fulfilments', 'Fulfil all open', { lines: open }), act('release', 'Release all open', { lines: open }));
  }
  return h('section', { class: 'actions', 'aria-label': 'Actions' }, h('h3', {}, 'Actions'),
    buttons.length ? buttons : h('p', {}, `No action applies to a ${r.status} reservation.`));
}

/** A new reservation of one sku: the form's key is made before its first submit and kept until an answer came. */
function reserveForm(session, detail) {
  const sku = h('input', { name: 'sku', required: true, autocomplete: 'off' });
  const quantity = h('input', { type: 'number', name: 'quantity', required: true, min: 1, value: 1 });
  const location = h('input', { name: 'location', autocomplete: 'off' });
  const reference = h('input', { name: 'reference', maxlength: 128 });
  const submit = intent(async (key) => {
    const answer = await call('POST', '/v1/reservations', { key, body: {
      lines: [{ sku: sku.value.trim(), quantity: Number(quantity.value), location: location.value.trim() || undefined }],
      reference: reference.value.trim() || undefined,
    } });
    say(`Reserved: ${answer.body.id}${answer.replayed ? ' (replayed: this click had already reserved)' : ''}.`);
    draw(session, answer.body, detail).focus();
  });
  return h('section', { 'aria-labelledby': 'reserve-title' }, h('h2', { id: 'reserve-title' }, 'New reservation'),
    h('form', { onsubmit: submit }, field('Sku', sku), field('Quantity', quantity), field('Location (optional)', location),
      field('Reference (optional)', reference), h('button', { type: 'submit' }, 'Reserve')));
}
