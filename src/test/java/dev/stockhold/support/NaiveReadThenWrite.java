package dev.stockhold.support;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

/**
 * Test code only: the decrement Stockhold must never use. It reads the stock, decides in Java, then writes the
 * computed value. A barrier between read and write makes every racer read before any writes, so the lost update
 * is certain, not a matter of luck.
 */
public final class NaiveReadThenWrite {

    private final DataSource dataSource;
    private final CyclicBarrier allHaveRead;

    public NaiveReadThenWrite(DataSource dataSource, int racers) {
        this.dataSource = dataSource;
        this.allHaveRead = new CyclicBarrier(racers);
    }

    /** @return true if this racer believes it reserved the quantity */
    public boolean reserve(String tenant, String sku, int quantity) {
        try (Connection c = dataSource.getConnection()) {
            long available;
            try (PreparedStatement read = c.prepareStatement(
                    "SELECT on_hand - held FROM stock_records WHERE tenant_id = ? AND sku = ? AND location = 'default'")) {
                read.setString(1, tenant);
                read.setString(2, sku);
                try (ResultSet rs = read.executeQuery()) {
                    rs.next();
                    available = rs.getLong(1);
                }
            }
            allHaveRead.await(30, TimeUnit.SECONDS);
            if (available < quantity) {
                return false;
            }
            try (PreparedStatement write = c.prepareStatement(
                    "UPDATE stock_records SET held = on_hand - ? WHERE tenant_id = ? AND sku = ? AND location = 'default'")) {
                write.setLong(1, available - quantity);
                write.setString(2, tenant);
                write.setString(3, sku);
                write.executeUpdate();
            }
            return true;
        } catch (SQLException | InterruptedException | java.util.concurrent.BrokenBarrierException
                | java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException(e);
        }
    }
}
