package dev.stockhold.reservation;

import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

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
import io.quarkus.runtime.annotations.RegisterForReflection;

/** Body of POST /v1/reservations/{id}/fulfilments and /release: committed units per line. */
@Schema(name = "SettlementRequest")
@RegisterForReflection(ignoreNested = false)
public record SettlementRequest(
        @Schema(required = true, minItems = 1, maxItems = 100,
                description = "Distinct (sku, location) lines of the reservation") @NotNull @Size(min = 1,
                        max = 100) List<@Valid @NotNull Line> lines) {

    /** Lines name distinct (sku, location) pairs. Call after Bean Validation passed. */
    public SettlementRequest requireDistinctLines() {
        Map<String, Integer> firstIndex = new HashMap<>();
        for (int i = 0; i < lines.size(); i++) {
            Integer earlier = firstIndex.putIfAbsent(lines.get(i).sku() + "@" + lines.get(i).location(), i);
            if (earlier != null) {
                throw new ValidationFailedException("lines[" + i + "]", "repeats lines[" + earlier + "]");
            }
        }
        return this;
    }

    /** Same value for the same intent on the same reservation: line order and whitespace do not count. */
    public Fingerprint fingerprint(Settlement kind, UUID reservation) {
        StringBuilder canonical = new StringBuilder(kind.wire()).append(';').append(reservation);
        lines.stream().sorted(Comparator.comparing(Line::sku).thenComparing(l -> String.valueOf(l.location())))
                .forEach(line -> canonical.append(';').append(line.sku()).append(line.location() == null ? "" : "@" + line.location())
                        .append('=').append(line.quantity()));
        return Fingerprint.of(canonical.toString());
    }

    /** Units of one line of the reservation. */
    @Schema(name = "SettlementLine")
    public record Line(
            @Schema(required = true, pattern = Sku.REGEX, example = "A-1") @NotNull @Pattern(regexp = Sku.REGEX,
                    message = Sku.RULE) String sku,
            @Schema(pattern = Sku.REGEX, example = "default",
                    description = "The line's location; may be left out when the reservation has the sku at one location only") @Pattern(
                            regexp = Sku.REGEX, message = Sku.RULE) String location,
            @Schema(required = true, minimum = "1", maximum = "1000000", example = "3") @NotNull @Min(1) @Max(1_000_000) Integer quantity) {
    }

    /** What a settlement does with committed units. */
    public enum Settlement {
        /** They leave the location: committed and on hand drop. */
        FULFIL("fulfil"),
        /** They will not be fulfilled: committed drops, available rises. */
        RELEASE("release");

        private final String wire;

        Settlement(String wire) {
            this.wire = wire;
        }

        public String wire() {
            return wire;
        }
    }
}
