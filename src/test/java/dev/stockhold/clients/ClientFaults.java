package dev.stockhold.clients;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

import javax.sql.DataSource;

import dev.stockhold.support.Api;

/**
 * The scenario both clients run behind a {@link FaultProxy}, and what the database must hold after it: each client
 * makes {@link #RESERVATIONS} reservations (quantity 1 + i % 3, reference {@code call-i}), {@link #ADJUSTMENTS}
 * adjustments of +2, and {@link #EDITS} reservations each of deferred fulfilment (4 units, confirmed, 3 fulfilled) and
 * of a PATCH (2 units raised to 5). Every call must have acted exactly once.
 */
final class ClientFaults {

    static final int RESERVATIONS = 60;
    static final int ADJUSTMENTS = 30;
    static final int EDITS = 15;
    static final long STOCK = 100_000;

    final Api api = Api.newTenant();
    final String reserved = Api.sku();
    final String adjusted = Api.sku();
    final String fulfilled = Api.sku();
    final String edited = Api.sku();
    private final DataSource dataSource;

    ClientFaults(DataSource dataSource) {
        this.dataSource = dataSource;
        for (String sku : new String[]{ reserved, adjusted, fulfilled, edited }) {
            api.setOnHand(sku, "default", STOCK, null).then().statusCode(200);
        }
    }

    static int quantity(int call) {
        return 1 + call % 3;
    }

    /** Reservations made, each reference once, and the stock each scenario moved exactly once. */
    String verify() throws SQLException {
        long expectedHeld = 0;
        for (int i = 0; i < RESERVATIONS; i++) {
            expectedHeld += quantity(i);
        }
        long made = scalar("SELECT count(*) FROM reservations r WHERE tenant_id = ? AND EXISTS "
                + "(SELECT 1 FROM reservation_lines l WHERE l.reservation_id = r.id AND l.sku = ?)", reserved);
        long references = scalar("SELECT count(DISTINCT reference) FROM reservations WHERE tenant_id = ? AND reference LIKE ?", "call-%");
        assertThat(made).as("reservations of %s (one per call)", reserved).isEqualTo(RESERVATIONS);
        assertThat(references).as("distinct call references").isEqualTo(RESERVATIONS);
        assertThat(field(reserved, "held")).as("held of %s", reserved).isEqualTo(expectedHeld);
        assertThat(field(adjusted, "onHand")).as("on hand of %s after %d adjustments of +2", adjusted, ADJUSTMENTS)
                .isEqualTo(STOCK + 2L * ADJUSTMENTS);
        assertThat(scalar("SELECT count(*) FROM stock_movements WHERE tenant_id = ? AND sku = ? AND kind = 'adjust'", adjusted))
                .as("adjust entries in the ledger").isEqualTo(ADJUSTMENTS);
        assertThat(field(fulfilled, "onHand")).as("on hand of %s after fulfilments", fulfilled).isEqualTo(STOCK - 3L * EDITS);
        assertThat(field(fulfilled, "committed")).as("committed of %s", fulfilled).isEqualTo(EDITS);
        assertThat(field(edited, "held")).as("held of %s after the edits", edited).isEqualTo(5L * EDITS);
        assertThat(scalar("SELECT count(*) FROM reservation_lines l JOIN reservations r ON r.id = l.reservation_id "
                + "WHERE r.tenant_id = ? AND l.sku = ? AND l.quantity = 5", edited)).as("edited lines").isEqualTo(EDITS);
        return "reservations=" + made + " (calls " + RESERVATIONS + ")";
    }

    long reservationsWithReference(String reference) throws SQLException {
        return scalar("SELECT count(*) FROM reservations WHERE tenant_id = ? AND reference = ?", reference);
    }

    long field(String sku, String field) {
        return api.request().get("/v1/items/{sku}", sku).then().statusCode(200)
                .extract().jsonPath().getLong(field);
    }

    private long scalar(String sql, String value) throws SQLException {
        try (Connection c = dataSource.getConnection(); PreparedStatement s = c.prepareStatement(sql)) {
            s.setString(1, api.tenant());
            s.setString(2, value);
            try (ResultSet rows = s.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        }
    }
}
