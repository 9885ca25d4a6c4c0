package dev.stockhold.reservation;

import java.util.List;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import com.fasterxml.jackson.annotation.JsonInclude;

import io.quarkus.runtime.annotations.RegisterForReflection;

/** A page of GET /v1/reservations. */
@Schema(name = "ReservationList")
@RegisterForReflection
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ReservationList(
        @Schema(required = true, description = "Newest first") List<ReservationView> items,
        @Schema(description = "Opaque; pass it as cursor, with the same filters, for the next page. Absent on the last page.") String nextCursor) {
}
