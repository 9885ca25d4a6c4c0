// Run by the repository's TypeScriptClientTest: the TypeScript tour of docs/clients.md against the service
// (ClientsGuideTest keeps the guide's copy equal to the part between the tour markers).
import assert from "node:assert/strict";
import { InsufficientStock, PreconditionFailed, StockholdClient } from "../dist/index.js";

const baseUrl = process.env.STOCKHOLD_URL;
const token = process.env.STOCKHOLD_TOKEN;
// tour:begin
const stockhold = new StockholdClient({ baseUrl, token: () => token });
// 10 units of A-1 free to reserve at the default location
await stockhold.stock.setAvailable("A-1", 10);
// hold 2 for order 42, with your own key (leave it out and the client makes one, kept for every retry)
const order42 = { lines: [{ sku: "A-1", quantity: 2 }], ttlSeconds: 600, reference: "order-42" };
const held = await stockhold.reservations.create(order42, { idempotencyKey: "order-42" });
// the same intent again: the stored answer, replayed; nothing is held twice
const again = await stockhold.reservations.create(order42, { idempotencyKey: "order-42" });
console.log(again.value.id, "replayed:", again.replayed);
// confirm sells the 2 units; the order's reservations by reference, page after page as the loop goes
await stockhold.reservations.confirm(held.value.id);
const ofOrder42 = [];
for await (const reservation of stockhold.reservations.list({ reference: "order-42" })) ofOrder42.push(reservation);
// a second warehouse: 25 received, then a count of 24, only if nobody wrote since the read (If-Match from it)
await stockhold.stock.adjust("A-1", "WH-2", { delta: 25, reason: "received" }, { idempotencyKey: "grn-7" });
const wh2 = (await stockhold.stock.record("A-1", "WH-2")).value;
await stockhold.stock.setIfUnchanged(wh2, { onHand: 24 });
// the same read again is stale now: nothing is overwritten
const stale = await stockhold.stock.setIfUnchanged(wh2, { onHand: 30 }).catch((error) => error instanceof PreconditionFailed);
// keep 3 units aside at WH-2: confirm commits them, a fulfilment ships 2, a release frees 1
const aside = (await stockhold.reservations.create({ lines: [{ sku: "A-1", location: "WH-2", quantity: 3 }], fulfilment: "deferred" })).value;
await stockhold.reservations.confirm(aside.id);
await stockhold.reservations.fulfil(aside.id, { lines: [{ sku: "A-1", quantity: 2 }] });
await stockhold.reservations.release(aside.id, { lines: [{ sku: "A-1", quantity: 1 }] });
// WH-2's ledger, newest first, the cursor followed for you
const ledger = [];
for await (const entry of stockhold.stock.movements("A-1", "WH-2", { limit: 2 })) ledger.push(entry.kind);
// 40 in one piece when no location holds more than 22: refused, with what the line lacks (18)
const shortBy = await stockhold.reservations
  .create({ lines: [{ sku: "A-1", quantity: 40 }] })
  .catch((error) => (error instanceof InsufficientStock ? error.shortfall[0].missing : error));
// tour:end
assert.equal(again.replayed, true);
assert.equal(again.value.id, held.value.id);
assert.deepEqual(ofOrder42.map((r) => r.id), [held.value.id]);
assert.equal(stale, true);
assert.equal((await stockhold.stock.record("A-1", "WH-2")).value.onHand, 22);
assert.deepEqual(ledger, ["release", "fulfil", "confirm", "set", "adjust"]);
assert.equal(shortBy, 18);
// a sku with the characters skus may have beyond letters and digits reaches its record
await stockhold.stock.set("B:1.x_y", "WH-2", { onHand: 3 });
assert.equal((await stockhold.stock.record("B:1.x_y", "WH-2")).value.onHand, 3);
console.log(JSON.stringify({ tour: "done" }));
