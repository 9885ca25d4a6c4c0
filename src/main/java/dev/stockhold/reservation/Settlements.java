package dev.stockhold.reservation;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.stockhold.OutcomeLog;
import dev.stockhold.events.EventType;
import dev.stockhold.events.ReservationCommitmentLine;
import dev.stockhold.events.ReservationEventLine;
import dev.stockhold.idempotency.IdempotencyKey;
import dev.stockhold.idempotency.OncePerKey;
import dev.stockhold.idempotency.Refusal;
import dev.stockhold.idempotency.StoredResponse;
import dev.stockhold.inventory.Move;
import dev.stockhold.inventory.Source;
import dev.stockhold.inventory.StockKey;
import dev.stockhold.inventory.StockMoves;
import dev.stockhold.inventory.StockRecord;
import dev.stockhold.outbox.OutboxWriter;
import dev.stockhold.web.Problem;
import dev.stockhold.web.ProblemType;
import dev.stockhold.web.ValidationFailedException;

/**
 * Fulfilments and releases of a confirmed reservation with deferred fulfilment, once per Idempotency-Key: the committed
 * units of each named line leave the location (fulfil: committed and on hand drop) or become available again (release:
 * committed drops). The key, the lines, the stock records and the events change in one transaction under the
 * reservation's row lock, so a fulfilment, a release and another fulfilment of the same reservation are applied one
 * after the other and can never together take more than was committed (I1 with committed). Outcomes 200 and 409 are
 * stored with the key and replayed.
 */
@ApplicationScoped
public class Settlements {

    @Inject
    ReservationRepository reservations;
    @Inject
    StockMoves stock;
    @Inject
    OutboxWriter outbox;
    @Inject
    OncePerKey once;
    @Inject
    ObjectMapper mapper;
    @Inject
    java.time.Clock clock;

    public OncePerKey.Reply settle(String tenantId, IdempotencyKey key, UUID id, SettlementRequest.Settlement kind,
            SettlementRequest request, String actor) {
        OncePerKey.Reply reply = once.run(tenantId, key, request.fingerprint(kind, id), id, () -> apply(tenantId, key, id, kind, request,
                actor));
        OutcomeLog.reservation(kind.wire() + (reply.replayed() ? "-replayed" : reply.response().status() == 200 ? "" : "-refused"),
                tenantId, key.value(), id, null);
        return reply;
    }

