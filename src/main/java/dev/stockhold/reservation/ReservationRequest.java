package dev.stockhold.reservation;

import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.stockhold.idempotency.Fingerprint;
import dev.stockhold.inventory.Sku;
import dev.stockhold.web.ValidationFailedException;

/** Body of POST /v1/reservations. */
@Schema(name = "ReservationRequest")
@RegisterForReflection(ignoreNested = false)
public record ReservationRequest(
        @Schema(required = true, minItems = 1, maxItems = 100, description = "Distinct skus")
        @NotNull @Size(min = 1, max = 100) List<@Valid @NotNull Line> lines,
        @Schema(minimum = "1", maximum = "86400", description = "Hold time; default stockhold.reservations.default-ttl-seconds (900)")
        @Min(1) @Max(86_400) Integer ttlSeconds,
        @Schema(minLength = 1, maxLength = 128, description = "The client's order or cart id", example = "order-1093")
        @Size(min = 1, max = 128) String reference,
        @Schema(description = "At most 16 string pairs: keys 1-40 characters, values up to 256", maxProperties = 16)
        @Size(max = 16) Map<String, String> metadata) {

    /** Metadata keys and values within their limits. Call after Bean Validation passed. */
    public ReservationRequest requireValidMetadata() {
        if (metadata != null) {
            metadata.forEach((key, value) -> {
                if (key.isEmpty() || key.length() > 40) {
                    throw new ValidationFailedException("metadata", "keys must be 1-40 characters");
                }
                if (value == null || value.length() > 256) {
                    throw new ValidationFailedException("metadata." + key, "must be a string of at most 256 characters");
                }
            });
        }
        return this;
    }

    /** Contract: the skus of one request are distinct. Call after Bean Validation passed. */
    public ReservationRequest requireDistinctSkus() {
        Map<String, Integer> firstIndex = new HashMap<>();
        for (int i = 0; i < lines.size(); i++) {
            Integer earlier = firstIndex.putIfAbsent(lines.get(i).sku(), i);
            if (earlier != null) {
                throw new ValidationFailedException("lines[" + i + "].sku", "repeats the sku of lines[" + earlier + "]");
            }
        }
        return this;
    }

    /** Quantities by sku, in the sku order every stock update follows. */
    public SortedMap<String, Integer> quantitiesBySku() {
        SortedMap<String, Integer> bySku = new TreeMap<>();
        lines.forEach(line -> bySku.put(line.sku(), line.quantity()));
        return bySku;
    }

    /** Same value for the same intent: line order, key order and whitespace of the body do not count. */
    public Fingerprint fingerprint() {
        StringBuilder canonical = new StringBuilder("v1;ttl=").append(ttlSeconds == null ? "" : ttlSeconds);
        lines.stream().sorted(Comparator.comparing(Line::sku))
                .forEach(line -> canonical.append(";").append(line.sku()).append('=').append(line.quantity()));
        // absent v2 fields add nothing, so a request without them keeps the fingerprint it had before they existed
        if (reference != null) {
            canonical.append(";reference=").append(reference.length()).append(':').append(reference);
        }
        if (metadata != null) {
            canonical.append(";metadata=").append(metadata.size());
            new TreeMap<>(metadata).forEach((key, value) -> canonical.append(';').append(key.length()).append(':').append(key)
                    .append(value.length()).append(':').append(value));
        }
        return Fingerprint.of(canonical.toString());
    }

    /** One sku to hold. */
    @Schema(name = "ReservationRequestLine")
    public record Line(
            @Schema(required = true, pattern = Sku.REGEX, example = "A-1")
            @NotNull @Pattern(regexp = Sku.REGEX, message = "must be 1-64 characters of [A-Za-z0-9._:-]") String sku,
            @Schema(required = true, minimum = "1", maximum = "1000000", example = "2", description = "A JSON integer")
            @NotNull @Min(1) @Max(1_000_000) Integer quantity) {
    }
}
