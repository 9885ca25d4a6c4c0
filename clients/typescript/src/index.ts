// Stockhold's TypeScript client: requests and answers typed from the OpenAPI document (openapi.ts, generated),
// every write with an Idempotency-Key sent with the same key on every attempt, typed problems, cursor iteration.
import { Calls, DEFAULT_POLICY } from "./calls.js";
import type { Answer, Call, RetryKind, RetryPolicy, Stats } from "./calls.js";
import type { components, paths } from "./openapi.js";
import { InsufficientStock, StockholdError } from "./problems.js";

export * from "./problems.js";
export { DEFAULT_POLICY, RetryBudget, backoff } from "./calls.js";
export type { Answer, RetryKind, RetryPolicy, Stats } from "./calls.js";
export type { components, paths } from "./openapi.js";

export type Schemas = components["schemas"];
export type Reservation = Schemas["Reservation"];
export type ReservationRequest = Schemas["ReservationRequest"];
export type ReservationEdit = Schemas["ReservationEdit"];
export type SettlementRequest = Schemas["SettlementRequest"];
export type StockRecord = Schemas["StockRecord"];
export type StockMovement = Schemas["StockMovement"];
export type AdjustmentRequest = Schemas["AdjustmentRequest"];
export type SetOnHandRequest = Schemas["SetOnHandRequest"];

type Method = "get" | "put" | "post" | "patch";
type Path = keyof paths;
/** The JSON body of a 200 or 201 answer of an operation, from the document. */
type Ok<P extends Path, M extends Method> =
  NonNullable<paths[P][M]> extends { responses: infer R }
    ? R extends { 200: { content: { "application/json": infer V } } }
      ? V
      : R extends { 201: { content: { "application/json": infer V } } }
        ? V
        : never
    : never;
/** The JSON body of an operation's request, from the document. */
type Body<P extends Path, M extends Method> =
  NonNullable<paths[P][M]> extends { requestBody?: { content: { "application/json": infer B } } } ? B : never;
/** The query parameters of an operation, from the document. */
type QueryOf<P extends Path, M extends Method> =
  NonNullable<paths[P][M]> extends { parameters: { query?: infer Q } } ? Omit<NonNullable<Q>, "cursor"> : never;

/** Every /v1 operation the client calls: method, path template, retry kind. A test holds it equal to /q/openapi. */
export const OPERATIONS: ReadonlyArray<readonly [Method, Path, RetryKind]> = [
  ["get", "/v1/admin/outbox", "read"],
  ["get", "/v1/admin/outbox/dead", "read"],
  ["post", "/v1/admin/outbox/dead/requeue", "unsafe"],
  ["post", "/v1/admin/outbox/dead/{id}/requeue", "unsafe"],
  ["post", "/v1/availability", "read"],
  ["get", "/v1/channels", "read"],
  ["put", "/v1/channels/{channel}", "idempotent"],
  ["get", "/v1/channels/{channel}", "read"],
  ["get", "/v1/items", "read"],
  ["put", "/v1/items/{sku}", "idempotent"],
  ["get", "/v1/items/{sku}", "read"],
  ["put", "/v1/items/{sku}/stock/{location}", "idempotent"],
  ["get", "/v1/items/{sku}/stock/{location}", "read"],
  ["post", "/v1/items/{sku}/stock/{location}/adjustments", "keyed"],
  ["post", "/v1/items/{sku}/stock/{location}/incoming", "keyed"],
  ["get", "/v1/items/{sku}/stock/{location}/movements", "read"],
  ["get", "/v1/kits", "read"],
  ["put", "/v1/kits/{sku}", "idempotent"],
  ["get", "/v1/kits/{sku}", "read"],
  ["get", "/v1/locations", "read"],
  ["put", "/v1/locations/{location}", "idempotent"],
  ["post", "/v1/locations/{location}/snapshots", "keyed"],
  ["get", "/v1/purchase-orders/{id}", "read"],
  ["post", "/v1/purchase-orders/{id}/receipts", "keyed"],
  ["get", "/v1/reservations", "read"],
  ["post", "/v1/reservations", "keyed"],
  ["get", "/v1/reservations/{id}", "read"],
  ["patch", "/v1/reservations/{id}", "keyed"],
  ["post", "/v1/reservations/{id}/cancel", "idempotent"],
  ["post", "/v1/reservations/{id}/confirm", "idempotent"],
  ["post", "/v1/reservations/{id}/extend", "unsafe"],
  ["post", "/v1/reservations/{id}/fulfilments", "keyed"],
  ["post", "/v1/reservations/{id}/release", "keyed"],
  ["put", "/v1/settings", "idempotent"],
  ["get", "/v1/settings", "read"],
  ["post", "/v1/stock/adjustments", "keyed"],
  ["post", "/v1/transfers", "keyed"],
  ["get", "/v1/transfers/{id}", "read"],
  ["post", "/v1/transfers/{id}/cancel", "unsafe"],
  ["post", "/v1/transfers/{id}/receipts", "keyed"],
];

function encodePathSegment(value: string): string {
  return encodeURIComponent(value).replace(/%3A/gi, ":");
}

