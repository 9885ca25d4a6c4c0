package dev.stockhold.reservation;

import java.time.Instant;
import java.util.List;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import com.fasterxml.jackson.annotation.JsonInclude;

import dev.stockhold.inventory.Promisable;
import io.quarkus.runtime.annotations.RegisterForReflection;

/** The answer of POST /v1/availability: what each line has available where, and where a reservation made now would go. */
@Schema(name = "Availability")
@RegisterForReflection(ignoreNested = false)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record AvailabilityView(
        @Schema(required = true, description = "Whether POST /v1/reservations with these lines would be placed now") boolean reservable,
        @Schema(required = true, enumeration = {
                "whole", "split", "partial" }) String allocation,
        @Schema(required = true) List<Line> lines,
        @Schema(example = "b2b", description = "The channel the request named: only its locations count, in its order") String channel){

    /** One asked-for line. */
    @Schema(name = "AvailabilityLine")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Line(@Schema(required = true, example = "A-1") String sku,
            @Schema(required = true, example = "2", description = "Units asked for") int quantity,
            @Schema(example = "WH-2", description = "The location the line names, when it names one") String location,
            @Schema(required = true, description = "Whether this line would be served as asked (partial: in full)") boolean reservable,
            @Schema(required = true,
                    description = "Available units at each location that may serve the line, in allocation order; empty for an unknown sku") List<Stock> available,
            @Schema(required = true,
                    description = "Where a reservation made now would take the units; empty when it would not serve the line") List<ReservationView.Allocated> placement,
            @Schema(description = "Partial allocation: units the line would not get", minimum = "0") Integer shortfall,
            @Schema(description = "Backorder: units the line would be promised from incoming supply", minimum = "1") Integer backordered,
            @Schema(description = "Backorder: when the last supply those units wait for is expected") Instant promisedAt,
            @Schema(description = "Backorder: what could be promised to the line now and by each expected date, cumulative") List<Promisable> availableToPromise) {

        Line(String sku, int quantity, String location, boolean reservable, List<Stock> available,
                List<ReservationView.Allocated> placement,
                Integer shortfall) {
            this(sku, quantity, location, reservable, available, placement, shortfall, null, null, null);
        }
    }

    /** Available units at one location. */
    @Schema(name = "AvailabilityStock")
    public record Stock(@Schema(required = true, example = "WH-1") String location,
            @Schema(required = true, example = "7", description = "onHand - held - committed") long available) {
    }
}
