package dev.stockhold.reservation;

import java.util.Comparator;
import java.util.List;
import java.util.UUID;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.stockhold.idempotency.Fingerprint;
import dev.stockhold.inventory.IfMatch;
import io.quarkus.runtime.annotations.RegisterForReflection;

/** Body of PATCH /v1/reservations/{id}: the lines the HELD reservation should hold from now on. */
@Schema(name = "ReservationEdit")
@RegisterForReflection
public record ReservationEdit(
        @Schema(required = true, minItems = 1, maxItems = 100,
                description = "Replace the reservation's lines: same rules as on create; a line without a location keeps "
                        + "the location the reservation holds the sku at") @NotNull @Size(min = 1,
                                max = 100) List<ReservationRequest.@Valid @NotNull Line> lines) {

    /** The lines checked as a new reservation's are. Call after Bean Validation passed. */
    public ReservationEdit requireDistinctSkus() {
        new ReservationRequest(lines, null, null, null, null, null, null, null).requireDistinctSkus();
        return this;
    }

    /** The route, the version it was based on and the lines: line order and whitespace do not count. */
    public Fingerprint fingerprint(UUID reservation, IfMatch ifMatch) {
        StringBuilder canonical = new StringBuilder("patch;").append(reservation).append(";if-match=").append(ifMatch.canonical());
        lines.stream().sorted(Comparator.comparing(ReservationRequest.Line::sku).thenComparing(l -> String.valueOf(l.location())))
                .forEach(line -> canonical.append(';').append(line.sku()).append(line.location() == null ? "" : "@" + line.location())
                        .append('=').append(line.quantity()));
        return Fingerprint.of(canonical.toString());
    }
}
