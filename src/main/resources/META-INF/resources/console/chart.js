// On hand and committed over time, drawn as steps from the movement ledger (each entry holds the record after the
// change), with held and reservable as they are now: holds are not ledger entries, so their past is not known here.

import { svg, h, number, time } from './dom.js';

const WIDTH = 640;
const HEIGHT = 240;
const PAD = { left: 56, right: 96, top: 16, bottom: 36 };

/** entries: ledger entries in any order; record: the stock record now. */
export function stockChart(entries, record, titleId) {
  const points = entries.map((e) => ({ at: Date.parse(e.at), onHand: e.onHand, committed: e.committed }))
    .sort((a, b) => a.at - b.at);
  const now = Date.now();
  points.push({ at: Math.max(now, points.length ? points[points.length - 1].at : now), onHand: record.onHand, committed: record.committed });
  const start = points[0].at;
  const span = Math.max(points[points.length - 1].at - start, 1);
  const top = Math.max(1, ...points.map((p) => Math.max(p.onHand, p.committed)), record.held, record.reservable);
  const x = (at) => PAD.left + ((at - start) / span) * (WIDTH - PAD.left - PAD.right);
  const y = (v) => HEIGHT - PAD.bottom - (Math.max(v, 0) / top) * (HEIGHT - PAD.top - PAD.bottom);
  const descId = `${titleId}-desc`;
  const description = `${entries.length} ledger entries from ${time(start)} to now. On hand ranged from `
    + `${number(Math.min(...points.map((p) => p.onHand)))} to ${number(Math.max(...points.map((p) => p.onHand)))}. `
    + `Now: on hand ${number(record.onHand)}, held ${number(record.held)}, committed ${number(record.committed)}, `
    + `reservable ${number(record.reservable)}.`;
  return h('figure', { class: 'chart' },
    svg('svg', {
      viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: 'img', 'aria-labelledby': titleId, 'aria-describedby': descId,
      'data-entries': entries.length, 'data-on-hand': record.onHand, 'data-held': record.held, 'data-reservable': record.reservable,
    },
    svg('title', { id: titleId }, 'On hand, committed, held and reservable over time'),
    svg('desc', { id: descId }, description),
    axes(start, now, top, y),
    svg('path', { class: 'on-hand', d: steps(points, 'onHand', x, y) }),
    svg('path', { class: 'committed', d: steps(points, 'committed', x, y) }),
    marker('held', record.held, x(points[points.length - 1].at), y),
    marker('reservable', record.reservable, x(points[points.length - 1].at), y)),
    h('figcaption', {}, legend(), h('p', { class: 'note' }, description)));
}

function steps(points, field, x, y) {
  let d = `M${x(points[0].at).toFixed(1)},${y(points[0][field]).toFixed(1)}`;
  for (let i = 1; i < points.length; i++) {
    d += ` H${x(points[i].at).toFixed(1)} V${y(points[i][field]).toFixed(1)}`;
  }
  return d;
}

function marker(kind, value, at, y) {
  return svg('g', { class: kind },
    svg('circle', { cx: at, cy: y(value), r: 4 }),
    svg('text', { x: at + 8, y: y(value) + 4 }, `${kind} ${number(value)}`));
}

function axes(start, end, top, y) {
  const bottom = HEIGHT - PAD.bottom;
  return svg('g', { class: 'axes' },
    svg('line', { x1: PAD.left, y1: bottom, x2: WIDTH - PAD.right, y2: bottom }),
    svg('line', { x1: PAD.left, y1: PAD.top, x2: PAD.left, y2: bottom }),
    [0, Math.round(top / 2), top].map((v) => svg('text', { x: PAD.left - 6, y: y(v) + 4, 'text-anchor': 'end' }, number(v))),
    svg('text', { x: PAD.left, y: HEIGHT - 10 }, time(start)),
    svg('text', { x: WIDTH - PAD.right, y: HEIGHT - 10, 'text-anchor': 'end' }, 'now'));
}

function legend() {
  return h('ul', { class: 'legend' },
    h('li', { class: 'on-hand' }, 'on hand (ledger)'),
    h('li', { class: 'committed' }, 'committed (ledger)'),
    h('li', { class: 'held' }, 'held (now)'),
    h('li', { class: 'reservable' }, 'reservable (now)'));
}