export interface ClientOptions {
  /** The service's base URL, e.g. https://stockhold.example */
  baseUrl: string;
  /** The bearer token, asked for on every attempt (so it may refresh). */
  token: () => string | Promise<string>;
  retry?: Partial<RetryPolicy>;
  fetch?: typeof fetch;
}

export interface CallOptions {
  /** The Idempotency-Key; a new UUID when absent. Pass the key of an OutcomeUnknown to settle that call. */
  idempotencyKey?: string;
}

export class StockholdClient {
  private readonly calls: Calls;

  constructor(options: ClientOptions | Calls) {
    this.calls =
      options instanceof Calls
        ? options
        : new Calls(options.baseUrl.replace(/\/$/, ""), options.token, { ...DEFAULT_POLICY, ...options.retry }, options.fetch ?? fetch);
  }

  /**
   * This client with another retry policy (the given fields replace this client's), for calls that need their own
   * deadline or attempts. It shares the retry budget; its stats count its own calls.
   */
  withRetry(retry: Partial<RetryPolicy>): StockholdClient {
    return new StockholdClient(this.calls.with(retry));
  }

  stats(): Stats {
    return this.calls.stats();
  }

  private send<P extends Path, M extends Method>(method: M, path: P, values: string[], extra: Partial<Call> = {}) {
    const kind = OPERATIONS.find(([m, p]) => m === method && p === path)?.[2] ?? "unsafe";
    let index = 0;
    // as the Java client does: ":" (frequent in skus) sent as it is; encodeURIComponent never escapes an unreserved character
    const filled = (path as string).replace(/\{[^}]+\}/g, () => encodePathSegment(values[index++] ?? ""));
    const key = kind === "keyed" ? (extra.idempotencyKey ?? crypto.randomUUID()) : undefined;
    return this.calls.send<Ok<P, M>>({ method: method.toUpperCase(), path: filled, kind, ...extra, idempotencyKey: key });
  }

  private async *pages<T>(read: (cursor?: string) => Promise<{ items?: T[]; nextCursor?: string }>): AsyncGenerator<T> {
    let cursor: string | undefined;
    do {
      const page = await read(cursor);
      yield* page.items ?? [];
      cursor = page.nextCursor;
    } while (cursor);
  }

  readonly reservations = {
    /** Reserves; an InsufficientStock carries each short line as read right after the refusal. */
    create: async (request: Body<"/v1/reservations", "post">, options: CallOptions = {}) => {
      try {
        return await this.send("post", "/v1/reservations", [], { body: request, ...options });
      } catch (error) {
        if (error instanceof InsufficientStock) {
          error.shortfall = await this.explain(request);
        }
        throw error;
      }
    },
    get: (id: string) => this.send("get", "/v1/reservations/{id}", [id]),
    /** The tenant's reservations, newest first, following the cursor page by page. */
    list: (filters: QueryOf<"/v1/reservations", "get"> = {}) =>
      this.pages((cursor) => this.send("get", "/v1/reservations", [], { query: { ...filters, cursor } }).then((a) => a.value)),
    /** Changes the lines of the reservation as read (its ETag goes in If-Match). */
    edit: (read: Answer<Reservation>, edit: ReservationEdit, options: CallOptions = {}) => {
      if (read.etag === undefined) throw new TypeError("an edit names the version it read: pass the answer of get");
      return this.send("patch", "/v1/reservations/{id}", [read.value.id], { body: edit, ifMatch: read.etag, ...options });
    },
    confirm: (id: string) => this.send("post", "/v1/reservations/{id}/confirm", [id]),
    cancel: (id: string) => this.send("post", "/v1/reservations/{id}/cancel", [id]),
    extend: (id: string, ttlSeconds: number) => this.send("post", "/v1/reservations/{id}/extend", [id], { body: { ttlSeconds } }),
    fulfil: (id: string, lines: SettlementRequest, options: CallOptions = {}) =>
      this.send("post", "/v1/reservations/{id}/fulfilments", [id], { body: lines, ...options }),
    release: (id: string, lines: SettlementRequest, options: CallOptions = {}) =>
      this.send("post", "/v1/reservations/{id}/release", [id], { body: lines, ...options }),
    availability: (request: Body<"/v1/availability", "post">) => this.send("post", "/v1/availability", [], { body: request }),
  };

  readonly stock = {
    item: (sku: string, channel?: string) => this.send("get", "/v1/items/{sku}", [sku], { query: { channel } }),
    setAvailable: (sku: string, available: number) => this.send("put", "/v1/items/{sku}", [sku], { body: { available } }),
    record: (sku: string, location: string) => this.send("get", "/v1/items/{sku}/stock/{location}", [sku, location]),
    records: (filters: QueryOf<"/v1/items", "get"> = {}) =>
      this.pages((cursor) => this.send("get", "/v1/items", [], { query: { ...filters, cursor } }).then((a) => a.value)),
    set: (sku: string, location: string, request: SetOnHandRequest) =>
      this.send("put", "/v1/items/{sku}/stock/{location}", [sku, location], { body: request }),
    /** Sets on hand only if the record is still the version read; a change since is PreconditionFailed. */
    setIfUnchanged: (read: StockRecord, request: SetOnHandRequest) =>
      this.send("put", "/v1/items/{sku}/stock/{location}", [read.sku, read.location], { body: request, ifMatch: String(read.version) }),
    adjust: (sku: string, location: string, request: AdjustmentRequest, options: CallOptions = {}) =>
      this.send("post", "/v1/items/{sku}/stock/{location}/adjustments", [sku, location], { body: request, ...options }),
    adjustMany: (request: Body<"/v1/stock/adjustments", "post">, options: CallOptions = {}) =>
      this.send("post", "/v1/stock/adjustments", [], { body: request, ...options }),
    snapshot: (location: string, request: Body<"/v1/locations/{location}/snapshots", "post">, options: CallOptions = {}) =>
      this.send("post", "/v1/locations/{location}/snapshots", [location], { body: request, ...options }),
    movements: (sku: string, location: string, filters: QueryOf<"/v1/items/{sku}/stock/{location}/movements", "get"> = {}) =>
      this.pages((cursor) =>
        this.send("get", "/v1/items/{sku}/stock/{location}/movements", [sku, location], { query: { ...filters, cursor } }).then((a) => a.value),
      ),
  };

  readonly catalogue = {
    locations: () => this.send("get", "/v1/locations", []),
    putLocation: (location: string, request: Body<"/v1/locations/{location}", "put">) =>
      this.send("put", "/v1/locations/{location}", [location], { body: request }),
    channels: () => this.send("get", "/v1/channels", []),
    channel: (channel: string) => this.send("get", "/v1/channels/{channel}", [channel]),
    putChannel: (channel: string, request: Body<"/v1/channels/{channel}", "put">, read?: { version: number }) =>
      this.send("put", "/v1/channels/{channel}", [channel], { body: request, ifMatch: read && String(read.version) }),
    kits: () => this.send("get", "/v1/kits", []),
    kit: (sku: string) => this.send("get", "/v1/kits/{sku}", [sku]),
    putKit: (sku: string, request: Body<"/v1/kits/{sku}", "put">, read?: { version: number }) =>
      this.send("put", "/v1/kits/{sku}", [sku], { body: request, ifMatch: read && String(read.version) }),
    settings: () => this.send("get", "/v1/settings", []),
    putSettings: (settings: Body<"/v1/settings", "put">) => this.send("put", "/v1/settings", [], { body: settings }),
  };

  readonly supply = {
    ship: (request: Body<"/v1/transfers", "post">, options: CallOptions = {}) => this.send("post", "/v1/transfers", [], { body: request, ...options }),
    transfer: (id: string) => this.send("get", "/v1/transfers/{id}", [id]),
    receiveTransfer: (id: string, request: Body<"/v1/transfers/{id}/receipts", "post">, options: CallOptions = {}) =>
      this.send("post", "/v1/transfers/{id}/receipts", [id], { body: request, ...options }),
    cancelTransfer: (id: string) => this.send("post", "/v1/transfers/{id}/cancel", [id]),
    expect: (sku: string, location: string, request: Body<"/v1/items/{sku}/stock/{location}/incoming", "post">, options: CallOptions = {}) =>
      this.send("post", "/v1/items/{sku}/stock/{location}/incoming", [sku, location], { body: request, ...options }),
    purchaseOrder: (id: string) => this.send("get", "/v1/purchase-orders/{id}", [id]),
    receivePurchase: (id: string, request: Body<"/v1/purchase-orders/{id}/receipts", "post">, options: CallOptions = {}) =>
      this.send("post", "/v1/purchase-orders/{id}/receipts", [id], { body: request, ...options }),
  };

  readonly outbox = {
    summary: () => this.send("get", "/v1/admin/outbox", []),
    dead: (limit?: number) => this.send("get", "/v1/admin/outbox/dead", [], { query: { limit } }),
    requeue: (id: string) => this.send("post", "/v1/admin/outbox/dead/{id}/requeue", [id]),
    requeueAll: (filter: Body<"/v1/admin/outbox/dead/requeue", "post"> = {}) =>
      this.send("post", "/v1/admin/outbox/dead/requeue", [], { body: filter }),
  };

  private async explain(request: ReservationRequest) {
    try {
      const { lines, allocation, channel, backorder } = request;
      const availability = await this.send("post", "/v1/availability", [], { body: { lines, allocation, channel, backorder } });
      const whole = allocation === undefined || allocation === "whole";
      return availability.value.lines
        .filter((line) => !line.reservable)
        .map((line) => {
          const each = (line.available ?? []).map((stock) => stock.available);
          const reservable = Math.min(line.quantity, whole ? Math.max(0, ...each) : each.reduce((a, b) => a + b, 0));
          return { sku: line.sku, location: line.location, requested: line.quantity, reservable, missing: line.quantity - reservable };
        })
        .filter((line) => line.missing > 0);
    } catch (error) {
      if (error instanceof StockholdError) return [];
      throw error;
    }
  }
}
