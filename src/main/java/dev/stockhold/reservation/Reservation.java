package dev.stockhold.reservation;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.UUID;

import jakarta.persistence.CollectionTable;
import jakarta.persistence.Column;
import jakarta.persistence.ElementCollection;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.OrderColumn;
import jakarta.persistence.Table;

import dev.stockhold.inventory.StockKey;

/** A reservation of one tenant. Inserted by SQL in {@link ReservationRepository#insertHeldAll}; read and transitioned here. */
@Entity
@Table(name = "reservations")
public class Reservation {

    @Id
    public UUID id;

    @Column(name = "tenant_id")
    public String tenantId;

    @Enumerated(EnumType.STRING)
    public ReservationStatus status;

    @Column(name = "idempotency_key")
    public String idempotencyKey;

    @Column(name = "created_at")
    public Instant createdAt;

    @Column(name = "expires_at")
    public Instant expiresAt;

    @Column(name = "updated_at")
    public Instant updatedAt;

    public String reference;

    /** A JSON object of strings, as the client gave it (see ReservationView). */
    public String metadata;

    @ElementCollection
    @CollectionTable(name = "reservation_lines", joinColumns = @JoinColumn(name = "reservation_id"))
    @OrderColumn(name = "line_no")
    public List<ReservationLine> lines = new ArrayList<>();

    /** Rises by one on every change of the reservation: its ETag, which PATCH compares with If-Match. */
    public long version;

    /** "deferred": the confirm commits the units and fulfilments take them; null: the confirm sells them at once. */
    @Column(name = "fulfilment", updatable = false)
    public String fulfilment;

    /** "split" or "partial" when the request asked for it; null: whole (or the lines were replaced by an edit since). */
    public String allocation;

    /** The lines a split or partial request asked for (JSON); null when the reservation's lines are shown as they are held. */
    @Column(name = "requested_lines")
    public String requestedLines;

    /** When this release ended the hold (and moved the stock itself); see V7's reservations_carry_over. */
    /** The channel the request was allocated through; null when it named none. */
    @Column(updatable = false)
    public String channel;

    /** Backordered units not allocated yet; written only by {@code Backorders}, under this row's lock. */
    @Column(insertable = false, updatable = false)
    public long awaiting;

    /** What each backordered line waits for (JSON), or null; written only by {@code Backorders}. */
    @Column(insertable = false, updatable = false)
    public String backorders;

    @Column(name = "status_changed_at")
    public Instant statusChangedAt;

    /** Quantities per stock record, in the order every stock update locks them. */
    public SortedMap<StockKey, Long> quantities() {
        SortedMap<StockKey, Long> byKey = new TreeMap<>();
        lines.forEach(line -> byKey.merge(StockKey.of(line.sku, line.location), (long) line.quantity, Long::sum));
        return byKey;
    }

    public boolean isDeferred() {
        return Fulfilment.DEFERRED.wire().equals(fulfilment);
    }

    public boolean isPastExpiry(Instant now) {
        return !now.isBefore(expiresAt);
    }

    public void extendTo(Instant until, Instant now) {
        expiresAt = until;
        touch(now);
    }

    public void transitionTo(ReservationStatus next, Instant now) {
        status = next;
        statusChangedAt = now;
        touch(now);
    }

    /** Any change of the reservation: a new version. */
    public void touch(Instant now) {
        updatedAt = now;
        version++;
    }

    /** The strong entity tag of this version, as ETag and If-Match carry it. */
    public String etag() {
        return "\"" + version + "\"";
    }
}
