// The retry engine: one policy for every operation, what may be repeated decided by the operation's kind.
import { OutcomeUnknown, problemError, ProblemError, RequestInProgress, Unreachable } from "./problems.js";
import type { Problem } from "./problems.js";

/** How a call of an operation may be repeated (as the Java client's Operation.Retry). */
export type RetryKind = "read" | "keyed" | "idempotent" | "unsafe";

/**
 * When and how often a call is sent again: after a connection failure or a timeout before its answer, a 409
 * idempotency-request-in-progress, a 408, a 429 or a 5xx; never after another 4xx. Waits are drawn with full jitter from
 * [0, min(maxBackoffMs, initialBackoffMs * multiplier^(n-1))], or are the answer's Retry-After.
 */
export interface RetryPolicy {
  maxAttempts: number;
  initialBackoffMs: number;
  maxBackoffMs: number;
  multiplier: number;
  attemptTimeoutMs: number;
  deadlineMs: number;
  /** Retries the client's budget earns per call. */
  budgetRatio: number;
  /** Retries the budget allows per second whatever the calls. */
  budgetPerSecond: number;
}

export const DEFAULT_POLICY: RetryPolicy = {
  maxAttempts: 8,
  initialBackoffMs: 100,
  maxBackoffMs: 5000,
  multiplier: 2,
  attemptTimeoutMs: 10_000,
  deadlineMs: 30_000,
  budgetRatio: 0.2,
  budgetPerSecond: 10,
};

export function backoff(policy: RetryPolicy, attempt: number): number {
  const bound = Math.min(policy.maxBackoffMs, policy.initialBackoffMs * Math.pow(policy.multiplier, Math.max(0, attempt - 1)));
  return Math.random() * bound;
}

/** Retries one client may make: each call earns budgetRatio, each second budgetPerSecond, a retry spends one. */
export class RetryBudget {
  private balance: number;
  private last = Date.now();
  private readonly cap: number;
  spent = 0;
  refused = 0;

  constructor(private readonly ratio: number, private readonly perSecond: number) {
    this.balance = perSecond;
    this.cap = perSecond * 10 + ratio * 100;
  }

  deposit(): void {
    this.refill();
    this.balance = Math.min(this.cap, this.balance + this.ratio);
  }

  tryWithdraw(): boolean {
    this.refill();
    if (this.balance < 1) {
      this.refused++;
      return false;
    }
    this.balance -= 1;
    this.spent++;
    return true;
  }

  private refill(): void {
    const now = Date.now();
    this.balance = Math.min(this.cap, this.balance + ((now - this.last) / 1000) * this.perSecond);
    this.last = now;
  }
}

/** A successful answer and what its headers said. */
export interface Answer<T> {
  value: T;
  status: number;
  /** The ETag's version: what a later write names in If-Match. */
  etag?: string;
  /** The service answered with the stored outcome of an earlier attempt with the same key. */
  replayed: boolean;
  idempotencyKey?: string;
  location?: string;
  attempts: number;
}

export interface Call {
  method: string;
  path: string;
  kind: RetryKind;
  query?: Record<string, unknown>;
  body?: unknown;
  idempotencyKey?: string;
  ifMatch?: string;
}

