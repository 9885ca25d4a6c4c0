package dev.stockhold.inventory;

import java.util.List;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import io.quarkus.runtime.annotations.RegisterForReflection;

/** A location, its allocation priority and the defaults its records take. */
@Schema(name = "Location")
@RegisterForReflection(ignoreNested = false)
public record Location(@Schema(required = true, example = "WH-2") String location,
        @Schema(required = true, example = "100") int priority,
        @Schema(required = true, example = "0",
                description = "Safety stock of the location's records that have none of their own") long safetyStock,
        @Schema(required = true, example = "0",
                description = "Low-stock threshold of the location's records that have none of their own; 0: never low") long lowStockThreshold) {

    /** GET /v1/locations: every location of the tenant in allocation order. */
    @Schema(name = "LocationList")
    public record Page(@Schema(required = true) List<Location> items) {
    }
}
