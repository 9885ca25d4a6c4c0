package dev.stockhold.inventory;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;

/**
 * A {@code stock_records} row as the statements read it, by column name: the database's shape, kept apart from the
 * API's {@link StockRecord}, to which {@link #toRecord()} maps it.
 */
record StockRow(String sku, String location, long onHand, long held, long committed, long version, Instant updatedAt,
        long safetyStock, long lowStockThreshold, long inTransit, long incoming) {

    /** The columns {@link #read(ResultSet)} reads; every statement that answers a record selects or returns them. */
    static final String COLUMNS = "s.sku, s.location, s.on_hand, s.held, s.committed, s.version, s.updated_at, s.safety_stock, "
            + "s.low_stock_threshold, s.in_transit, s.incoming";
    /** The same names, unqualified: for a CTE's rows (the ledger's {@code moved}). */
    static final String NAMES = COLUMNS.replace("s.", "");

    static StockRow read(ResultSet rs) throws SQLException {
        return new StockRow(rs.getString("sku"), rs.getString("location"), rs.getLong("on_hand"), rs.getLong("held"),
                rs.getLong("committed"), rs.getLong("version"), rs.getTimestamp("updated_at").toInstant(), rs.getLong("safety_stock"),
                rs.getLong("low_stock_threshold"), rs.getLong("in_transit"), rs.getLong("incoming"));
    }

    /** The same row with other limits: as it was before a change of what it takes from its location. */
    StockRow withLimits(long safety, long lowThreshold) {
        return new StockRow(sku, location, onHand, held, committed, version, updatedAt, safety, lowThreshold, inTransit, incoming);
    }

    StockRecord toRecord() {
        return new StockRecord(sku, location, onHand, held, committed, version, updatedAt, safetyStock, lowStockThreshold, inTransit,
                incoming + inTransit);
    }
}
