package dev.stockhold.events;

/**
 * What an event is about, and so how it is ordered and routed: every event of one aggregate has one partition key
 * (the Kafka key), goes to its aggregate type's Kafka topic, and carries a CloudEvents {@code sequence} contiguous per
 * aggregate from 1.
 */
public enum AggregateType {
    /** One reservation; partition key its id. Its created event is sequence 1. */
    RESERVATION(1),
    /** One stock record (tenant, sku, location); partition key {@code tenant/sku/location}. */
    STOCK_RECORD(0),
    /** One transfer; partition key its id. Its shipped event is sequence 1. */
    TRANSFER(0);

    private final int sequencesWithoutCounter;

    AggregateType(int sequencesWithoutCounter) {
        this.sequencesWithoutCounter = sequencesWithoutCounter;
    }

    /**
     * How many of an aggregate's first events take their sequence without a counter row: a reservation's created event
     * opens it as sequence 1 (the hot path writes no counter); the counter of its later events starts after it.
     */
    public int sequencesWithoutCounter() {
        return sequencesWithoutCounter;
    }
}
