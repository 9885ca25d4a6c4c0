package dev.stockhold.outbox;

/** The reservation and stock events (docs/api.md), with their CloudEvents type and RabbitMQ routing key. */
public enum EventType {
    CREATED("dev.stockhold.reservation.created.v1", "reservation.created"),
    CONFIRMED("dev.stockhold.reservation.confirmed.v1", "reservation.confirmed"),
    CANCELLED("dev.stockhold.reservation.cancelled.v1", "reservation.cancelled"),
    EXPIRED("dev.stockhold.reservation.expired.v1", "reservation.expired"),
    EXTENDED("dev.stockhold.reservation.extended.v1", "reservation.extended"),
    STOCK_CHANGED("dev.stockhold.stock.changed.v1", "stock.changed"),
    STOCK_DEPLETED("dev.stockhold.stock.depleted.v1", "stock.depleted"),
    STOCK_REPLENISHED("dev.stockhold.stock.replenished.v1", "stock.replenished");

    private final String type;
    private final String routingKey;

    EventType(String type, String routingKey) {
        this.type = type;
        this.routingKey = routingKey;
    }

    public String type() {
        return type;
    }

    /** Stock events order per stock record, reservation events per reservation. */
    public boolean isStock() {
        return routingKey.startsWith("stock.");
    }

    public String routingKey() {
        return routingKey;
    }

    public static java.util.Optional<EventType> ofType(String type) {
        for (EventType candidate : values()) {
            if (candidate.type.equals(type)) {
                return java.util.Optional.of(candidate);
            }
        }
        return java.util.Optional.empty();
    }
}
