// Stock: find a sku, its records per location, one record's chart and ledger, and (inventory-admin) its changes.

import { call, path } from './api.js';
import { stockChart } from './chart.js';
import { field, h, number, say, show, table, time } from './dom.js';
import { adminForms, countForm } from './stock-forms.js';
import { explain } from './intent.js';

const KINDS = ['opening', 'set', 'adjust', 'confirm', 'fulfil', 'release', 'snapshot', 'transfer-out', 'in-transit',
  'transfer-in', 'transfer-return', 'purchase-receipt'];
const PAGE = 20;
const CHART_PAGES = 5;

export function render(main, session, params) {
  const sku = h('input', { name: 'sku', required: true, autocomplete: 'off', spellcheck: 'false', value: params.get('sku') || '' });
  const item = h('section', { 'aria-label': 'Records of the sku' });
  const record = h('section', { 'aria-label': 'One stock record' });
  const find = (event) => {
    event.preventDefault();
    history.replaceState(null, '', `#/stock?sku=${encodeURIComponent(sku.value.trim())}`);
    showItem(session, sku.value.trim(), item, record, null);
  };
  show(main,
    h('h1', { tabindex: '-1' }, 'Stock'),
    h('form', { class: 'inline', role: 'search', onsubmit: find }, field('Sku', sku), h('button', { type: 'submit' }, 'Find')),
    item, record,
    session.roles.includes('inventory-admin') ? countForm(session) : null);
  if (sku.value) showItem(session, sku.value, item, record, params.get('location'));
}

/** The sku's records; with a location, that record opened under them. Resolves to the record's heading, if opened. */
async function showItem(session, sku, container, recordContainer, location) {
  const again = (at) => () => showItem(session, sku, container, recordContainer, at);
  try {
    const { body } = await call('GET', path('/v1/items/{sku}', { sku }));
    const rows = body.locations.map((r) => h('tr', {},
      h('th', { scope: 'row' }, r.location), cells(r),
      h('td', {}, h('button', { type: 'button', onclick: async () => (await openRecord(session, sku, r.location, recordContainer, again(r.location)))?.focus() },
        `Open ${r.location}`))));
    show(container,
      h('h2', {}, `Sku ${body.sku}`),
      h('p', {}, `All locations: on hand ${number(body.onHand)}, held ${number(body.held)}, committed ${number(body.committed)}, `
        + `available ${number(body.available)}.`),
      table('Stock per location', ['location', 'on hand', 'held', 'committed', 'safety stock', 'reservable', 'in transit',
        'incoming', 'version', ''], rows));
    say(`Sku ${sku}: ${body.locations.length} location(s).`);
    if (!location) show(recordContainer);
    return location ? openRecord(session, sku, location, recordContainer, again(location)) : null;
  } catch (e) {
    show(recordContainer);
    show(container, h('p', { class: 'error' }, explain(e)));
    say(explain(e), 'error');
  }
}

function cells(r) {
  return [r.onHand, r.held, r.committed, r.safetyStock, r.reservable, r.inTransit, r.incoming, r.version]
    .map((v) => h('td', { class: 'n' }, number(v)));
}

/** One record: its numbers, chart, ledger and forms; after every change made here, reload() shows them anew. */
async function openRecord(session, sku, location, container, reload) {
  history.replaceState(null, '', `#/stock?sku=${encodeURIComponent(sku)}&location=${encodeURIComponent(location)}`);
  try {
    const read = await call('GET', path('/v1/items/{sku}/stock/{location}', { sku, location }));
    const record = read.body;
    const ledger = h('div', { class: 'ledger' });
    const heading = h('h2', { tabindex: '-1' }, `${sku} at ${location}`);
    show(container, heading,
      facts(record),
      stockChart(await chartEntries(sku, location), record, `chart-${Date.now()}`),
      ledger,
      session.roles.includes('inventory-admin') ? adminForms(record, read.etag, reload) : null);
    showLedger(sku, location, ledger, {}, []);
    return heading;
  } catch (e) {
    show(container, h('p', { class: 'error' }, explain(e)));
    return null;
  }
}

