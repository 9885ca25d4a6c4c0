// What an inventory-admin changes from the console: adjust a record, set its on hand at the version read (If-Match),
// and upload a warehouse count (a snapshot) from a CSV file.

import { ApiProblem, call, path } from './api.js';
import { field, h, number, say, show, table } from './dom.js';
import { intent } from './intent.js';

/** Adjust and set forms for one record, read at the version its ETag names. */
export function adminForms(record, etag, reload) {
  const { sku, location } = record;
  // the record read again, then what happened said (the reload redraws the status line), then the keyboard on its heading
  const settle = async (message, kind) => {
    const heading = await reload();
    say(message, kind);
    heading?.focus();
  };
  const delta = h('input', { type: 'number', name: 'delta', required: true, step: 1 });
  const reason = h('input', { name: 'reason', maxlength: 200 });
  const reference = h('input', { name: 'reference', type: 'url', placeholder: 'https://erp.example/counts/1' });
  const adjust = intent(async (key) => {
    const answer = await call('POST', path('/v1/items/{sku}/stock/{location}/adjustments', { sku, location }), {
      key, body: { delta: Number(delta.value), reason: reason.value || undefined, reference: reference.value || undefined },
    });
    await settle(`Adjusted ${sku} at ${location} by ${delta.value}: on hand ${number(answer.body.onHand)}`
      + `${answer.replayed ? ' (the service had already done it: replayed)' : ''}.`);
  });
  const onHand = h('input', { type: 'number', name: 'onHand', required: true, min: 0, step: 1 });
  const set = intent(async () => {
    try {
      const answer = await call('PUT', path('/v1/items/{sku}/stock/{location}', { sku, location }),
        { ifMatch: etag, body: { onHand: Number(onHand.value) } });
      await settle(`Set ${sku} at ${location} to on hand ${number(answer.body.onHand)} (version ${answer.body.version}).`);
    } catch (e) {
      if (!(e instanceof ApiProblem) || e.status !== 412) throw e;
      await settle(`Conflict: ${sku} at ${location} changed since version ${record.version}; nothing was overwritten. `
        + 'Its numbers above are as they are now: check them and set again.', 'error');
    }
  });
  return h('section', { class: 'forms', 'aria-label': 'Change this record' },
    h('form', { onsubmit: adjust, 'aria-labelledby': 'adjust-title' },
      h('h3', { id: 'adjust-title' }, 'Adjust'),
      field('Change of on hand (+/-)', delta), field('Reason', reason),
      field('Reference', reference, 'An absolute URI, e.g. the ERP document'),
      h('button', { type: 'submit' }, 'Adjust')),
    h('form', { onsubmit: set, 'aria-labelledby': 'set-title' },
      h('h3', { id: 'set-title' }, 'Set on hand'),
      field('New on hand', onHand, `Sent with If-Match ${etag}: refused, never overwritten, if the record changed since version ${record.version}`),
      h('button', { type: 'submit' }, 'Set')));
}

/** A warehouse count for one location from a CSV file of "sku,onHand" lines (a header line is allowed). */
export function countForm() {
  const location = h('input', { name: 'location', required: true, autocomplete: 'off' });
  const file = h('input', { type: 'file', name: 'file', accept: '.csv,text/csv', required: true });
  const asOf = h('input', { type: 'datetime-local', name: 'asOf', step: 0.001, required: true, value: localNow() });
  const mode = h('select', { name: 'mode' }, h('option', { value: 'partial' }, 'partial: only the listed skus'),
    h('option', { value: 'full' }, 'full: unlisted skus count 0'));
  const result = h('div', { class: 'count-result' });
  const upload = intent(async (key) => {
    const records = parseCount(await file.files[0].text());
    const answer = await call('POST', path('/v1/locations/{location}/snapshots', { location: location.value.trim() }), {
      key, body: { asOf: new Date(asOf.value).toISOString(), mode: mode.value, records },
    });
    show(result, table(`Count at ${answer.body.location} as of ${answer.body.asOf}`,
      ['sku', 'status', 'counted', 'before', 'after', 'drift'],
      answer.body.records.map((r) => h('tr', {}, h('th', { scope: 'row' }, r.sku), h('td', {}, r.status),
        [r.counted, r.before, r.after].map((v) => h('td', { class: 'n' }, number(v))),
        h('td', { class: `n ${r.drift ? 'drift' : ''}` }, r.drift > 0 ? `+${r.drift}` : number(r.drift))))));
    say(`Count applied at ${answer.body.location}: ${answer.body.records.length} record(s).`);
  });
  return h('section', { class: 'forms', 'aria-labelledby': 'count-title' },
    h('h2', { id: 'count-title' }, 'Upload a warehouse count'),
    h('form', { onsubmit: upload },
      field('Location', location), field('Count file (CSV: sku,onHand)', file),
      field('Counted at (your time zone)', asOf, 'What the ledger moved after this time is applied on top of the count'),
      field('Mode', mode), h('button', { type: 'submit' }, 'Upload count')),
    result);
}

/** The records of a count file; a line that is not "sku,count" stops the upload before anything is sent. */
export function parseCount(text) {
  const records = [];
  text.split(/\r?\n/).forEach((line, index) => {
    const cells = line.split(',').map((c) => c.trim().replace(/^"(.*)"$/, '$1'));
    if (!line.trim() || (index === 0 && !/^\d+$/.test(cells[1] || ''))) return;
    if (cells.length !== 2 || !/^\d+$/.test(cells[1])) {
      throw new Error(`Line ${index + 1} of the file is not "sku,onHand": ${line}`);
    }
    records.push({ sku: cells[0], onHand: Number(cells[1]) });
  });
  if (!records.length) throw new Error('The file lists no count');
  return records;
}

function localNow() {
  const now = new Date();
  return new Date(now.getTime() - now.getTimezoneOffset() * 60000).toISOString().slice(0, 23);
}
