package dev.stockhold.reservation;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.stockhold.events.EventType;
import dev.stockhold.events.ReservationCancelledV1;
import dev.stockhold.events.ReservationCancelledV2;
import dev.stockhold.events.ReservationCommitmentLine;
import dev.stockhold.events.ReservationConfirmedV1;
import dev.stockhold.events.ReservationCreatedV1;
import dev.stockhold.events.ReservationCreatedV2;
import dev.stockhold.events.ReservationEventData;
import dev.stockhold.events.ReservationEventLine;
import dev.stockhold.events.ReservationExpiredV1;
import dev.stockhold.events.ReservationExpiredV2;
import dev.stockhold.events.ReservationExtendedV1;
import dev.stockhold.events.ReservationFulfilledV1;
import dev.stockhold.events.ReservationKitLine;
import dev.stockhold.events.ReservationPromiseLine;
import dev.stockhold.events.ReservationReleasedV1;
import dev.stockhold.events.ReservationUpdatedV1;
import dev.stockhold.outbox.OutboxWriter;

/**
 * The reservation events' data, copied field by field from the reservation: the event records are types of their own,
 * so nothing about the API's reservation body (its fields, names or annotations) reaches an event.
 */
final class ReservationEvents {

    private ReservationEvents() {
    }

    /** The event of a reservation row as a transition left it. */
    static OutboxWriter.DomainEvent of(EventType type, Reservation r) {
        return event(type, r.id, r.lines.stream().map(l -> new ReservationEventLine(l.sku, l.quantity, l.location())).toList(),
                r.expiresAt, r.createdAt, r.reference, ReservationView.metadataOf(r.metadata), r.fulfilment);
    }

    /** The created event of a reservation about to be written (its row does not exist yet). */
    static OutboxWriter.DomainEvent created(ReservationView held) {
        return created(held, List.of());
    }

    /** A new reservation's event, naming what it was promised from incoming supply (none: the field is omitted). */
    static OutboxWriter.DomainEvent created(ReservationView held, List<ReservationPromiseLine> promised) {
        List<ReservationEventLine> lines = eventLines(held.rows());
        List<ReservationPromiseLine> waits = promised.isEmpty() ? null : promised;
        // v1 has at least one line: a reservation that holds nothing yet (all backordered) is created as v2
        return lines.isEmpty()
                ? OutboxWriter.DomainEvent.ofReservation(EventType.CREATED_V2, held.id(), new ReservationCreatedV2(held.id(),
                        ReservationCreatedV2.STATUS, lines, held.expiresAt(), held.createdAt(), held.reference(), held.metadata(),
                        held.fulfilment(), held.channel(), waits, kitLines(held)))
                : OutboxWriter.DomainEvent.ofReservation(EventType.CREATED, held.id(), new ReservationCreatedV1(held.id(),
                        ReservationCreatedV1.STATUS, lines, held.expiresAt(), held.createdAt(), held.reference(), held.metadata(),
                        held.fulfilment(), held.channel(), waits, kitLines(held)));
    }

    /** An edit's event: the lines the reservation holds now and those it held before. */
    static OutboxWriter.DomainEvent updated(ReservationView after, List<ReservationView.Line> before) {
        return OutboxWriter.DomainEvent.ofReservation(EventType.UPDATED, after.id(),
                new ReservationUpdatedV1(after.id(), ReservationUpdatedV1.STATUS, eventLines(after.rows()), eventLines(before),
                        after.expiresAt(), after.createdAt(), after.reference(), after.metadata(), kitLines(after)));
    }

    /** The kit lines of a reservation, in kit units with the component records that hold them; null when it has none. */
    private static List<ReservationKitLine> kitLines(ReservationView view) {
        List<ReservationKitLine> kits = view.lines().stream().filter(l -> l.components() != null)
                .map(l -> new ReservationKitLine(l.sku(), l.quantity(),
                        l.components().stream().map(c -> new ReservationEventLine(c.sku(), c.quantity(), c.location())).toList()))
                .toList();
        return kits.isEmpty() ? null : kits;
    }

    private static List<ReservationEventLine> eventLines(List<ReservationView.Line> lines) {
        return lines.stream().map(l -> new ReservationEventLine(l.sku(), l.quantity(), l.location())).toList();
    }

    /** A fulfilment's or release's event: every line as it left them, and the units this one moved. */
    static OutboxWriter.DomainEvent settled(EventType type, ReservationView after, List<ReservationCommitmentLine> lines,
            List<ReservationEventLine> moved) {
        Record data = switch (type) {
            case FULFILLED -> new ReservationFulfilledV1(after.id(), after.status().name(), lines, moved, after.createdAt(),
                    after.reference(), after.metadata());
            case RELEASED -> new ReservationReleasedV1(after.id(), after.status().name(), lines, moved, after.createdAt(),
                    after.reference(), after.metadata());
            default -> throw new IllegalArgumentException(type + " is not a fulfilment event");
        };
        return OutboxWriter.DomainEvent.ofReservation(type, after.id(), data);
    }

    private static OutboxWriter.DomainEvent event(EventType asked, UUID id, List<ReservationEventLine> lines, Instant expiresAt,
            Instant createdAt, String reference, Map<String, String> metadata, String fulfilment) {
        // v1 has at least one line: a reservation that held nothing (all still backordered) ends with v2
        EventType type = !lines.isEmpty() ? asked : switch (asked) {
            case CANCELLED -> EventType.CANCELLED_V2;
            case EXPIRED -> EventType.EXPIRED_V2;
            default -> throw new IllegalStateException("reservation " + id + " holds no units: no " + asked.shortName() + " event");
        };
        ReservationEventData data = switch (type) {
            case CONFIRMED -> new ReservationConfirmedV1(id, ReservationConfirmedV1.STATUS, lines, expiresAt, createdAt, reference,
                    metadata, fulfilment);
            case CANCELLED -> new ReservationCancelledV1(id, ReservationCancelledV1.STATUS, lines, expiresAt, createdAt, reference,
                    metadata);
            case EXPIRED -> new ReservationExpiredV1(id, ReservationExpiredV1.STATUS, lines, expiresAt, createdAt, reference, metadata);
            case CANCELLED_V2 -> new ReservationCancelledV2(id, ReservationCancelledV2.STATUS, lines, expiresAt, createdAt, reference,
                    metadata);
            case EXPIRED_V2 -> new ReservationExpiredV2(id, ReservationExpiredV2.STATUS, lines, expiresAt, createdAt, reference, metadata);
            case EXTENDED -> new ReservationExtendedV1(id, ReservationExtendedV1.STATUS, lines, expiresAt, createdAt, reference,
                    metadata);
            default -> throw new IllegalArgumentException(type + " is not a reservation event");
        };
        return OutboxWriter.DomainEvent.ofReservation(type, id, (Record) data);
    }
}
