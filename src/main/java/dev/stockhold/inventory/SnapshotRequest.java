package dev.stockhold.inventory;

import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.stockhold.idempotency.Fingerprint;
import dev.stockhold.web.Params;
import dev.stockhold.web.ValidationFailedException;
import io.quarkus.runtime.annotations.RegisterForReflection;

/** Body of POST /v1/locations/{location}/snapshots: what a warehouse counted at one location at one time. */
@Schema(name = "SnapshotRequest")
@RegisterForReflection(ignoreNested = false)
public record SnapshotRequest(
        @Schema(format = "date-time", example = "2026-12-01T10:00:00Z",
                description = "When the count was taken (RFC 3339): changes Stockhold recorded after it are applied on top. "
                        + "Exactly one of asOf and asOfCursor") String asOf,
        @Schema(description = "The watermark of a movements page read (GET .../stock/{location}/movements) before the count: "
                + "changes the ledger recorded after it are applied on top. Exactly one of asOf and asOfCursor") @Size(
                        max = 1024) String asOfCursor,
        @Schema(enumeration = {
                "partial", "full" },
                description = "partial (default): only the records listed; full: also the location's records not listed are counted as 0") @Pattern(
                        regexp = "partial|full", message = "must be \"partial\" or \"full\"") String mode,
        @Schema(required = true, minItems = 1, maxItems = 1000, description = "Distinct skus with the units counted") @NotNull @Size(
                min = 1, max = 1000) List<@Valid @NotNull Count> records){

    /** One sku's count at the location. */
    @Schema(name = "SnapshotCount")
    public record Count(
            @Schema(required = true, pattern = Sku.REGEX, example = "A-1") @NotNull @Pattern(regexp = Sku.REGEX,
                    message = Sku.RULE) String sku,
            @Schema(required = true, minimum = "0", maximum = "1000000000", example = "10",
                    description = "Units on the shelf at asOf") @NotNull @Min(0) @Max(1_000_000_000) Long onHand) {
    }

    /** Whether records of the location that the snapshot does not list are counted as 0. */
    public boolean full() {
        return "full".equals(mode);
    }

    /** When the count was taken, given as asOf. Call after {@link #requireValid()}. */
    public Instant countedAt() {
        return Params.instant("asOf", asOf);
    }

    /** Exactly one of asOf and asOfCursor, asOf a date-time, and the skus distinct. Call after Bean Validation passed. */
    public SnapshotRequest requireValid() {
        if ((asOf == null) == (asOfCursor == null)) {
            throw new ValidationFailedException(asOf == null ? "asOf" : "asOfCursor", "give exactly one of asOf and asOfCursor");
        }
        if (asOf != null) {
            countedAt();
        }
        Map<String, Integer> first = new HashMap<>();
        for (int i = 0; i < records.size(); i++) {
            Integer earlier = first.putIfAbsent(records.get(i).sku(), i);
            if (earlier != null) {
                throw new ValidationFailedException("records[" + i + "].sku", "repeats the sku of records[" + earlier + "]");
            }
        }
        return this;
    }

    /** The counts in sku order: the order their records are locked in. */
    public List<Count> inLockOrder() {
        return records.stream().sorted(Comparator.comparing(Count::sku)).toList();
    }

    /** The route, the location, the time, the mode and every count, whatever their order in the body. */
    public Fingerprint fingerprint(String location, Instant countedAt) {
        StringBuilder canonical = new StringBuilder("snapshot;").append(location.length()).append(':').append(location).append(";asOf=")
                .append(countedAt).append(";full=").append(full());
        inLockOrder().forEach(c -> canonical.append(';').append(c.sku()).append('=').append(c.onHand()));
        return Fingerprint.of(canonical.toString());
    }
}
