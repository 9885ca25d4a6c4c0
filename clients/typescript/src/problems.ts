// One error class per problem slug of the API, each carrying the problem document (RFC 9457).
import type { components } from "./openapi.js";

export type Problem = components["schemas"]["Problem"];

/** What one line of a refused reservation lacks, as read right after the refusal. */
export interface Shortfall {
  sku: string;
  location?: string;
  requested: number;
  /** What the request's allocation could have taken: the most one location serves (whole lines), or all together. */
  reservable: number;
  missing: number;
}

/** Every failure the client reports. */
export class StockholdError extends Error {
  constructor(
    message: string,
    /** The key the call was sent with: send it again to settle the call. */
    readonly idempotencyKey: string | undefined,
    readonly attempts: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** The call's deadline, attempts or budget ran out while an attempt may have taken effect. */
export class OutcomeUnknown extends StockholdError {}

/** No attempt reached the service, or a read got no answer. */
export class Unreachable extends StockholdError {}

/** A problem answer; `problem` is the document as the service sent it. */
export class ProblemError extends StockholdError {
  constructor(readonly problem: Problem, idempotencyKey: string | undefined, attempts: number) {
    super(`${problem.status} ${slugOf(problem)}: ${problem.detail}`, idempotencyKey, attempts);
  }
  get status(): number {
    return this.problem.status;
  }
  get slug(): string {
    return slugOf(this.problem);
  }
}

export class MalformedRequest extends ProblemError {}
export class ValidationFailed extends ProblemError {
  get violations() {
    return this.problem.violations ?? [];
  }
}
export class IdempotencyKeyMissing extends ProblemError {}
export class IdempotencyKeyInvalid extends ProblemError {}
export class Unauthorized extends ProblemError {}
export class Forbidden extends ProblemError {}
export class NotFound extends ProblemError {}
export class ItemNotFound extends NotFound {}
export class ChannelNotFound extends NotFound {}
export class TransferNotFound extends NotFound {}
export class PurchaseOrderNotFound extends NotFound {}
export class KitNotFound extends NotFound {}
export class ReservationNotFound extends NotFound {}
export class OutboxEventNotFound extends NotFound {}
export class MethodNotAllowed extends ProblemError {}
export class NotAcceptable extends ProblemError {}
/** 409: a line is short; `shortfall` is each short line as read right after the refusal. */
export class InsufficientStock extends ProblemError {
  shortfall: Shortfall[] = [];
  get skus(): string[] {
    return this.problem.skus ?? [];
  }
}
export class InvalidReservationState extends ProblemError {}
export class StockBelowHeld extends ProblemError {}
export class OverFulfilment extends ProblemError {}
export class OverReceipt extends ProblemError {}
export class InvalidTransferState extends ProblemError {}
export class InvalidPurchaseOrderState extends ProblemError {}
export class InsufficientStockToShip extends ProblemError {}
export class PreconditionFailed extends ProblemError {}
export class ReservationCapExceeded extends ProblemError {}
export class HoldLimitReached extends ProblemError {}
export class RequestInProgress extends ProblemError {}
export class RequestTimeout extends ProblemError {}
export class LengthRequired extends ProblemError {}
export class PayloadTooLarge extends ProblemError {}
export class UnsupportedMediaType extends ProblemError {}
export class TooManyRequests extends ProblemError {}
export class UnknownSku extends ProblemError {
  get skus(): string[] {
    return this.problem.skus ?? [];
  }
}
export class UnknownChannel extends ProblemError {}
export class IdempotencyKeyReused extends ProblemError {}
export class ServiceUnavailable extends ProblemError {}
export class InternalError extends ProblemError {}

type ProblemClass = new (problem: Problem, key: string | undefined, attempts: number) => ProblemError;

/** The class of each slug the service answers. */
export const PROBLEM_CLASSES: Record<string, ProblemClass> = {
  "malformed-request": MalformedRequest,
  "validation-failed": ValidationFailed,
  "idempotency-key-missing": IdempotencyKeyMissing,
  "idempotency-key-invalid": IdempotencyKeyInvalid,
  unauthorized: Unauthorized,
  forbidden: Forbidden,
  "not-found": NotFound,
  "item-not-found": ItemNotFound,
  "channel-not-found": ChannelNotFound,
  "transfer-not-found": TransferNotFound,
  "purchase-order-not-found": PurchaseOrderNotFound,
  "kit-not-found": KitNotFound,
  "reservation-not-found": ReservationNotFound,
  "outbox-event-not-found": OutboxEventNotFound,
  "method-not-allowed": MethodNotAllowed,
  "not-acceptable": NotAcceptable,
  "insufficient-stock": InsufficientStock,
  "invalid-reservation-state": InvalidReservationState,
  "stock-below-held": StockBelowHeld,
  "over-fulfilment": OverFulfilment,
  "over-receipt": OverReceipt,
  "invalid-transfer-state": InvalidTransferState,
  "invalid-purchase-order-state": InvalidPurchaseOrderState,
  "insufficient-stock-to-ship": InsufficientStockToShip,
  "precondition-failed": PreconditionFailed,
  "reservation-cap-exceeded": ReservationCapExceeded,
  "hold-limit-reached": HoldLimitReached,
  "idempotency-request-in-progress": RequestInProgress,
  "request-timeout": RequestTimeout,
  "length-required": LengthRequired,
  "payload-too-large": PayloadTooLarge,
  "unsupported-media-type": UnsupportedMediaType,
  "too-many-requests": TooManyRequests,
  "unknown-sku": UnknownSku,
  "unknown-channel": UnknownChannel,
  "idempotency-key-reused": IdempotencyKeyReused,
  "service-unavailable": ServiceUnavailable,
  "internal-error": InternalError,
};

export function slugOf(problem: Problem): string {
  const type = problem.type ?? "";
  return type.substring(type.lastIndexOf("/") + 1);
}

/** The error for a problem document: its slug's class, or a plain ProblemError for a slug this client does not know. */
export function problemError(problem: Problem, key: string | undefined, attempts: number): ProblemError {
  const Class = PROBLEM_CLASSES[slugOf(problem)] ?? ProblemError;
  return new Class(problem, key, attempts);
}
