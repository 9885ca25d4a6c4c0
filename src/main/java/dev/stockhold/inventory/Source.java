package dev.stockhold.inventory;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.UUID;

/**
 * Who and what caused a stock move, as its ledger entry records it: the token's subject, the reservation and the
 * Idempotency-Key where there is one, the reason and reference an admin gave.
 */
public record Source(String actor, UUID reservationId, String idempotencyKey, String reason, String reference) {

    public static Source of(String actor) {
        return new Source(actor, null, null, null, null);
    }

    /** A move made for a reservation, under the Idempotency-Key of the request that made it (null: none). */
    public static Source reservation(String actor, UUID reservationId, String idempotencyKey) {
        return new Source(actor, reservationId, idempotencyKey, null, null);
    }

    /** Binds the ledger entry's five parameters (see {@link MovementLedger#wrap}) from {@code from}. */
    void bind(PreparedStatement ps, int from) throws SQLException {
        ps.setString(from, reason);
        ps.setString(from + 1, reference);
        ps.setString(from + 2, actor);
        ps.setObject(from + 3, reservationId == null ? null : reservationId.toString());
        ps.setString(from + 4, idempotencyKey);
    }
}
