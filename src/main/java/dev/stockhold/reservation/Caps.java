package dev.stockhold.reservation;

import java.util.List;

import dev.stockhold.settings.TenantSettings;
import dev.stockhold.web.Problem;
import dev.stockhold.web.ProblemType;

/** The refusals of the tenant's caps (reservation-cap-exceeded). */
final class Caps {

    private Caps() {
    }

    /** The skus of the lines that ask for more than {@code maxLineQuantity}, in line order; empty when none does. */
    static List<String> overLine(TenantSettings settings, List<ReservationRequest.Line> lines) {
        Integer max = settings.maxLineQuantity();
        return max == null ? List.of()
                : lines.stream().filter(l -> l.quantity() > max).map(ReservationRequest.Line::sku).distinct().toList();
    }

    static Problem lineRefusal(TenantSettings settings, List<String> skus, String outcome) {
        return Problem.of(ProblemType.RESERVATION_CAP_EXCEEDED, "A line may hold at most " + settings.maxLineQuantity()
                + " units (maxLineQuantity); over it: " + String.join(", ", skus) + "; " + outcome).withSkus(skus);
    }

    static Problem referenceRefusal(TenantSettings settings, String reference) {
        return Problem.of(ProblemType.RESERVATION_CAP_EXCEEDED, "Reference " + reference + " already has "
                + settings.maxHeldPerReference() + " HELD reservations (maxHeldPerReference); nothing was reserved");
    }
}
