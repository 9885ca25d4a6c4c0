package dev.stockhold.inventory;

import java.time.Instant;
import java.util.List;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import io.quarkus.runtime.annotations.RegisterForReflection;

/** The answer of POST /v1/locations/{location}/snapshots: what the count did to each record. */
@Schema(name = "Snapshot")
@RegisterForReflection(ignoreNested = false)
public record SnapshotView(@Schema(required = true, example = "WH-1") String location,
        @Schema(required = true, description = "When the count was taken (ISO-8601 UTC)") Instant asOf,
        @Schema(required = true, enumeration = {
                "partial", "full" }) String mode,
        @Schema(required = true, description = "Every record the count covered, sku order") List<Result> records){

    /** What happened to one record. */
    @Schema(name = "SnapshotResult")
    public record Result(@Schema(required = true, example = "A-1") String sku,
            @Schema(required = true, enumeration = {
                    "applied", "stale", "below-held", "kept" },
                    description = "applied: on hand is the count plus what changed since asOf; stale: a count as new or newer "
                            + "was applied already; below-held: that would be below held + committed; kept: a full count did "
                            + "not list this record and it has held or committed units. Only applied changes anything") String status,
            @Schema(required = true, description = "Units counted (0 for a record a full count did not list)") long counted,
            @Schema(required = true, description = "On hand before") long before,
            @Schema(required = true, description = "On hand after") long after,
            @Schema(required = true, description = "after - before: what the count corrected") long drift){
    }
}
