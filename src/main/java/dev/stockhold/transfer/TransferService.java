package dev.stockhold.transfer;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.stockhold.Clocks;
import dev.stockhold.OutcomeLog;
import dev.stockhold.events.EventType;
import dev.stockhold.events.TransferCancelledV1;
import dev.stockhold.events.TransferReceivedV1;
import dev.stockhold.events.TransferShippedV1;
import dev.stockhold.idempotency.IdempotencyKey;
import dev.stockhold.idempotency.OncePerKey;
import dev.stockhold.idempotency.StoredResponse;
import dev.stockhold.inventory.Source;
import dev.stockhold.inventory.StockKey;
import dev.stockhold.inventory.StockMoves;
import dev.stockhold.outbox.OutboxWriter;
import dev.stockhold.reservation.Backorders;
import dev.stockhold.web.Problem;
import dev.stockhold.web.ProblemException;
import dev.stockhold.web.ProblemType;

/**
 * Ships, receives and cancels transfers, each in one transaction with its stock moves (through {@link StockMoves}), its
 * ledger entries and its event. Shipping and receipts run once per Idempotency-Key; a receipt or a cancel locks the
 * transfer first, so receipts and the cancel of one transfer apply one at a time and never move a unit twice.
 */
@ApplicationScoped
public class TransferService {

    @Inject
    TransferRepository transfers;
    @Inject
    StockMoves stock;
    @Inject
    OncePerKey once;
    @Inject
    OutboxWriter outbox;
    @Inject
    ObjectMapper mapper;
    @Inject
    Clock clock;
    @Inject
    Backorders backorders;

    /** POST /v1/transfers: 201 with the transfer, or a stored 409 when the origin cannot give the units. */
    @Transactional(Transactional.TxType.NEVER)
    public OncePerKey.Reply ship(String tenantId, IdempotencyKey key, TransferRequest request, String actor) {
        UUID id = UUID.randomUUID();
        OncePerKey.Reply reply = once.run(tenantId, key, request.fingerprint(), null, () -> {
            Instant now = Clocks.now(clock);
            try {
                stock.ship(tenantId, request.sku(), request.from(), request.to(), request.quantity(), id, source(actor, key),
                        now);
            } catch (StockMoves.NotShippable refused) {
                if (refused.from == null) {
                    throw new ProblemException(ProblemType.ITEM_NOT_FOUND,
                            "No stock record for '" + request.sku() + "' at '" + request.from() + "'; nothing was shipped");
                }
                throw once.refusal(Problem.of(ProblemType.INSUFFICIENT_STOCK_TO_SHIP, "On hand of " + refused.from.key().subject() + " is "
                        + refused.from.onHand() + "; shipping " + request.quantity() + " would leave less than the " + refused.from.held()
                        + " held, " + refused.from.committed() + " committed and " + refused.from.safetyStock()
                        + " safety stock there; nothing was shipped"));
            }
            Transfer shipped = transfers.insert(tenantId, id, request, now);
            event(tenantId, EventType.TRANSFER_SHIPPED, shipped, 0, now);
            return new StoredResponse(201, json(shipped), shipped.path(), null, shipped.etag());
        });
        log("shipped", tenantId, key, reply);
        return reply;
    }

    /** POST /v1/transfers/{id}/receipts: 200 with the transfer, or a stored 409 (more than in transit, or none is). */
    @Transactional(Transactional.TxType.NEVER)
    public OncePerKey.Reply receive(String tenantId, IdempotencyKey key, UUID id, ReceiptRequest request, String actor) {
        OncePerKey.Reply reply = once.run(tenantId, key, request.fingerprint(id), null, () -> {
            Instant now = Clocks.now(clock);
            Transfer before = locked(tenantId, id);
            if (!before.status().equals(Transfer.IN_TRANSIT)) {
                throw once.refusal(Problem.of(ProblemType.INVALID_TRANSFER_STATE,
                        "Transfer " + id + " is " + before.status() + "; nothing is in transit to receive"));
            }
            if (request.quantity() > before.inTransit()) {
                throw once.refusal(Problem.of(ProblemType.OVER_RECEIPT, "Transfer " + id + " has " + before.inTransit()
                        + " units in transit, not " + request.quantity() + "; nothing was received"));
            }
            stock.receive(tenantId, new StockKey(before.sku(), before.to()), request.quantity(), id, source(actor, key), now)
                    .orElseThrow(() -> new IllegalStateException("transfer " + id + " has units in transit its destination record lacks"));
            Transfer after = transfers.account(tenantId, id, request.quantity(), 0, now);
            backorders.arrived(tenantId, id, request.quantity(), now);
            event(tenantId, EventType.TRANSFER_RECEIVED, after, request.quantity(), now);
            return StoredResponse.ok(mapper, after, null, after.etag());
        });
        log("received", tenantId, key, reply);
        return reply;
    }

