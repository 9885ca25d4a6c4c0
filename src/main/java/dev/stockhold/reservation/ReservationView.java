package dev.stockhold.reservation;

import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** The reservation body of contract §5: API responses and event data. */
@Schema(name = "Reservation")
@RegisterForReflection(ignoreNested = false)
public record ReservationView(
        UUID id,
        @Schema(enumeration = { "HELD", "CONFIRMED", "CANCELLED", "EXPIRED" }) ReservationStatus status,
        List<Line> lines,
        @Schema(description = "ISO-8601 UTC") Instant expiresAt,
        @Schema(description = "ISO-8601 UTC") Instant createdAt) {

    public static ReservationView of(Reservation r) {
        return new ReservationView(r.id, r.status,
                r.lines.stream().map(l -> new Line(l.sku, l.quantity)).toList(), r.expiresAt, r.createdAt);
    }

    public String location() {
        return "/v1/reservations/" + id;
    }

    /** One reserved sku and quantity. */
    @Schema(name = "ReservationLine")
    public record Line(@Schema(example = "A-1") String sku, @Schema(example = "2") int quantity) {
    }
}
