package dev.stockhold.inventory;

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
import dev.stockhold.web.ValidationFailedException;
import io.quarkus.runtime.annotations.RegisterForReflection;

/** Body of POST /v1/stock/adjustments: deltas to on hand of many records, applied all or nothing (I7). */
@Schema(name = "BatchAdjustmentRequest")
@RegisterForReflection(ignoreNested = false)
public record BatchAdjustmentRequest(
        @Schema(required = true, minItems = 1, maxItems = 500,
                description = "Distinct (sku, location) records, each with its delta") @NotNull @Size(min = 1,
                        max = 500) List<@Valid @NotNull Adjustment> adjustments) {

    /** One record's change. */
    @Schema(name = "BatchAdjustment")
    public record Adjustment(
            @Schema(required = true, pattern = Sku.REGEX, example = "A-1") @NotNull @Pattern(regexp = Sku.REGEX,
                    message = Sku.RULE) String sku,
            @Schema(required = true, pattern = Sku.REGEX, example = "WH-1") @NotNull @Pattern(regexp = Sku.REGEX,
                    message = Sku.RULE) String location,
            @Schema(required = true, minimum = "-1000000000", maximum = "1000000000", example = "-3",
                    description = "A non-zero JSON integer added to on hand") @NotNull @Min(-1_000_000_000) @Max(1_000_000_000) Long delta,
            @Schema(minLength = 1, maxLength = 64, example = "cycle count",
                    description = "Why, for the stock.changed event and the movement") @Size(min = 1, max = 64) String reason,
            @Schema(maxLength = 2048, format = "uri", example = "https://erp.example.com/receipts/4410",
                    description = "The document behind the change (an absolute URI), recorded in its movement") @Size(
                            max = 2048) String reference) {

        public StockKey key() {
            return new StockKey(sku, location);
        }

        AdjustmentRequest request() {
            return new AdjustmentRequest(delta, reason, reference);
        }
    }

    /** Deltas are non-zero and records distinct. Call after Bean Validation passed. */
    public BatchAdjustmentRequest requireValid() {
        Map<StockKey, Integer> first = new HashMap<>();
        for (int i = 0; i < adjustments.size(); i++) {
            Adjustment a = adjustments.get(i);
            if (a.delta() == 0) {
                throw new ValidationFailedException("adjustments[" + i + "].delta", "must not be 0");
            }
            References.requireAbsolute(a.reference());
            Integer earlier = first.putIfAbsent(a.key(), i);
            if (earlier != null) {
                throw new ValidationFailedException("adjustments[" + i + "]", "repeats the record of adjustments[" + earlier + "]");
            }
        }
        return this;
    }

    /** The adjustments in the order their records are locked: the order every multi-record write uses. */
    public List<Adjustment> inLockOrder() {
        return adjustments.stream().sorted(Comparator.comparing(Adjustment::key)).toList();
    }

    /** The route and every adjustment, whatever their order in the body. */
    public Fingerprint fingerprint() {
        StringBuilder canonical = new StringBuilder("adjust-batch");
        inLockOrder().forEach(a -> canonical.append(';').append(a.request().fingerprint(a.key())));
        return Fingerprint.of(canonical.toString());
    }
}
