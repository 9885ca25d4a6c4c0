package dev.stockhold;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.ResultSet;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Every {@link Jdbc} call names its transaction mode and is refused in the wrong one: JOIN without a transaction,
 * AUTOCOMMIT inside one, and a READ whose text writes or locks rows, on every call (a READ text is remembered only once
 * it passed the check).
 */
@QuarkusTest
class JdbcModesTest {

    @Inject
    Jdbc jdbc;

    @Test
    void shouldRefuseAReadThatWritesOrLocksOnEveryCallAndRunAPlainOne() {
        for (int call = 0; call < 2; call++) {
            assertThatThrownBy(() -> jdbc.run(Jdbc.Mode.READ, "UPDATE stock_records SET held = held WHERE false", (c, ps) -> ps.execute()))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("a READ writes or locks rows");
            assertThatThrownBy(() -> jdbc.run(Jdbc.Mode.READ, "SELECT 1 FROM stock_records FOR UPDATE", (c, ps) -> ps.execute()))
                    .isInstanceOf(IllegalArgumentException.class);
            Integer answer = jdbc.run(Jdbc.Mode.READ, "SELECT 41 + 1", (c, ps) -> {
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return rs.getInt(1);
                }
            });
            assertThat(answer).isEqualTo(42);
        }
    }

    @Test
    void shouldRefuseJoinWithoutATransactionAndAutocommitInsideOne() {
        assertThatThrownBy(() -> jdbc.run(Jdbc.Mode.JOIN, "SELECT 1", (c, ps) -> ps.execute()))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("JOIN needs the caller's transaction");
        QuarkusTransaction.requiringNew().run(() -> assertThatThrownBy(
                () -> jdbc.run(Jdbc.Mode.AUTOCOMMIT, "SELECT 1", (c, ps) -> ps.execute()))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("AUTOCOMMIT must not run inside a transaction"));
        Boolean joined = QuarkusTransaction.requiringNew().call(() -> jdbc.run(Jdbc.Mode.JOIN, "SELECT 1", (c, ps) -> ps.execute()));
        assertThat(joined).isTrue();
    }
}
