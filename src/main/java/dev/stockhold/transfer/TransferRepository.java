package dev.stockhold.transfer;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.stockhold.Jdbc;

/** Every statement on transfers. */
@ApplicationScoped
class TransferRepository {

    private static final String COLUMNS = "id, sku, from_location, to_location, quantity, received, returned, status, reference, expected_at, "
            + "created_at, updated_at, version";
    private static final String INSERT = "INSERT INTO transfers (tenant_id, id, sku, from_location, to_location, quantity, status, reference, "
            + "expected_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, 'IN_TRANSIT', ?, ?, ?, ?) RETURNING " + COLUMNS;
    private static final String FIND = "SELECT " + COLUMNS + " FROM transfers WHERE tenant_id = ? AND id = ?";
    private static final String LOCK = FIND + " FOR UPDATE";
    // the status follows from the units (the table's check holds it to them)
    private static final String ACCOUNT = """
            UPDATE transfers SET received = received + ?, returned = returned + ?, version = version + 1, updated_at = ?,
                   status = CASE WHEN received + ? + returned + ? < quantity THEN 'IN_TRANSIT'
                                 WHEN returned + ? > 0 THEN 'CANCELLED' ELSE 'RECEIVED' END
             WHERE tenant_id = ? AND id = ? RETURNING\s""" + COLUMNS;

    @Inject
    Jdbc jdbc;

    Transfer insert(String tenantId, UUID id, TransferRequest request, Instant now) {
        return one(Jdbc.Mode.JOIN, INSERT, tenantId, id, request.sku(), request.from(), request.to(), request.quantity(),
                request.reference(),
                timestamp(request.expected()), timestamp(now), timestamp(now)).orElseThrow();
    }

    Optional<Transfer> find(String tenantId, UUID id) {
        return one(Jdbc.Mode.READ, FIND, tenantId, id);
    }

    /** Locks the transfer until the caller's transaction ends: its receipts and its cancel are applied one at a time. */
    Optional<Transfer> lock(String tenantId, UUID id) {
        return one(Jdbc.Mode.JOIN, LOCK, tenantId, id);
    }

    /** Counts units received or returned on a transfer the caller has locked. */
    Transfer account(String tenantId, UUID id, long received, long returned, Instant now) {
        return one(Jdbc.Mode.JOIN, ACCOUNT, received, returned, timestamp(now), received, returned, returned, tenantId, id).orElseThrow();
    }

    private Optional<Transfer> one(Jdbc.Mode mode, String sql, Object... args) {
        return jdbc.run(mode, sql, (c, ps) -> {
            for (int i = 0; i < args.length; i++) {
                ps.setObject(i + 1, args[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(read(rs)) : Optional.empty();
            }
        });
    }

    private static Transfer read(ResultSet rs) throws SQLException {
        long quantity = rs.getLong("quantity");
        long received = rs.getLong("received");
        long returned = rs.getLong("returned");
        Timestamp expected = rs.getTimestamp("expected_at");
        return new Transfer(rs.getObject("id", UUID.class), rs.getString("sku"), rs.getString("from_location"), rs.getString("to_location"),
                quantity, received, returned, quantity - received - returned, rs.getString("status"), rs.getString("reference"),
                expected == null ? null : expected.toInstant(), rs.getTimestamp("created_at").toInstant(),
                rs.getTimestamp("updated_at").toInstant(), rs.getLong("version"));
    }

    private static Timestamp timestamp(Instant at) {
        return at == null ? null : Timestamp.from(at);
    }
}
