package dev.stockhold.events;

import java.util.Optional;

/**
 * Every event Stockhold publishes, one constant per type and version: its CloudEvents {@code type}, its RabbitMQ routing
 * key, the aggregate it belongs to (which picks its Kafka topic and key) and its payload record. The schema of each is
 * {@code /schemas/events/{type}.json} (docs/events.md).
 */
public enum EventType {
    CREATED("dev.stockhold.reservation.created.v1", "reservation.created", AggregateType.RESERVATION, ReservationCreatedV1.class),
    CONFIRMED("dev.stockhold.reservation.confirmed.v1", "reservation.confirmed", AggregateType.RESERVATION,
            ReservationConfirmedV1.class),
    CANCELLED("dev.stockhold.reservation.cancelled.v1", "reservation.cancelled", AggregateType.RESERVATION,
            ReservationCancelledV1.class),
    EXPIRED("dev.stockhold.reservation.expired.v1", "reservation.expired", AggregateType.RESERVATION, ReservationExpiredV1.class),
    EXTENDED("dev.stockhold.reservation.extended.v1", "reservation.extended", AggregateType.RESERVATION,
            ReservationExtendedV1.class),
    UPDATED("dev.stockhold.reservation.updated.v1", "reservation.updated", AggregateType.RESERVATION, ReservationUpdatedV1.class),
    FULFILLED("dev.stockhold.reservation.fulfilled.v1", "reservation.fulfilled", AggregateType.RESERVATION,
            ReservationFulfilledV1.class),
    RELEASED("dev.stockhold.reservation.released.v1", "reservation.released", AggregateType.RESERVATION,
            ReservationReleasedV1.class),
    ALLOCATED("dev.stockhold.reservation.allocated.v1", "reservation.allocated", AggregateType.RESERVATION,
            ReservationAllocatedV1.class),
    REPROMISED("dev.stockhold.reservation.repromised.v1", "reservation.repromised", AggregateType.RESERVATION,
            ReservationRepromisedV1.class),
    UNPROMISED("dev.stockhold.reservation.unpromised.v1", "reservation.unpromised", AggregateType.RESERVATION,
            ReservationUnpromisedV1.class),
    STOCK_CHANGED("dev.stockhold.stock.changed.v1", "stock.changed", AggregateType.STOCK_RECORD, StockChangedV1.class),
    STOCK_DEPLETED("dev.stockhold.stock.depleted.v1", "stock.depleted", AggregateType.STOCK_RECORD, StockDepletedV1.class),
    STOCK_REPLENISHED("dev.stockhold.stock.replenished.v1", "stock.replenished", AggregateType.STOCK_RECORD,
            StockReplenishedV1.class),
    STOCK_LOW("dev.stockhold.stock.low.v1", "stock.low", AggregateType.STOCK_RECORD, StockLowV1.class),
    /** A reservation that holds no units yet (every unit backordered) is created with this version: its lines are empty. */
    CREATED_V2("dev.stockhold.reservation.created.v2", "reservation.created", AggregateType.RESERVATION, ReservationCreatedV2.class),
    /** A reservation cancelled while it held no units. */
    CANCELLED_V2("dev.stockhold.reservation.cancelled.v2", "reservation.cancelled", AggregateType.RESERVATION,
            ReservationCancelledV2.class),
    /** A reservation expired while it held no units. */
    EXPIRED_V2("dev.stockhold.reservation.expired.v2", "reservation.expired", AggregateType.RESERVATION, ReservationExpiredV2.class),
    TRANSFER_SHIPPED("dev.stockhold.transfer.shipped.v1", "transfer.shipped", AggregateType.TRANSFER, TransferShippedV1.class),
    TRANSFER_RECEIVED("dev.stockhold.transfer.received.v1", "transfer.received", AggregateType.TRANSFER, TransferReceivedV1.class),
    TRANSFER_CANCELLED("dev.stockhold.transfer.cancelled.v1", "transfer.cancelled", AggregateType.TRANSFER, TransferCancelledV1.class);

    private static final String PREFIX = "dev.stockhold.";

    private final String type;
    private final String routingKey;
    private final AggregateType aggregateType;
    private final Class<? extends Record> data;

    EventType(String type, String routingKey, AggregateType aggregateType, Class<? extends Record> data) {
        this.type = type;
        this.routingKey = routingKey;
        this.aggregateType = aggregateType;
        this.data = data;
    }

    /** The CloudEvents {@code type}, ending in its version. */
    public String type() {
        return type;
    }

    /** The type without the {@code dev.stockhold.} prefix, e.g. {@code reservation.created.v1}. */
    public String shortName() {
        return type.substring(PREFIX.length());
    }

    public String routingKey() {
        return routingKey;
    }

    public AggregateType aggregateType() {
        return aggregateType;
    }

    /** The payload record of this type and version. */
    public Class<? extends Record> data() {
        return data;
    }

    /** The event that opens its aggregate: sequence 1, with no counter row. */
    public boolean opensAggregate() {
        return this == CREATED || this == CREATED_V2;
    }

    /** By CloudEvents type ({@code dev.stockhold.reservation.created.v1}) or short name ({@code reservation.created.v1}). */
    public static Optional<EventType> ofType(String type) {
        for (EventType candidate : values()) {
            if (candidate.type.equals(type) || candidate.shortName().equals(type)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }
}
