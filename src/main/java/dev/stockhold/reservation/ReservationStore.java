package dev.stockhold.reservation;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

import io.agroal.api.AgroalDataSource;

/** Inserts a new reservation and its lines: plain SQL on the hot path, no entity flush. */
@ApplicationScoped
@Transactional(Transactional.TxType.MANDATORY)
public class ReservationStore {

    private static final String INSERT_RESERVATION = """
            INSERT INTO reservations (id, tenant_id, status, idempotency_key, created_at, expires_at, updated_at, reference, metadata)
            VALUES (?, ?, 'HELD', ?, ?, ?, ?, ?, ?)
            """;
    private static final String INSERT_LINE = """
            INSERT INTO reservation_lines (reservation_id, line_no, sku, quantity, location) VALUES (?, ?, ?, ?, ?)
            """;

    private final AgroalDataSource dataSource;

    ReservationStore(AgroalDataSource dataSource) {
        this.dataSource = dataSource;
    }

    public void insertHeld(String tenantId, String idempotencyKey, ReservationView reservation) {
        insertHeldAll(tenantId, Map.of(idempotencyKey, reservation));
    }

    /** New HELD reservations of one tenant by idempotency key, with their lines, in two round trips. */
    public void insertHeldAll(String tenantId, Map<String, ReservationView> byKey) {
        try (Connection c = dataSource.getConnection();
                PreparedStatement head = c.prepareStatement(INSERT_RESERVATION);
                PreparedStatement lines = c.prepareStatement(INSERT_LINE)) {
            for (Map.Entry<String, ReservationView> entry : byKey.entrySet()) {
                ReservationView reservation = entry.getValue();
                head.setObject(1, reservation.id(), Types.OTHER);
                head.setString(2, tenantId);
                head.setString(3, entry.getKey());
                head.setTimestamp(4, Timestamp.from(reservation.createdAt()));
                head.setTimestamp(5, Timestamp.from(reservation.expiresAt()));
                head.setTimestamp(6, Timestamp.from(reservation.createdAt()));
                head.setString(7, reservation.reference());
                head.setString(8, reservation.metadataJson());
                head.addBatch();
                for (int i = 0; i < reservation.lines().size(); i++) {
                    ReservationView.Line line = reservation.lines().get(i);
                    lines.setObject(1, reservation.id(), Types.OTHER);
                    lines.setInt(2, i);
                    lines.setString(3, line.sku());
                    lines.setInt(4, line.quantity());
                    lines.setString(5, line.location());
                    lines.addBatch();
                }
            }
            head.executeBatch();
            lines.executeBatch();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