export interface Stats {
  calls: number;
  attempts: number;
  retries: number;
  refusedRetries: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class Calls {
  private readonly budget: RetryBudget;
  private calls = 0;
  private attempts = 0;

  constructor(
    private readonly base: string,
    private readonly token: () => string | Promise<string>,
    private readonly policy: RetryPolicy,
    private readonly fetcher: typeof fetch,
    budget?: RetryBudget,
  ) {
    this.budget = budget ?? new RetryBudget(policy.budgetRatio, policy.budgetPerSecond);
  }

  /** The same retry budget under another policy. */
  with(policy: Partial<RetryPolicy>): Calls {
    return new Calls(this.base, this.token, { ...this.policy, ...policy }, this.fetcher, this.budget);
  }

  stats(): Stats {
    return { calls: this.calls, attempts: this.attempts, retries: this.budget.spent, refusedRetries: this.budget.refused };
  }

  async send<T>(call: Call): Promise<Answer<T>> {
    this.calls++;
    this.budget.deposit();
    const deadline = Date.now() + this.policy.deadlineMs;
    let mayHaveActed = false;
    let last: unknown;
    for (let attempt = 1; ; attempt++) {
      this.attempts++;
      let wait = backoff(this.policy, attempt);
      let received: Received | undefined;
      try {
        received = await this.attempt(call, Math.max(1, Math.min(this.policy.attemptTimeoutMs, deadline - Date.now())));
      } catch (error) {
        last = error;
        if (!notSent(error)) {
          if (call.kind === "unsafe") {
            throw new OutcomeUnknown(`${call.method} ${call.path}: the answer was lost; read the resource`, undefined, attempt, { cause: error });
          }
          mayHaveActed ||= call.kind !== "read";
        }
      }
      if (received !== undefined) {
        if (received.response.status < 300) {
          return answer<T>(received, call, attempt);
        }
        const problem = problemError(problemOf(received), call.idempotencyKey, attempt);
        const notRun = problem.status === 429 || problem.status === 408; // refused before anything ran
        const retryable =
          notRun ||
          (problem instanceof RequestInProgress && call.kind === "keyed") ||
          (problem.status >= 500 && call.kind !== "unsafe");
        if (!retryable) {
          if (mayHaveActed && problem.status === 412 && call.ifMatch !== undefined && call.kind !== "keyed") {
            throw new OutcomeUnknown(`${call.method} ${call.path}: an earlier attempt may be the change`, undefined, attempt, { cause: problem });
          }
          throw problem;
        }
        mayHaveActed ||= call.kind !== "read" && !notRun;
        last = problem;
        wait = retryAfter(received.response) ?? wait;
      }
      if (attempt >= this.policy.maxAttempts || Date.now() + wait > deadline || !this.budget.tryWithdraw()) {
        if (mayHaveActed) {
          throw new OutcomeUnknown(
            `${call.method} ${call.path}: the outcome is unknown after ${attempt} attempt(s)` +
              (call.idempotencyKey ? `; send it again with Idempotency-Key ${call.idempotencyKey} to settle it` : ""),
            call.idempotencyKey,
            attempt,
            { cause: last },
          );
        }
        if (last instanceof ProblemError) {
          throw last;
        }
        throw new Unreachable(`${call.method} ${call.path}: no answer after ${attempt} attempt(s)`, call.idempotencyKey, attempt, { cause: last });
      }
      await sleep(wait);
    }
  }

  /** One attempt: the answer read whole (a connection lost while reading the body is a lost answer too). */
  private async attempt(call: Call, timeoutMs: number): Promise<Received> {
    const headers: Record<string, string> = { accept: "application/json, application/problem+json" };
    const token = await this.token();
    if (token) headers.authorization = `Bearer ${token}`;
    if (call.idempotencyKey !== undefined) headers["idempotency-key"] = sfString(call.idempotencyKey);
    if (call.ifMatch !== undefined) headers["if-match"] = `"${call.ifMatch}"`;
    let body: string | undefined;
    if (call.body !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(call.body);
    }
    const response = await this.fetcher(this.base + target(call), {
      method: call.method,
      headers,
      body,
      signal: AbortSignal.timeout(timeoutMs),
      redirect: "manual",
    });
    return { response, text: await response.text() };
  }
}

/** The key as an RFC 8941 sf-string, so any printable ASCII key survives the header. */
function sfString(key: string): string {
  if (key.length < 1 || key.length > 255 || !/^[\x20-\x7e]+$/.test(key)) {
    throw new TypeError("an Idempotency-Key is 1-255 printable ASCII characters");
  }
  return `"${key.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}

function target(call: Call): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(call.query ?? {})) {
    for (const one of Array.isArray(value) ? value : [value]) {
      if (one !== undefined && one !== null) query.append(name, String(one));
    }
  }
  const text = query.toString().replace(/\+/g, "%20");
  return call.path + (text ? `?${text}` : "");
}

/** A connection that failed before the request was sent: nothing can have happened. */
function notSent(error: unknown): boolean {
  const code = (error as { cause?: { code?: string } })?.cause?.code;
  return code === "ECONNREFUSED" || code === "ENOTFOUND" || code === "EAI_AGAIN" || code === "UND_ERR_CONNECT_TIMEOUT";
}

interface Received {
  response: Response;
  text: string;
}

/** The answer; a 2xx body that is not JSON is an error of the service, never a lost answer to retry. */
function answer<T>({ response, text }: Received, call: Call, attempts: number): Answer<T> {
  const etag = response.headers.get("etag") ?? undefined;
  return {
    value: (text ? JSON.parse(text) : undefined) as T,
    status: response.status,
    etag: etag?.replace(/^W\//, "").replace(/^"(.*)"$/, "$1"),
    replayed: response.headers.get("idempotent-replayed")?.toLowerCase() === "true",
    idempotencyKey: call.idempotencyKey,
    location: response.headers.get("location") ?? undefined,
    attempts,
  };
}

function problemOf({ response, text }: Received): Problem {
  if ((response.headers.get("content-type") ?? "").startsWith("application/problem+json")) {
    try {
      return JSON.parse(text) as Problem;
    } catch {
      // described below from the status
    }
  }
  return { type: "about:blank", title: `HTTP ${response.status}`, status: response.status, detail: text.slice(0, 200) };
}

function retryAfter(response: Response): number | undefined {
  const value = response.headers.get("retry-after")?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}
