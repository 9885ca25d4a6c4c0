// The retry policy against a scripted fetch: what is retried, with which key, and how a call gives up.
import assert from "node:assert/strict";
import { test } from "node:test";
import { IdempotencyKeyReused, InsufficientStock, OutcomeUnknown, StockholdClient } from "../dist/index.js";

const problem = (status, slug, headers = {}) =>
  new Response(JSON.stringify({ type: `/problems/${slug}`, title: slug, status, detail: slug }), {
    status,
    headers: { "content-type": "application/problem+json", ...headers },
  });
const created = (headers = {}) =>
  new Response(JSON.stringify({ id: "9d3c0e4e-0000-4000-8000-000000000001", status: "HELD", lines: [] }), {
    status: 201,
    headers: { "content-type": "application/json", ...headers },
  });

/** A client whose fetch answers from `script` in turn and records each request. */
function scripted(script, retry = {}) {
  const seen = [];
  const client = new StockholdClient({
    baseUrl: "http://stockhold.test",
    token: () => "t",
    retry: { initialBackoffMs: 1, maxBackoffMs: 2, ...retry },
    fetch: async (url, init) => {
      seen.push({ url, init });
      const next = script.shift();
      if (next instanceof Error) throw next;
      return next();
    },
  });
  return { client, seen };
}
const request = { lines: [{ sku: "A-1", quantity: 1 }] };

test("a 503, a lost answer and a 409 in progress are retried with the same key; the replay says so", async () => {
  const reset = Object.assign(new TypeError("fetch failed"), { cause: { code: "ECONNRESET" } });
  const { client, seen } = scripted([
    () => problem(503, "service-unavailable", { "retry-after": "0" }),
    reset,
    () => problem(409, "idempotency-request-in-progress", { "retry-after": "0" }),
    () => created({ "idempotent-replayed": "true" }),
  ]);
  const answer = await client.reservations.create(request);
  assert.equal(answer.replayed, true);
  assert.equal(answer.attempts, 4);
  const keys = new Set(seen.map((s) => s.init.headers["idempotency-key"]));
  assert.equal(keys.size, 1, "one key for every attempt");
  assert.match([...keys][0], /^"[0-9a-f-]{36}"$/);
});

test("a refusal is never retried and is its slug's class", async () => {
  const { client, seen } = scripted([() => problem(422, "idempotency-key-reused")]);
  await assert.rejects(client.reservations.create(request, { idempotencyKey: "k-1" }), IdempotencyKeyReused);
  assert.equal(seen.length, 1);
  assert.equal(seen[0].init.headers["idempotency-key"], '"k-1"');
});

test("insufficient stock carries each short line, read right after the refusal", async () => {
  const line = { sku: "A-1", quantity: 1, reservable: false, available: [], placement: [], shortfall: 1 };
  const availability = () => new Response(JSON.stringify({ reservable: false, lines: [line] }), { headers: { "content-type": "application/json" } });
  const { client } = scripted([() => problem(409, "insufficient-stock"), availability]);
  const error = await client.reservations.create(request).catch((e) => e);
  assert.ok(error instanceof InsufficientStock);
  assert.deepEqual(error.shortfall, [{ sku: "A-1", location: undefined, requested: 1, reservable: 0, missing: 1 }]);
});

test("a call whose deadline passes after a lost answer is OutcomeUnknown with its key", async () => {
  const timeout = Object.assign(new DOMException("timed out", "TimeoutError"));
  const { client } = scripted([timeout, timeout, timeout, timeout], { maxAttempts: 3 });
  const error = await client.reservations.create(request, { idempotencyKey: "settle-me" }).catch((e) => e);
  assert.ok(error instanceof OutcomeUnknown);
  assert.equal(error.idempotencyKey, "settle-me");
});

test("an unsafe operation is not repeated after a lost answer", async () => {
  const reset = Object.assign(new TypeError("fetch failed"), { cause: { code: "ECONNRESET" } });
  const { client, seen } = scripted([reset, () => created()]);
  await assert.rejects(client.reservations.extend("9d3c0e4e-0000-4000-8000-000000000001", 60), OutcomeUnknown);
  assert.equal(seen.length, 1);
});

test("the retry budget stops retries when it is spent", async () => {
  const { client, seen } = scripted(
    Array.from({ length: 10 }, () => () => problem(429, "too-many-requests", { "retry-after": "0" })),
    { budgetRatio: 0, budgetPerSecond: 0, maxAttempts: 10 },
  );
  await assert.rejects(client.reservations.create(request), (e) => e.status === 429);
  assert.equal(seen.length, 1, "no budget, no retry");
  assert.equal(client.stats().refusedRetries, 1);
});

test("an unreadable answer is an error, not a lost answer to retry", async () => {
  const { client, seen } = scripted([() => new Response("<html>proxy page</html>", { status: 201 }), () => created()]);
  await assert.rejects(client.reservations.create(request), SyntaxError);
  assert.equal(seen.length, 1);
});

test("a client with another policy keeps the first one's budget", async () => {
  const { client, seen } = scripted(
    Array.from({ length: 10 }, () => () => problem(429, "too-many-requests", { "retry-after": "0" })),
    { budgetRatio: 0, budgetPerSecond: 0, maxAttempts: 1 },
  );
  await assert.rejects(client.withRetry({ maxAttempts: 10 }).reservations.create(request), (e) => e.status === 429);
  assert.equal(seen.length, 1, "more attempts allowed, but no budget to spend on them");
});

test("a 408 (the body came too slowly, nothing ran) is sent again, even for an unsafe operation", async () => {
  const { client, seen } = scripted([() => problem(408, "request-timeout"), () => created()]);
  const answer = await client.reservations.extend("9d3c0e4e-0000-4000-8000-000000000001", 60);
  assert.equal(answer.attempts, 2);
  assert.equal(seen.length, 2);
});

test("path values are escaped only where they must be", async () => {
  const record = () => new Response("{}", { headers: { "content-type": "application/json" } });
  const { client, seen } = scripted([record]);
  await client.stock.record("A:1", "WH~2 x/é");
  assert.equal(new URL(seen[0].url).pathname, "/v1/items/A:1/stock/WH~2%20x%2F%C3%A9");
});
