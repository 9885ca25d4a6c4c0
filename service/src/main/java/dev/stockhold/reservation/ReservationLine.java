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

    public String location() {
        return StockKey.of(sku, location).location();
    }
}
