package dev.stockhold.inventory;

import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.stockhold.Jdbc;

/** The records at both ends of a transfer: locked in location order, and moved by {@link TransitStatements}. */
@ApplicationScoped
class TransitRecords {

    private static final String LOCK_ENDS = "SELECT " + StockRow.COLUMNS + " " + """
            FROM stock_records s WHERE s.tenant_id = ? AND s.sku = ? AND s.location = ANY (?::varchar[])
            ORDER BY s.location FOR UPDATE""";

    @Inject
    Jdbc jdbc;

    /** Creates the record (on hand 0, with its location's defaults) if absent, without locking one that exists. */
    void create(String tenantId, StockKey at) {
        jdbc.run(Jdbc.Mode.JOIN, AdminStatements.CREATE, (c, ps) -> {
            ps.setString(1, at.sku());
            ps.setString(2, tenantId);
            ps.setString(3, at.location());
            ps.setString(4, at.sku());
            return ps.executeUpdate();
        });
    }

    /** Locks the sku's records at these locations, in location order (as every move locks records: no deadlock). */
    List<StockRecord> lockEnds(String tenantId, String sku, String... locations) {
        return jdbc.run(Jdbc.Mode.JOIN, LOCK_ENDS, (c, ps) -> {
            ps.setString(1, tenantId);
            ps.setString(2, sku);
            ps.setArray(3, c.createArrayOf("varchar", locations));
            List<StockRecord> found = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    found.add(StockRow.read(rs).toRecord());
                }
            }
            return found;
        });
    }

    /** One move of one record for a transfer or purchase order; empty when the record does not meet its condition (nothing changed). */
    Optional<StockRecord> move(TransitStatements statement, String tenantId, StockKey at, long quantity, UUID transfer, Source source) {
        return jdbc.run(Jdbc.Mode.JOIN, statement.sql, (c, ps) -> {
            ps.setLong(1, quantity);
            ps.setObject(2, transfer);
            ps.setString(3, tenantId);
            ps.setString(4, at.sku());
            ps.setString(5, at.location());
            if (statement.ledger) {
                source.bind(ps, 6);
            }
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(StockRow.read(rs).toRecord()) : Optional.empty();
            }
        });
    }
}
