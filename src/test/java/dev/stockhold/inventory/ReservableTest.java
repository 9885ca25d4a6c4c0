package dev.stockhold.inventory;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.Random;

import javax.sql.DataSource;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;

/**
 * "Reservable" is written once in Java and once in SQL ({@link Reservable}); this holds the two to the same answers
 * over the edges (0, exactly covered, one short, safety stock above available) and random records, evaluated by
 * PostgreSQL over a row shaped like stock_records.
 */
@QuarkusTest
class ReservableTest {

    private static final String EVALUATE = "SELECT " + Reservable.AVAILABLE_SQL + ", greatest(" + Reservable.SQL + ", 0), "
            + Reservable.SQL + " >= ? FROM (SELECT ?::bigint AS on_hand, ?::bigint AS held, ?::bigint AS committed, "
            + "?::bigint AS safety_stock) s";

    @Inject
    DataSource dataSource;

    @Test
    void sqlAndJavaAgreeOnAvailableReservableAndTheHoldCondition() throws Exception {
        long[][] cases = { { 0, 0, 0, 0 }, { 10, 3, 2, 5 }, { 10, 3, 2, 6 }, { 10, 10, 0, 0 }, { 5, 0, 0, 9 }, { 100, 1, 98, 0 } };
        Random random = new Random(54);
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(EVALUATE)) {
            for (long[] row : cases) {
                check(ps, row[0], row[1], row[2], row[3]);
            }
            for (int i = 0; i < 500; i++) {
                long held = random.nextInt(50);
                long committed = random.nextInt(50);
                check(ps, held + committed + random.nextInt(100), held, committed, random.nextInt(60));
            }
        }
    }

    private static void check(PreparedStatement ps, long onHand, long held, long committed, long safety) throws Exception {
        long reservable = Reservable.of(onHand, held, committed, safety);
        // a hold of exactly the reservable must pass, one more must not (reservable 0: one unit must not)
        for (long quantity : new long[]{ Math.max(reservable, 1), reservable + 1 }) {
            ps.setLong(1, quantity);
            ps.setLong(2, onHand);
            ps.setLong(3, held);
            ps.setLong(4, committed);
            ps.setLong(5, safety);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                String record = onHand + "/" + held + "/" + committed + "/" + safety;
                assertThat(rs.getLong(1)).as("available of %s", record).isEqualTo(Reservable.available(onHand, held, committed));
                assertThat(rs.getLong(2)).as("reservable of %s", record).isEqualTo(reservable);
                assertThat(rs.getBoolean(3)).as("hold of %d from %s", quantity, record).isEqualTo(quantity <= reservable);
            }
        }
    }
}
