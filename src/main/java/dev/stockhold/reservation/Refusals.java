package dev.stockhold.reservation;

import java.util.List;

import dev.stockhold.web.Problem;
import dev.stockhold.web.ProblemType;

/** The refusal of lines an allocation could not place: unknown skus first, else the skus short of stock. */
final class Refusals {

    private Refusals() {
    }

    /** @param outcome what the detail ends with: "nothing was reserved", "nothing was changed" */
    static Problem of(List<String> unknown, List<String> shortSkus, String outcome) {
        return unknown.isEmpty()
                ? Problem.of(ProblemType.INSUFFICIENT_STOCK, "Not enough stock for: " + String.join(", ", shortSkus) + "; " + outcome)
                        .withSkus(shortSkus)
                : Problem.of(ProblemType.UNKNOWN_SKU, "Unknown sku: " + String.join(", ", unknown) + "; " + outcome).withSkus(unknown);
    }
}
