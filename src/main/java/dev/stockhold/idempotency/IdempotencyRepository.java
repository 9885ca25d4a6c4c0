package dev.stockhold.idempotency;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

import dev.stockhold.Jdbc;

/** Stored outcomes per (tenant, key). Runs inside the caller's transaction. */
@ApplicationScoped
@Transactional(Transactional.TxType.MANDATORY)
public class IdempotencyRepository {

    @Inject
    Jdbc jdbc;

    /**
     * Records the outcome under the key unless the key already has one. I3: the primary key (tenant_id,
     * idempotency_key) admits one row, and a concurrent insert of the same key waits for ours to end.
     *
     * @return true if this request now owns the key; false if another request's outcome is stored
     */
    public boolean claim(String tenantId, IdempotencyKey key, Fingerprint fingerprint, StoredResponse outcome) {
        return claimAll(tenantId, List.of(new Claim(key, fingerprint, outcome)))[0];
    }

    /**
     * {@link #claim} for several keys of one tenant in one round trip.
     *
     * @return for each claim in order, whether this transaction now owns its key
     */
    public boolean[] claimAll(String tenantId, List<Claim> claims) {
        String sql = """
                INSERT INTO idempotency_records
                    (tenant_id, idempotency_key, fingerprint, status_code, response_body, location, reservation_id, created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, now())
                ON CONFLICT (tenant_id, idempotency_key) DO NOTHING
                """;
        return jdbc.run(Jdbc.Mode.JOIN, sql, (c, ps) -> {
            for (Claim claim : claims) {
                ps.setString(1, tenantId);
                ps.setString(2, claim.key().value());
                ps.setBytes(3, claim.fingerprint().sha256());
                ps.setInt(4, claim.outcome().status());
                ps.setString(5, claim.outcome().body());
                ps.setString(6, claim.outcome().location());
                ps.setObject(7, claim.outcome().reservationId(), Types.OTHER);
                ps.addBatch();
            }
            int[] counts;
            try {
                counts = ps.executeBatch();
            } catch (SQLException e) {
                if ("55P03".equals(e.getSQLState())) {
                    throw new RequestInProgressException();
                }
                throw e;
            }
            boolean[] owned = new boolean[counts.length];
            for (int i = 0; i < counts.length; i++) {
                owned[i] = counts[i] == 1;
            }
            return owned;
        });
    }

    /**
     * Replaces the outcome stored under a key this transaction claimed: for requests whose answer is known only after
     * their effects (an adjustment answers the record as it left it).
     */
    public void complete(String tenantId, IdempotencyKey key, StoredResponse outcome) {
        String sql = """
                UPDATE idempotency_records SET status_code = ?, response_body = ?, location = ?, etag = ?
                 WHERE tenant_id = ? AND idempotency_key = ?
                """;
        jdbc.run(Jdbc.Mode.JOIN, sql, (c, ps) -> {
            ps.setInt(1, outcome.status());
            ps.setString(2, outcome.body());
            ps.setString(3, outcome.location());
            ps.setString(4, outcome.etag());
            ps.setString(5, tenantId);
            ps.setString(6, key.value());
            ps.executeUpdate();
            return null;
        });
    }

    /**
     * The outcome another request stored under this key (we waited for it if it was in flight): what a retry answers.
     * A different fingerprint is 422 idempotency-key-reused; a key purged this very instant is 409 in progress.
     */
    @Transactional(Transactional.TxType.SUPPORTS) // one read: also after a statement that committed on its own
    public StoredResponse replay(String tenantId, IdempotencyKey key, Fingerprint fingerprint) {
        Stored stored = find(tenantId, key).orElseThrow(RequestInProgressException::new);
        if (!fingerprint.matches(stored.fingerprint())) {
            throw new IdempotencyKeyReusedException();
        }
        return stored.response();
    }

    /** A key to claim with the outcome to store under it. */
    public record Claim(IdempotencyKey key, Fingerprint fingerprint, StoredResponse outcome) {
    }

    /** The stored outcome for a key, with the fingerprint of the request that produced it. */
    @Transactional(Transactional.TxType.SUPPORTS)
    public Optional<Stored> find(String tenantId, IdempotencyKey key) {
        String sql = """
                SELECT fingerprint, status_code, response_body, location, reservation_id, etag
                  FROM idempotency_records WHERE tenant_id = ? AND idempotency_key = ?
                """;
        return jdbc.run(Jdbc.Mode.READ, sql, (c, ps) -> {
            ps.setString(1, tenantId);
            ps.setString(2, key.value());
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                return Optional.of(new Stored(rs.getBytes(1),
                        new StoredResponse(rs.getInt(2), rs.getString(3), rs.getString(4), rs.getObject(5, UUID.class),
                                rs.getString(6))));
            }
        });
    }

    /** Deletes up to {@code limit} keys created before {@code cutoff}; replicas skip each other's rows. */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public int purgeBatch(Instant cutoff, int limit) {
        String sql = """
                DELETE FROM idempotency_records
                 WHERE (tenant_id, idempotency_key) IN (
                       SELECT tenant_id, idempotency_key FROM idempotency_records
                        WHERE created_at < ? ORDER BY created_at LIMIT ? FOR UPDATE SKIP LOCKED)
                """;
        return jdbc.run(Jdbc.Mode.JOIN, sql, (c, ps) -> {
            ps.setTimestamp(1, Timestamp.from(cutoff));
            ps.setInt(2, limit);
            return ps.executeUpdate();
        });
    }

    /** A stored outcome and the fingerprint of the request it belongs to. */
    public record Stored(byte[] fingerprint, StoredResponse response) {
    }
}
