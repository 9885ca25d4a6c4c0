package dev.stockhold;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

/** Which failures a request answers 503 and a scheduled job skips quietly, and which stay errors. */
class DatabaseFailuresTest {

    @Test
    void shouldTreatLostConnectionsAPoolWithoutConnectionsAndAStandbyAsTransient() {
        assertThat(DatabaseFailures.isTransient(new IllegalStateException(new SQLException("I/O error", "08006")))).isTrue();
        assertThat(DatabaseFailures.isTransient(new SQLException("Sorry, acquisition timeout!"))).isTrue();
        assertThat(DatabaseFailures.isTransient(new SQLException("Acquisition timeout while waiting for new connection"))).isTrue();
        assertThat(DatabaseFailures.isTransient(new SQLException("read-only transaction", "25006"))).isTrue();
        assertThat(DatabaseFailures.isTransient(new SQLException("lock timeout", "55P03"))).isTrue();
        assertThat(DatabaseFailures.isTransient(new SQLException("syntax error", "42601"))).isFalse();
        assertThat(DatabaseFailures.isTransient(new IllegalStateException("a bug"))).isFalse();
    }

    @Test
    void shouldSkipAJobsTurnWhileTheDatabaseIsAwayButThrowEverythingElse() {
        AtomicInteger turns = new AtomicInteger();
        DatabaseFailures.skipTurnWhileAway("a job", () -> {
            turns.incrementAndGet();
            throw new IllegalStateException(new SQLException("connection refused", "08001"));
        });
        assertThat(turns).hasValue(1);

        assertThatThrownBy(() -> DatabaseFailures.skipTurnWhileAway("a job", () -> {
            throw new IllegalStateException("a bug");
        })).hasMessage("a bug");
    }
}