    /**
     * POST /v1/transfers/{id}/cancel: what was not received goes back to the origin; a cancelled transfer answers as it
     * is, a received one is 409 invalid-transfer-state.
     */
    @Transactional
    public Transfer cancel(String tenantId, UUID id, String actor) {
        Instant now = Clocks.now(clock);
        Transfer before = locked(tenantId, id);
        if (before.status().equals(Transfer.CANCELLED)) {
            return before;
        }
        if (!before.status().equals(Transfer.IN_TRANSIT)) {
            throw new ProblemException(ProblemType.INVALID_TRANSFER_STATE,
                    "Transfer " + id + " was received in full; nothing is in transit to return");
        }
        stock.giveBack(tenantId, before.sku(), before.from(), before.to(), before.inTransit(), id, source(actor, null),
                now);
        Transfer after = transfers.account(tenantId, id, 0, before.inTransit(), now);
        backorders.ended(tenantId, id, before.sku(), before.to(), now);
        event(tenantId, EventType.TRANSFER_CANCELLED, after, 0, now);
        OutcomeLog.stock("transfer-cancelled", tenantId, null, id + " returned=" + after.returned());
        return after;
    }

    @Transactional(Transactional.TxType.SUPPORTS)
    public Transfer find(String tenantId, UUID id) {
        return transfers.find(tenantId, id).orElseThrow(() -> notFound(id));
    }

    /**
     * The transfer locked for a receipt or the cancel, after the open supplies of its sku and the reservations waiting
     * for it ({@link Backorders#lockFor}): the order every writer of supplies locks them in.
     */
    private Transfer locked(String tenantId, UUID id) {
        Transfer seen = transfers.find(tenantId, id).orElseThrow(() -> notFound(id));
        backorders.lockFor(tenantId, seen.sku(), id);
        return transfers.lock(tenantId, id).orElseThrow(() -> notFound(id));
    }

    private static ProblemException notFound(UUID id) {
        return new ProblemException(ProblemType.TRANSFER_NOT_FOUND, "No transfer " + id);
    }

    private void event(String tenantId, EventType type, Transfer t, long receipt, Instant now) {
        Record data = switch (type) {
            case TRANSFER_SHIPPED -> new TransferShippedV1(t.id(), t.sku(), t.from(), t.to(), t.quantity(), t.received(), t.returned(),
                    t.inTransit(), t.status(), t.reference(), t.expectedAt(), t.createdAt());
            case TRANSFER_RECEIVED -> new TransferReceivedV1(t.id(), t.sku(), t.from(), t.to(), t.quantity(), t.received(), t.returned(),
                    t.inTransit(), t.status(), t.reference(), t.expectedAt(), t.createdAt(), receipt);
            case TRANSFER_CANCELLED -> new TransferCancelledV1(t.id(), t.sku(), t.from(), t.to(), t.quantity(), t.received(), t.returned(),
                    t.inTransit(), t.status(), t.reference(), t.expectedAt(), t.createdAt());
            default -> throw new IllegalArgumentException(type + " is not a transfer event");
        };
        outbox.write(tenantId, List.of(new OutboxWriter.DomainEvent(type, t.id(), t.id().toString(), t.id().toString(), data)), now);
    }

    /** A transfer's ledger entries name it (their transfer id) and the key of the request that moved them. */
    private static Source source(String actor, IdempotencyKey key) {
        return new Source(actor, null, key == null ? null : key.value(), null, null);
    }

    private String json(Transfer t) {
        try {
            return mapper.writeValueAsString(t);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void log(String what, String tenantId, IdempotencyKey key, OncePerKey.Reply reply) {
        OutcomeLog.stock("transfer-" + (reply.replayed() ? "replayed" : reply.response().status() < 300 ? what : "refused"), tenantId,
                key.value(), "status=" + reply.response().status());
    }
}
