package dev.stockhold.reservation;

import jakarta.persistence.Column;
import jakarta.persistence.Embeddable;

import dev.stockhold.inventory.StockKey;

/** One sku and quantity held by a reservation. */
@Embeddable
public class ReservationLine {

    @Column(name = "sku")
    public String sku;

    @Column(name = "quantity")
    public int quantity;

    /** Null on lines the previous release wrote: those are held at the default location. */
    @Column(name = "location")
    public String location;

    /** Units of a deferred reservation's line fulfilled; written by SQL only (ReservationRepository#settle). */
    @Column(name = "fulfilled", insertable = false, updatable = false)
    public int fulfilled;

    /** Units of a deferred reservation's line released; written by SQL only (ReservationRepository#settle). */
    @Column(name = "released", insertable = false, updatable = false)
    public int released;

    /** Units still committed, once a deferred reservation is confirmed. */
    public int committed() {
        return quantity - fulfilled - released;
    }

    public String location() {
        return StockKey.of(sku, location).location();
    }
}