function facts(r) {
  const rows = [['On hand', 'onHand'], ['Held', 'held'], ['Committed', 'committed'], ['Safety stock', 'safetyStock'],
    ['Reservable', 'reservable'], ['In transit to here', 'inTransit'], ['Incoming (open orders)', 'incoming'],
    ['Version', 'version']];
  return h('dl', { class: 'facts' }, rows.map(([name, field]) => [h('dt', {}, name),
    h('dd', { 'data-fact': field }, number(r[field]))]),
  h('dt', {}, 'Updated'), h('dd', {}, time(r.updatedAt)));
}

async function chartEntries(sku, location) {
  const entries = [];
  let cursor;
  for (let page = 0; page < CHART_PAGES; page++) {
    const { body } = await call('GET', path('/v1/items/{sku}/stock/{location}/movements', { sku, location }),
      { query: { limit: 200, cursor } });
    entries.push(...body.items);
    cursor = body.nextCursor;
    if (!cursor) break;
  }
  return entries;
}

/** A keyset page of the ledger under the chart, newest first; cursors holds the pages already read (for "Newer"). */
async function showLedger(sku, location, container, filter, cursors, focus = false) {
  const kind = h('select', { name: 'kind' }, h('option', { value: '' }, 'every kind'),
    KINDS.map((k) => h('option', { value: k, selected: filter.kind === k }, k)));
  const from = h('input', { type: 'date', name: 'from', value: filter.from || '' });
  const to = h('input', { type: 'date', name: 'to', value: filter.to || '' });
  const apply = (event) => {
    event.preventDefault();
    showLedger(sku, location, container, { kind: kind.value, from: from.value, to: to.value }, [], true);
  };
  const cursor = cursors[cursors.length - 1];
  try {
    const { body } = await call('GET', path('/v1/items/{sku}/stock/{location}/movements', { sku, location }), {
      query: { kind: filter.kind, from: day(filter.from), to: day(filter.to, 1), limit: PAGE, cursor },
    });
    const rows = body.items.map((e) => h('tr', {}, h('td', { class: 'n' }, e.seq), h('td', {}, time(e.at)), h('td', {}, e.kind),
      h('td', { class: 'n' }, signed(e.onHandDelta)), h('td', { class: 'n' }, signed(e.committedDelta)),
      h('td', { class: 'n' }, number(e.onHand)), h('td', { class: 'n' }, number(e.committed)),
      h('td', {}, e.reason || ''), h('td', {}, e.reference || e.reservationId || e.transferId || e.purchaseOrderId || ''),
      h('td', {}, e.actor || '')));
    // after a page or a filter, the keyboard goes on from the ledger's heading, not from the top of the page
    const heading = h('h3', { tabindex: '-1' }, 'Ledger');
    show(container,
      heading,
      h('form', { class: 'inline', onsubmit: apply, 'aria-label': 'Ledger filter' },
        field('Kind', kind), field('From (day)', from), field('To (day, inclusive)', to), h('button', { type: 'submit' }, 'Filter')),
      table(`Ledger entries, newest first (page ${cursors.length + 1})`, ['seq', 'at', 'kind', 'on hand Δ', 'committed Δ',
        'on hand', 'committed', 'reason', 'reference', 'actor'], rows),
      h('div', { class: 'pager' },
        cursors.length ? h('button', { type: 'button', onclick: () => showLedger(sku, location, container, filter, cursors.slice(0, -1), true) },
          'Newer entries') : null,
        body.nextCursor ? h('button', { type: 'button', onclick: () => showLedger(sku, location, container, filter,
          [...cursors, body.nextCursor], true) }, 'Older entries') : null));
    if (focus) heading.focus();
  } catch (e) {
    show(container, h('p', { class: 'error' }, explain(e)));
  }
}

/** The start of a day given as yyyy-mm-dd, in the browser's time zone, plus days. */
function day(value, plus = 0) {
  if (!value) return undefined;
  const [y, m, d] = value.split('-').map(Number);
  return new Date(y, m - 1, d + plus).toISOString();
}

function signed(value) {
  return value > 0 ? `+${number(value)}` : number(value);
}
