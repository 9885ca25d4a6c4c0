package dev.stockhold.inventory;

import java.util.List;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import io.quarkus.runtime.annotations.RegisterForReflection;

/** A location and its allocation priority. */
@Schema(name = "Location")
@RegisterForReflection(ignoreNested = false)
public record Location(@Schema(required = true, example = "WH-2") String location,
        @Schema(required = true, example = "100") int priority) {

    /** GET /v1/locations: every location of the tenant in allocation order. */
    @Schema(name = "LocationList")
    public record Page(@Schema(required = true) List<Location> items) {
    }
}
