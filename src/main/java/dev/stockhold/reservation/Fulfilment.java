package dev.stockhold.reservation;

import com.fasterxml.jackson.annotation.JsonValue;

/**
 * When a confirmed reservation's units leave on hand: at the confirm ({@code immediate}, the default) or by later
 * fulfilments ({@code deferred}: the confirm moves them from held to committed).
 */
public enum Fulfilment {
    IMMEDIATE("immediate"),
    DEFERRED("deferred");

    private final String wire;

    Fulfilment(String wire) {
        this.wire = wire;
    }

    @JsonValue
    public String wire() {
        return wire;
    }
}