    private StoredResponse apply(String tenantId, IdempotencyKey key, UUID id, SettlementRequest.Settlement kind,
            SettlementRequest request, String actor) {
        // not found: the exception rolls the key back with everything else, so a 404 is not stored
        Reservation r = reservations.lock(tenantId, id).orElseThrow(() -> new ReservationNotFoundException(id.toString()));
        ReservationStatus.Action action = kind == SettlementRequest.Settlement.FULFIL ? ReservationStatus.Action.FULFIL
                : ReservationStatus.Action.RELEASE;
        if (!r.isDeferred() || !action.allows(r.status)) {
            throw refusal(ProblemType.INVALID_RESERVATION_STATE, !r.isDeferred()
                    ? "Reservation " + id + " was made without deferred fulfilment: its confirm sold the units"
                    : "Reservation is " + r.status + "; only a confirmed reservation with deferred fulfilment has committed units");
        }
        // a kit line is settled by its components' units at its location
        Map<Integer, Integer> byLine = match(r, new SettlementRequest(StoredLines.componentsOf(r.requestedLines, request.lines())));
        Instant now = dev.stockhold.Clocks.now(clock);
        boolean fulfil = kind == SettlementRequest.Settlement.FULFIL;

        SortedMap<StockKey, Long> quantities = new TreeMap<>();
        Map<Integer, ReservationRepository.Settled> changes = new TreeMap<>();
        List<ReservationEventLine> moved = new ArrayList<>();
        byLine.forEach((lineNo, quantity) -> {
            ReservationLine line = r.lines.get(lineNo);
            quantities.merge(StockKey.of(line.sku, line.location), (long) quantity, Long::sum);
            changes.put(lineNo, fulfil ? new ReservationRepository.Settled(quantity, 0) : new ReservationRepository.Settled(0, quantity));
            moved.add(new ReservationEventLine(line.sku, quantity, line.location()));
        });
        List<StockRecord> after = stock.move(fulfil ? Move.FULFIL : Move.UNCOMMIT, tenantId, quantities,
                Source.reservation(actor, id, key.value()), null, now);
        if (after.size() != quantities.size()) {
            // the lines say the units are committed and the records do not: I2 is broken, and nothing may change
            throw new IllegalStateException("stock records of reservation " + id + " have fewer committed units than its lines");
        }
        reservations.settle(r.id, changes);

        List<ReservationView.Line> lines = new ArrayList<>();
        List<ReservationCommitmentLine> eventLines = new ArrayList<>();
        int committed = 0;
        int fulfilled = 0;
        for (int i = 0; i < r.lines.size(); i++) {
            ReservationLine line = r.lines.get(i);
            ReservationRepository.Settled change = changes.getOrDefault(i, new ReservationRepository.Settled(0, 0));
            int lineFulfilled = line.fulfilled + change.fulfilled();
            int lineReleased = line.released + change.released();
            lines.add(new ReservationView.Line(line.sku, line.quantity, line.location(), lineFulfilled, lineReleased));
            eventLines.add(new ReservationCommitmentLine(line.sku, line.quantity, line.location(), lineFulfilled, lineReleased));
            committed += line.quantity - lineFulfilled - lineReleased;
            fulfilled += lineFulfilled;
        }
        ReservationStatus status = committed == 0 ? ReservationStatus.FULFILLED
                : fulfilled > 0 ? ReservationStatus.PARTIALLY_FULFILLED : ReservationStatus.CONFIRMED;
        if (status != r.status) {
            r.transitionTo(status, now);
        } else {
            r.touch(now);
        }
        ReservationView view = ReservationView.of(r, status, lines);

        outbox.write(tenantId, List.of(ReservationEvents.settled(fulfil ? EventType.FULFILLED : EventType.RELEASED, view, eventLines,
                moved)), now);
        return StoredResponse.ok(mapper, view, id, null);
    }

    /**
     * The reservation's line of each request line, by line number, with the units asked of it; a line the reservation
     * does not have, or more units than it still has committed, is the stored 409 over-fulfilment.
     */
    private Map<Integer, Integer> match(Reservation r, SettlementRequest request) {
        Map<Integer, Integer> byLine = new TreeMap<>();
        for (SettlementRequest.Line wanted : request.lines()) {
            List<Integer> candidates = new ArrayList<>();
            for (int i = 0; i < r.lines.size(); i++) {
                ReservationLine line = r.lines.get(i);
                if (line.sku.equals(wanted.sku()) && (wanted.location() == null || wanted.location().equals(line.location()))) {
                    candidates.add(i);
                }
            }
            String subject = wanted.sku() + (wanted.location() == null ? "" : "@" + wanted.location());
            if (candidates.size() > 1) {
                throw new ValidationFailedException("lines", "the reservation has " + wanted.sku()
                        + " at several locations: name the location");
            }
            if (candidates.isEmpty()) {
                throw refusal(ProblemType.OVER_FULFILMENT, "Reservation " + r.id + " has no line " + subject + "; nothing was changed");
            }
            int lineNo = candidates.get(0);
            if (byLine.containsKey(lineNo)) {
                throw new ValidationFailedException("lines", "two lines name " + subject);
            }
            int committed = r.lines.get(lineNo).committed();
            if (wanted.quantity() > committed) {
                throw refusal(ProblemType.OVER_FULFILMENT, "Line " + subject + " of reservation " + r.id + " has " + committed
                        + " units committed, fewer than " + wanted.quantity() + "; nothing was changed");
            }
            byLine.put(lineNo, wanted.quantity());
        }
        return byLine;
    }

    private Refusal refusal(ProblemType type, String detail) {
        return once.refusal(Problem.of(type, detail));
    }

}
