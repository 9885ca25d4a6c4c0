package dev.stockhold.reservation;

import com.fasterxml.jackson.annotation.JsonValue;

/**
 * How the lines of a request without a location are served: whole by one location ({@code whole}, the default), across
 * locations in allocation order ({@code split}), or as far as stock goes ({@code partial}: split, and a line may get
 * less than it asked for).
 */
public enum AllocationMode {
    WHOLE("whole"),
    SPLIT("split"),
    PARTIAL("partial");

    private final String wire;

    AllocationMode(String wire) {
        this.wire = wire;
    }

    @JsonValue
    public String wire() {
        return wire;
    }

    /** The mode a request names; absent is whole. */
    static AllocationMode of(String wire) {
        for (AllocationMode mode : values()) {
            if (mode.wire.equals(wire)) {
                return mode;
            }
        }
        return WHOLE;
    }
}
