// Run by the repository's TypeScriptClientTest: the fault scenario of ClientFaults through the TypeScript client,
// against the service behind two fault-injecting proxies (FAULTY loses 30% of answers, LOST every answer).
// Prints one JSON line of what it did; the Java side checks the database.
import assert from "node:assert/strict";
import { OutcomeUnknown, StockholdClient } from "../dist/index.js";

const env = process.env;
const token = () => env.STOCKHOLD_TOKEN;
const retry = { attemptTimeoutMs: 800, initialBackoffMs: 20, maxBackoffMs: 200, maxAttempts: 12 };
const client = new StockholdClient({ baseUrl: env.FAULTY, token, retry });
// the lost calls are another tenant's, so the first part's totals stay exact
const lostToken = () => env.LOST_TOKEN;
const hurried = new StockholdClient({ baseUrl: env.LOST, token: lostToken, retry }).withRetry({ deadlineMs: 2500 });
const patient = new StockholdClient({ baseUrl: env.FAULTY, token: lostToken, retry });
const [reservations, adjustments, edits] = [Number(env.RESERVATIONS), Number(env.ADJUSTMENTS), Number(env.EDITS)];
const line = (sku, quantity) => ({ lines: [{ sku, quantity }] });

let replayed = 0;
for (let i = 0; i < reservations; i++) {
  const held = await client.reservations.create({ ...line(env.RESERVED, 1 + (i % 3)), reference: `call-${i}`, ttlSeconds: 3600 });
  replayed += held.replayed ? 1 : 0;
}
for (let i = 0; i < adjustments; i++) {
  await client.stock.adjust(env.ADJUSTED, "default", { delta: 2, reason: "client-test" });
}
for (let i = 0; i < edits; i++) {
  const deferred = (await client.reservations.create({ ...line(env.FULFILLED, 4), fulfilment: "deferred", ttlSeconds: 3600 })).value;
  await client.reservations.confirm(deferred.id);
  await client.reservations.fulfil(deferred.id, { lines: [{ sku: env.FULFILLED, quantity: 3 }] });
  const small = (await client.reservations.create({ ...line(env.EDITED, 2), ttlSeconds: 3600 })).value;
  await client.reservations.edit(await client.reservations.get(small.id), line(env.EDITED, 5));
}
const stats = client.stats();

// Lost answers: each call's deadline passes, its key settles it through the other proxy.
async function unknown(call) {
  const error = await call().catch((e) => e);
  assert.ok(error instanceof OutcomeUnknown, `expected OutcomeUnknown, got ${error}`);
  assert.match(error.idempotencyKey, /^[0-9a-f-]{36}$/);
  return error.idempotencyKey;
}
const lostRequest = { ...line(env.LOST_RESERVED, 2), reference: "lost-1" };
const deferred = (await patient.reservations.create({ ...line(env.LOST_FULFILLED, 4), fulfilment: "deferred" })).value;
await patient.reservations.confirm(deferred.id);
const small = (await patient.reservations.create(line(env.LOST_EDITED, 2))).value;
const toEdit = await patient.reservations.get(small.id);
const three = { lines: [{ sku: env.LOST_FULFILLED, quantity: 3 }] };
const keys = {
  reserve: await unknown(() => hurried.reservations.create(lostRequest)),
  adjust: await unknown(() => hurried.stock.adjust(env.LOST_ADJUSTED, "default", { delta: 5 })),
  fulfil: await unknown(() => hurried.reservations.fulfil(deferred.id, three)),
  edit: await unknown(() => hurried.reservations.edit(toEdit, line(env.LOST_EDITED, 5))),
};
const settled = [
  await patient.reservations.create(lostRequest, { idempotencyKey: keys.reserve }),
  await patient.stock.adjust(env.LOST_ADJUSTED, "default", { delta: 5 }, { idempotencyKey: keys.adjust }),
  await patient.reservations.fulfil(deferred.id, three, { idempotencyKey: keys.fulfil }),
  await patient.reservations.edit(toEdit, line(env.LOST_EDITED, 5), { idempotencyKey: keys.edit }),
];
assert.deepEqual(settled.map((a) => a.replayed), [true, true, true, true], "each lost call settled by a replay of its key");

// cursor iteration: pages of two and of seven, followed to the end
let listed = 0;
for await (const reservation of patient.reservations.list({ limit: 2, reference: "lost-1" })) {
  assert.equal(reservation.reference, "lost-1");
  listed++;
}
assert.equal(listed, 1);
let movements = 0;
for await (const entry of client.stock.movements(env.ADJUSTED, "default", { kind: "adjust", limit: 7 })) {
  assert.equal(entry.kind, "adjust");
  movements++;
}
console.log(JSON.stringify({ ...stats, replayed, settled: settled.length, movements }));
