package dev.stockhold.supply;

import java.time.Clock;
import java.time.Instant;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.stockhold.Clocks;
import dev.stockhold.OutcomeLog;
import dev.stockhold.idempotency.IdempotencyKey;
import dev.stockhold.idempotency.OncePerKey;
import dev.stockhold.idempotency.StoredResponse;
import dev.stockhold.inventory.Source;
import dev.stockhold.inventory.StockKey;
import dev.stockhold.inventory.StockMoves;
import dev.stockhold.reservation.Backorders;
import dev.stockhold.web.Problem;
import dev.stockhold.web.ProblemException;
import dev.stockhold.web.ProblemType;

/**
 * Purchase orders, once per Idempotency-Key: expected (incoming rises), received in parts (incoming to on hand, then
 * the backordered lines waiting for the order are allocated in reservation order, in the same transaction), closed with
 * the last receipt (what it promised beyond what came moves to the next supply).
 */
@ApplicationScoped
public class PurchaseOrderService {

    @Inject
    PurchaseOrderRepository orders;
    @Inject
    StockMoves stock;
    @Inject
    Backorders backorders;
    @Inject
    OncePerKey once;
    @Inject
    ObjectMapper mapper;
    @Inject
    Clock clock;

    /** POST /v1/items/{sku}/stock/{location}/incoming: 201 with the order. */
    @Transactional(Transactional.TxType.NEVER)
    public OncePerKey.Reply expect(String tenantId, IdempotencyKey key, StockKey at, IncomingRequest request) {
        UUID id = UUID.randomUUID();
        OncePerKey.Reply reply = once.run(tenantId, key, request.fingerprint(at), null, () -> {
            Instant now = Clocks.now(clock);
            stock.expect(tenantId, at, request.quantity(), id);
            PurchaseOrder order = orders.insert(tenantId, id, at, request, now);
            try {
                return new StoredResponse(201, mapper.writeValueAsString(order), order.path(), null, order.etag());
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw new IllegalStateException(e);
            }
        });
        OutcomeLog.stock(reply.replayed() ? "purchase-order-replayed" : "purchase-order-expected", tenantId, key.value(), at.subject());
        return reply;
    }

    /** POST /v1/purchase-orders/{id}/receipts: 200 with the order, or a stored 409. */
    @Transactional(Transactional.TxType.NEVER)
    public OncePerKey.Reply receive(String tenantId, IdempotencyKey key, UUID id, PurchaseReceiptRequest request, String actor) {
        OncePerKey.Reply reply = once.run(tenantId, key, request.fingerprint(id), null, () -> {
            Instant now = Clocks.now(clock);
            PurchaseOrder seen = orders.find(tenantId, id).orElseThrow(() -> notFound(id));
            backorders.lockFor(tenantId, seen.sku(), id);
            PurchaseOrder before = orders.lock(tenantId, id).orElseThrow(() -> notFound(id));
            if (!before.status().equals(PurchaseOrder.OPEN)) {
                throw once.refusal(Problem.of(ProblemType.INVALID_PURCHASE_ORDER_STATE,
                        "Purchase order " + id + " is " + before.status() + "; nothing more is expected"));
            }
            if (request.quantity() > before.expected()) {
                throw once.refusal(Problem.of(ProblemType.OVER_RECEIPT, "Purchase order " + id + " expects " + before.expected()
                        + " more units, not " + request.quantity() + "; nothing was received"));
            }
            long rest = before.expected() - request.quantity();
            StockKey at = new StockKey(before.sku(), before.location());
            stock.receivePurchase(tenantId, at, request.quantity(), request.closes() ? rest : 0,
                    id, new Source(actor, null, key.value(), null, null), now);
            PurchaseOrder after = orders.account(tenantId, id, request.quantity(), request.closes(), now);
            backorders.arrived(tenantId, id, request.quantity(), now);
            if (!after.status().equals(PurchaseOrder.OPEN)) {
                backorders.ended(tenantId, id, before.sku(), before.location(), now);
            }
            return StoredResponse.ok(mapper, after, null, after.etag());
        });
        OutcomeLog.stock("purchase-receipt-" + (reply.replayed() ? "replayed" : reply.response().status() < 300 ? "applied" : "refused"),
                tenantId, key.value(), id + " status=" + reply.response().status());
        return reply;
    }

    @Transactional(Transactional.TxType.SUPPORTS)
    public PurchaseOrder find(String tenantId, UUID id) {
        return orders.find(tenantId, id).orElseThrow(() -> notFound(id));
    }

    private static ProblemException notFound(UUID id) {
        return new ProblemException(ProblemType.PURCHASE_ORDER_NOT_FOUND, "No purchase order " + id);
    }
}
