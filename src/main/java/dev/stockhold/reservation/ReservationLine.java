package dev.stockhold.reservation;

import jakarta.persistence.Column;
import jakarta.persistence.Embeddable;

/** One sku and quantity held by a reservation. */
@Embeddable
public class ReservationLine {

    @Column(name = "sku")
    public String sku;

    @Column(name = "quantity")
    public int quantity;
}
