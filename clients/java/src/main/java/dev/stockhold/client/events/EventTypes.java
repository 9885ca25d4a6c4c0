package dev.stockhold.client.events;

import java.util.Map;
import java.util.Optional;

import dev.stockhold.client.events.data.ReservationAllocatedV1;
import dev.stockhold.client.events.data.ReservationCancelledV1;
import dev.stockhold.client.events.data.ReservationCancelledV2;
import dev.stockhold.client.events.data.ReservationConfirmedV1;
import dev.stockhold.client.events.data.ReservationCreatedV1;
import dev.stockhold.client.events.data.ReservationCreatedV2;
import dev.stockhold.client.events.data.ReservationExpiredV1;
import dev.stockhold.client.events.data.ReservationExpiredV2;
import dev.stockhold.client.events.data.ReservationExtendedV1;
import dev.stockhold.client.events.data.ReservationFulfilledV1;
import dev.stockhold.client.events.data.ReservationReleasedV1;
import dev.stockhold.client.events.data.ReservationRepromisedV1;
import dev.stockhold.client.events.data.ReservationUnpromisedV1;
import dev.stockhold.client.events.data.ReservationUpdatedV1;
import dev.stockhold.client.events.data.StockChangedV1;
import dev.stockhold.client.events.data.StockDepletedV1;
import dev.stockhold.client.events.data.StockLowV1;
import dev.stockhold.client.events.data.StockReplenishedV1;
import dev.stockhold.client.events.data.TransferCancelledV1;
import dev.stockhold.client.events.data.TransferReceivedV1;
import dev.stockhold.client.events.data.TransferShippedV1;

/** Every event type Stockhold publishes, with its payload record. ClientModelTest holds it equal to the service's list. */
public final class EventTypes {

    private static final String PREFIX = "dev.stockhold.";
    private static final Map<String, Class<? extends Record>> DATA = Map.ofEntries(
            Map.entry(PREFIX + "reservation.created.v1", ReservationCreatedV1.class),
            Map.entry(PREFIX + "reservation.confirmed.v1", ReservationConfirmedV1.class),
            Map.entry(PREFIX + "reservation.cancelled.v1", ReservationCancelledV1.class),
            Map.entry(PREFIX + "reservation.expired.v1", ReservationExpiredV1.class),
            Map.entry(PREFIX + "reservation.extended.v1", ReservationExtendedV1.class),
            Map.entry(PREFIX + "reservation.updated.v1", ReservationUpdatedV1.class),
            Map.entry(PREFIX + "reservation.fulfilled.v1", ReservationFulfilledV1.class),
            Map.entry(PREFIX + "reservation.released.v1", ReservationReleasedV1.class),
            Map.entry(PREFIX + "reservation.allocated.v1", ReservationAllocatedV1.class),
            Map.entry(PREFIX + "reservation.repromised.v1", ReservationRepromisedV1.class),
            Map.entry(PREFIX + "reservation.unpromised.v1", ReservationUnpromisedV1.class),
            Map.entry(PREFIX + "reservation.created.v2", ReservationCreatedV2.class),
            Map.entry(PREFIX + "reservation.cancelled.v2", ReservationCancelledV2.class),
            Map.entry(PREFIX + "reservation.expired.v2", ReservationExpiredV2.class),
            Map.entry(PREFIX + "stock.changed.v1", StockChangedV1.class),
            Map.entry(PREFIX + "stock.depleted.v1", StockDepletedV1.class),
            Map.entry(PREFIX + "stock.replenished.v1", StockReplenishedV1.class),
            Map.entry(PREFIX + "stock.low.v1", StockLowV1.class),
            Map.entry(PREFIX + "transfer.shipped.v1", TransferShippedV1.class),
            Map.entry(PREFIX + "transfer.received.v1", TransferReceivedV1.class),
            Map.entry(PREFIX + "transfer.cancelled.v1", TransferCancelledV1.class));

    private EventTypes() {
    }

    /** The payload record of a type, or empty for a type this client does not know (a newer one). */
    public static Optional<Class<? extends Record>> dataOf(String type) {
        return Optional.ofNullable(DATA.get(type));
    }

    /** Every type this client knows. */
    public static java.util.Set<String> known() {
        return DATA.keySet();
    }
}
