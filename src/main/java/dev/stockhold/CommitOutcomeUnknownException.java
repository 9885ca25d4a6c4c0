package dev.stockhold;

/**
 * A statement that was its own commit (autocommit) lost its connection or its server while it ran: PostgreSQL may have
 * committed it before the failure reached the client (a commit waiting for the synchronous standby when a failover
 * shuts the primary down does exactly that), or not. Nobody here can know; the caller learns the outcome by retrying
 * with the same Idempotency-Key, as after an interrupted COMMIT.
 */
public class CommitOutcomeUnknownException extends RuntimeException {

    public CommitOutcomeUnknownException(Throwable cause) {
        super("the connection failed during the commit; outcome unknown", cause);
    }

    /**
     * Connection exceptions (SQLState class 08: the socket failed while sending or reading) and the server ending the
     * session (57P01 admin shutdown, 57P02 crash shutdown, 57P03 cannot connect now): the commit may have landed.
     * A statement error (a constraint, a lock timeout) is the server's answer and means it did not.
     */
    public static boolean commitMayHaveLanded(String sqlState) {
        return sqlState != null && (sqlState.startsWith("08") || sqlState.startsWith("57P"));
    }
}
