package dev.stockhold.reservation;

import java.util.List;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.stockhold.inventory.Sku;
import io.quarkus.runtime.annotations.RegisterForReflection;

/** Body of POST /v1/availability: the lines and allocation of a reservation the caller may make. */
@Schema(name = "AvailabilityRequest")
@RegisterForReflection
public record AvailabilityRequest(
        @Schema(required = true, minItems = 1, maxItems = 100,
                description = "The lines of the reservation to try, with the same rules as on create") @NotNull @Size(min = 1,
                        max = 100) List<ReservationRequest.@Valid @NotNull Line> lines,
        @Schema(enumeration = {
                "whole", "split", "partial" },
                description = "The allocation the reservation would ask for; default whole") @Pattern(regexp = "whole|split|partial",
                        message = "must be \"whole\", \"split\" or \"partial\"") String allocation,
        @Schema(pattern = Sku.REGEX, example = "b2b",
                description = "Place and count only at this channel's locations, in its order; absent: every location") @Pattern(
                        regexp = Sku.REGEX, message = Sku.RULE) String channel,
        @Schema(enumeration = { "allow", "deny" },
                description = "allow: the dry run of a backorder reservation; each line shows what it would be promised from incoming "
                        + "supply and what is available to promise by date") @Pattern(regexp = "allow|deny",
                                message = "must be \"allow\" or \"deny\"") String backorder){

    /** The lines checked as a new reservation's are. Call after Bean Validation passed. */
    public AvailabilityRequest requireDistinctSkus() {
        asReservation().requireDistinctSkus().requireBackorderAllocation();
        return this;
    }

    /** The reservation request these lines and this allocation make. */
    ReservationRequest asReservation() {
        return new ReservationRequest(lines, null, null, null, null, allocation, channel, backorder);
    }
}
