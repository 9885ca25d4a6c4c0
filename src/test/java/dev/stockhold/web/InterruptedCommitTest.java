package dev.stockhold.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;

import jakarta.transaction.RollbackException;

import org.junit.jupiter.api.Test;

import dev.stockhold.DatabaseFailures;
import io.quarkus.arc.ArcUndeclaredThrowableException;

/**
 * A commit cut off by a database failure (seen in the chaos run during a PostgreSQL restart: the transaction manager
 * reported a rollback, yet the confirm had committed) is answered as "outcome unknown", never as "nothing changed".
 */
class InterruptedCommitTest {

    @Test
    void shouldTellAnInterruptedCommitFromAFailureBeforeCommit() {
        Throwable interrupted = new ArcUndeclaredThrowableException(new RollbackException("ARJUNA016053: Could not commit"));
        Throwable beforeCommit = new IllegalStateException(new SQLException("terminating connection", "57P01"));

        assertThat(ProblemMappers.isInterruptedCommit(interrupted)).isTrue();
        assertThat(ProblemMappers.isInterruptedCommit(beforeCommit)).isFalse();
        assertThat(DatabaseFailures.isTransient(beforeCommit)).isTrue();
        assertThat(DatabaseFailures.isTransient(new IllegalStateException("a bug"))).isFalse();
        // a client that went away while its body was read is neither a server error nor a database failure
        assertThat(ProblemMappers.isClientGone(new java.io.IOException(new java.nio.channels.ClosedChannelException()))).isTrue();
        assertThat(ProblemMappers.isClientGone(new IllegalStateException("a bug"))).isFalse();
        // a write on a standby, or on a primary a failover has demoted: nothing was written, retry elsewhere
        assertThat(DatabaseFailures.isTransient(new IllegalStateException(
                new SQLException("cannot execute INSERT in a read-only transaction", "25006")))).isTrue();
    }
}
