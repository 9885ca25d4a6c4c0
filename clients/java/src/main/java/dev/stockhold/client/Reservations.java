package dev.stockhold.client;

import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;

import dev.stockhold.client.model.Availability;
import dev.stockhold.client.model.AvailabilityRequest;
import dev.stockhold.client.model.ExtendRequest;
import dev.stockhold.client.model.Reservation;
import dev.stockhold.client.model.ReservationEdit;
import dev.stockhold.client.model.ReservationList;
import dev.stockhold.client.model.ReservationRequest;
import dev.stockhold.client.model.SettlementRequest;

/** Reservations: make, read, list, edit and end them (role {@code reservations}). */
public final class Reservations {

    private final Calls calls;

    Reservations(Calls calls) {
        this.calls = calls;
    }

    /** Reserves with a key made for this call. See {@link #create(ReservationRequest, String)}. */
    public Answer<Reservation> create(ReservationRequest request) {
        return create(request, null);
    }

    /**
     * Reserves, sending {@code key} (or a new UUID when null) on every attempt. A refusal for stock is
     * {@link Problems.InsufficientStock}, with each line's shortfall as read right after it; a call whose outcome could
     * not be learnt is {@link OutcomeUnknownException}: call again with its key to settle it.
     */
    public Answer<Reservation> create(ReservationRequest request, String key) {
        try {
            return calls.send(Request.of(Operation.RESERVE).key(key).body(request), Reservation.class);
        } catch (Problems.InsufficientStock refused) {
            throw refused.explain(shortfall(request));
        }
    }

    private List<Shortfall> shortfall(ReservationRequest request) {
        try {
            AvailabilityRequest ask = new AvailabilityRequest(request.lines(), request.allocation(), request.channel(), request.backorder());
            Availability availability = calls.send(Request.of(Operation.AVAILABILITY).body(ask), Availability.class).value();
            return availability.lines().stream().filter(line -> !line.reservable()).map(line -> Shortfall.of(line, request.allocation()))
                    .filter(line -> line.missing() > 0).toList();
        } catch (StockholdException unexplained) {
            return List.of();
        }
    }

    /** The reservation now, with its version for {@link #edit}. */
    public Answer<Reservation> get(UUID id) {
        return calls.send(Request.of(Operation.RESERVATION, id.toString()), Reservation.class);
    }

    /** The tenant's reservations, newest first, read page by page as the stream goes. */
    public Stream<Reservation> list(Query filters) {
        return Pages.stream(cursor -> {
            ReservationList page = calls.send(filters.applyTo(Request.of(Operation.RESERVATIONS)).query("cursor", cursor), ReservationList.class).value();
            return new Pages.Page<>(page.items(), page.nextCursor());
        });
    }

    /** Changes the lines of the reservation as it was read: a change since then is {@link Problems.PreconditionFailed}. */
    public Answer<Reservation> edit(Answer<Reservation> read, ReservationEdit edit) {
        return edit(read, edit, null);
    }

    public Answer<Reservation> edit(Answer<Reservation> read, ReservationEdit edit, String key) {
        if (read.etag() == null) {
            throw new IllegalArgumentException("an edit names the version it read: pass the answer of get or of a write");
        }
        return calls.send(Request.of(Operation.EDIT, read.value().id().toString()).key(key).ifMatch(read.etag()).body(edit), Reservation.class);
    }

    public Answer<Reservation> confirm(UUID id) {
        return calls.send(Request.of(Operation.CONFIRM, id.toString()), Reservation.class);
    }

    public Answer<Reservation> cancel(UUID id) {
        return calls.send(Request.of(Operation.CANCEL, id.toString()), Reservation.class);
    }

    /** Holds until now + ttl. Not repeated after a lost answer (a repeat extends again): that is OutcomeUnknown. */
    public Answer<Reservation> extend(UUID id, int ttlSeconds) {
        return calls.send(Request.of(Operation.EXTEND, id.toString()).body(new ExtendRequest(ttlSeconds)), Reservation.class);
    }

    public Answer<Reservation> fulfil(UUID id, SettlementRequest lines) {
        return fulfil(id, lines, null);
    }

    public Answer<Reservation> fulfil(UUID id, SettlementRequest lines, String key) {
        return calls.send(Request.of(Operation.FULFIL, id.toString()).key(key).body(lines), Reservation.class);
    }

    public Answer<Reservation> release(UUID id, SettlementRequest lines) {
        return release(id, lines, null);
    }

    public Answer<Reservation> release(UUID id, SettlementRequest lines, String key) {
        return calls.send(Request.of(Operation.RELEASE, id.toString()).key(key).body(lines), Reservation.class);
    }

    /** Where a reservation made now would be placed, from one read that writes nothing. */
    public Availability availability(AvailabilityRequest request) {
        return calls.send(Request.of(Operation.AVAILABILITY).body(request), Availability.class).value();
    }
}
