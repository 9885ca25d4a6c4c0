package dev.stockhold.reservation;

import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.stockhold.idempotency.Fingerprint;
import dev.stockhold.inventory.Allocation;
import dev.stockhold.inventory.Sku;
import dev.stockhold.web.ValidationFailedException;
import io.quarkus.runtime.annotations.RegisterForReflection;

/** Body of POST /v1/reservations. */
@Schema(name = "ReservationRequest")
@RegisterForReflection(ignoreNested = false)
public record ReservationRequest(
        @Schema(required = true, minItems = 1, maxItems = 100,
                description = "Distinct (sku, location) pairs; no sku both with and without a location") @NotNull @Size(min = 1,
                        max = 100) List<@Valid @NotNull Line> lines,
        @Schema(minimum = "1", maximum = "86400",
                description = "Hold time; default: the setting stockhold.reservations.default-ttl-seconds") @Min(1) @Max(86_400) Integer ttlSeconds,
        @Schema(minLength = 1, maxLength = 128, description = "The client's order or cart id", example = "order-1093") @Size(min = 1,
                max = 128) String reference,
        @Schema(description = "At most 16 string pairs: keys 1-40 characters, values up to 256",
                maxProperties = 16) @Size(max = 16) Map<String, String> metadata,
        @Schema(enumeration = {
                "immediate", "deferred" },
                description = "When confirmed units leave on hand: at the confirm (immediate, the default) or by fulfilments "
                        + "(deferred: the confirm commits them)") @Pattern(regexp = "immediate|deferred",
                                message = "must be \"immediate\" or \"deferred\"") String fulfilment,
        @Schema(enumeration = { "whole", "split", "partial" },
                description = "How a line without a location is served: whole by one location (the default), split across "
                        + "locations in allocation order, or partial (split, and each line gets what is available; the answer "
                        + "shows its shortfall)") @Pattern(regexp = "whole|split|partial",
                                message = "must be \"whole\", \"split\" or \"partial\"") String allocation,
        @Schema(pattern = Sku.REGEX, example = "b2b",
                description = "Allocate only from this channel's locations, in the channel's order (PUT /v1/channels/{channel}); "
                        + "absent: every location of the tenant") @Pattern(regexp = Sku.REGEX, message = Sku.RULE) String channel,
        @Schema(enumeration = { "allow", "deny" },
                description = "allow: what on hand cannot give a line (split across locations as allocation split does) is promised "
                        + "from incoming supply not yet promised, in expected-date order, and allocated when it arrives; refused "
                        + "when known supply cannot cover it. Only with allocation absent or split. Default deny") @Pattern(
                                regexp = "allow|deny", message = "must be \"allow\" or \"deny\"") String backorder){

    /** How the request's lines are allocated; absent is whole, or split for a backorder request. */
    public AllocationMode allocationMode() {
        return allocation == null && backorders() ? AllocationMode.SPLIT : AllocationMode.of(allocation);
    }

    /** Whether lines may be promised from incoming supply. */
    public boolean backorders() {
        return "allow".equals(backorder);
    }

    /** A backorder request is split on the shelf: whole or partial make no sense with it. Call after Bean Validation passed. */
    public ReservationRequest requireBackorderAllocation() {
        if (backorders() && allocation != null && !allocation.equals(AllocationMode.SPLIT.wire())) {
            throw new ValidationFailedException("allocation", "must be absent or \"split\" with \"backorder\": \"allow\"");
        }
        return this;
    }

    /** Whether the confirm commits the units for later fulfilments instead of selling them. */
    public boolean deferred() {
        return Fulfilment.DEFERRED.wire().equals(fulfilment);
    }

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

    /**
     * Lines are distinct (sku, location) pairs, and no sku appears both with and without a location (which record the
     * bare line takes would depend on the other). Call after Bean Validation passed.
     */
    public ReservationRequest requireDistinctSkus() {
        Map<String, Integer> firstIndex = new HashMap<>();
        Map<String, Integer> located = new HashMap<>();
        Map<String, Integer> bare = new HashMap<>();
        for (int i = 0; i < lines.size(); i++) {
            Line line = lines.get(i);
            Integer earlier = firstIndex.putIfAbsent(line.sku() + "@" + line.location(), i);
            if (earlier == null) {
                earlier = line.location() == null ? located.get(line.sku()) : bare.get(line.sku());
            }
            if (earlier != null) {
                throw new ValidationFailedException("lines[" + i + "].sku", "repeats the sku of lines[" + earlier
                        + "] (a sku may repeat only at distinct named locations)");
            }
            (line.location() == null ? bare : located).putIfAbsent(line.sku(), i);
        }
        return this;
    }

    /** The lines as allocation places them, in request order. */
    public List<Allocation.Line> allocationLines() {
        return lines.stream().map(l -> new Allocation.Line(l.sku(), l.location(), l.quantity())).toList();
    }

    /** Same value for the same intent: line order, key order and whitespace of the body do not count. */
    public Fingerprint fingerprint() {
        StringBuilder canonical = new StringBuilder("v1;ttl=").append(ttlSeconds == null ? "" : ttlSeconds);
        // a line without a location keeps the form it had before locations existed
        lines.stream().sorted(Comparator.comparing(Line::sku).thenComparing(l -> String.valueOf(l.location())))
                .forEach(line -> canonical.append(";").append(line.sku())
                        .append(line.location() == null ? "" : "@" + line.location()).append('=').append(line.quantity()));
        // absent v2 fields add nothing, so a request without them keeps the fingerprint it had before they existed
        if (reference != null) {
            canonical.append(";reference=").append(reference.length()).append(':').append(reference);
        }
        if (metadata != null) {
            canonical.append(";metadata=").append(metadata.size());
            new TreeMap<>(metadata).forEach((key, value) -> canonical.append(';').append(key.length()).append(':').append(key)
                    .append(value.length()).append(':').append(value));
        }
        if (fulfilment != null) {
            canonical.append(";fulfilment=").append(fulfilment);
        }
        if (allocation != null) {
            canonical.append(";allocation=").append(allocation);
        }
        if (channel != null) {
            canonical.append(";channel=").append(channel);
        }
        if (backorder != null) {
            canonical.append(";backorder=").append(backorder);
        }
        return Fingerprint.of(canonical.toString());
    }

    /** One sku to hold. */
    @Schema(name = "ReservationRequestLine")
    public record Line(
            @Schema(required = true, pattern = Sku.REGEX, example = "A-1") @NotNull @Pattern(regexp = Sku.REGEX,
                    message = Sku.RULE) String sku,
            @Schema(required = true, minimum = "1", maximum = "1000000", example = "2",
                    description = "A JSON integer") @NotNull @Min(1) @Max(1_000_000) Integer quantity,
            @Schema(pattern = Sku.REGEX, example = "WH-2",
                    description = "Reserve at this location only; absent: the first location in allocation order that covers the line") @Pattern(
                            regexp = Sku.REGEX, message = Sku.RULE) String location) {
    }
}
