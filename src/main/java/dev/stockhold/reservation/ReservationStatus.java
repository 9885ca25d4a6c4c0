package dev.stockhold.reservation;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import dev.stockhold.events.EventType;

/**
 * The reservation lifecycle, written once: the statuses, and in {@link Action} which action is allowed from which
 * status and the status it leads to. HELD until exactly one of confirm, cancel or expire wins, each writing the event
 * named here. A reservation with deferred fulfilment goes on from CONFIRMED (its units committed) to
 * PARTIALLY_FULFILLED and FULFILLED (no unit left committed) by fulfilments and releases. The guards, the lists of
 * statuses (the OpenAPI enum, the auditor's queries) and docs/api.md read this table; {@code ReservationRulesTest} holds
 * the database's constraint, triggers and partial indexes to it. The service writes events by {@link #entered()}; the
 * chaos checker checks every reservation's events against {@link #history()}.
 */
public enum ReservationStatus {
    HELD(EventType.CREATED),
    CONFIRMED(EventType.CONFIRMED),
    CANCELLED(EventType.CANCELLED),
    EXPIRED(EventType.EXPIRED),
    PARTIALLY_FULFILLED(EventType.FULFILLED),
    FULFILLED(EventType.FULFILLED);

    /**
     * What can be done to a reservation: from which statuses ({@link #from}), to which ({@link #to}; null where the
     * units left committed decide), and in which statuses the action is already done, so a repeat answers the
     * reservation as it is ({@link #done}). Any other status refuses with invalid-reservation-state.
     */
    public enum Action {
        CONFIRM("confirmed", EnumSet.of(HELD), CONFIRMED, EnumSet.of(CONFIRMED, PARTIALLY_FULFILLED, FULFILLED)),
        CANCEL("cancelled", EnumSet.of(HELD), CANCELLED, EnumSet.of(CANCELLED)),
        EXPIRE("expired", EnumSet.of(HELD), EXPIRED, EnumSet.noneOf(ReservationStatus.class)),
        EXTEND("extended", EnumSet.of(HELD), HELD, EnumSet.noneOf(ReservationStatus.class)),
        EDIT("changed", EnumSet.of(HELD), HELD, EnumSet.noneOf(ReservationStatus.class)),
        /** Only with deferred fulfilment; leads to PARTIALLY_FULFILLED or FULFILLED by the units left committed. */
        FULFIL("fulfilled", EnumSet.of(CONFIRMED, PARTIALLY_FULFILLED, FULFILLED), null, EnumSet.noneOf(ReservationStatus.class)),
        /** Only with deferred fulfilment; leads to CONFIRMED, PARTIALLY_FULFILLED or FULFILLED by the units left. */
        RELEASE("released", EnumSet.of(CONFIRMED, PARTIALLY_FULFILLED, FULFILLED), null, EnumSet.noneOf(ReservationStatus.class));

        private final String verb;
        private final Set<ReservationStatus> from;
        private final ReservationStatus to;
        private final Set<ReservationStatus> done;

        Action(String verb, Set<ReservationStatus> from, ReservationStatus to, Set<ReservationStatus> done) {
            this.verb = verb;
            this.from = from;
            this.to = to;
            this.done = done;
        }

        public boolean allows(ReservationStatus status) {
            return from.contains(status);
        }

        /** Whether a reservation in this status has had the action already: a repeat answers it as it is. */
        public boolean done(ReservationStatus status) {
            return done.contains(status);
        }

        public Set<ReservationStatus> from() {
            return from;
        }

        /** The status the action leads to; null where the units left committed decide. */
        public ReservationStatus to() {
            return to;
        }

        /** The refusal's detail for a reservation in {@code status}, naming the statuses that allow the action. */
        public String refusal(ReservationStatus status) {
            return "Reservation is " + status + "; only a " + from.stream().map(Enum::name).collect(Collectors.joining(" or "))
                    + " reservation can be " + verb;
        }
    }

    private final EventType entered;

    ReservationStatus(EventType entered) {
        this.entered = entered;
    }

    /** Confirmed: sold at once, or with deferred fulfilment committed and then fulfilled or released. */
    public boolean isConfirmed() {
        return Action.CONFIRM.done(this);
    }

    /** The event the change into this status writes (FULFILLED: the fulfilment's or release's own event). */
    public EventType entered() {
        return entered;
    }

    /** The statuses whose reservations hold units (held on their records): those an edit or a cancel may start from. */
    public static Set<ReservationStatus> holding() {
        return Action.CANCEL.from();
    }

    /** The statuses in which a reservation with deferred fulfilment may still have committed units. */
    public static Set<ReservationStatus> committing() {
        return EnumSet.of(CONFIRMED, PARTIALLY_FULFILLED);
    }

    /** A SQL condition that {@code column} is one of {@code statuses}: {@code = 'HELD'} for one, {@code IN (...)} for more. */
    public static String sqlIn(String column, Set<ReservationStatus> statuses) {
        List<String> names = statuses.stream().sorted().map(s -> "'" + s.name() + "'").toList();
        return column + (names.size() == 1 ? " = " + names.get(0) : " IN (" + String.join(", ", names) + ")");
    }

    /** Every status by name, for messages: {@code HELD, CONFIRMED, ...}. */
    public static String names() {
        return Arrays.stream(values()).map(Enum::name).collect(Collectors.joining(", "));
    }

    /**
     * The events of a reservation in this status, in order, leaving out those that may come any number of times in
     * between: extends and edits while HELD, fulfilments and releases after a deferred confirm.
     */
    public List<EventType> history() {
        return switch (this) {
            case HELD -> List.of(EventType.CREATED);
            case CONFIRMED, PARTIALLY_FULFILLED, FULFILLED -> List.of(EventType.CREATED, EventType.CONFIRMED);
            case CANCELLED -> List.of(EventType.CREATED, EventType.CANCELLED);
            case EXPIRED -> List.of(EventType.CREATED, EventType.EXPIRED);
        };
    }
}
