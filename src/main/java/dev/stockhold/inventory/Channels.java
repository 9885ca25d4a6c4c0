package dev.stockhold.inventory;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

import dev.stockhold.Jdbc;
import dev.stockhold.web.ProblemException;
import dev.stockhold.web.ProblemType;
import dev.stockhold.web.ValidationFailedException;

/**
 * Every statement on channels: a tenant's named, ordered groups of locations. A request through a channel reads it in
 * its own transaction (a write to the channel that commits meanwhile applies to the next request).
 */
@ApplicationScoped
public class Channels {

    private static final String COLUMNS = "channel, locations, version";
    private static final String ONE = "SELECT " + COLUMNS + " FROM channels WHERE tenant_id = ? AND channel = ?";
    private static final String ALL = "SELECT " + COLUMNS + " FROM channels WHERE tenant_id = ? ORDER BY channel";
    private static final String PUT = """
            INSERT INTO channels AS c (tenant_id, channel, locations) VALUES (?, ?, ?::varchar[])
            ON CONFLICT (tenant_id, channel) DO UPDATE SET locations = EXCLUDED.locations, version = c.version + 1, updated_at = now()
            RETURNING """ + " " + COLUMNS;
    // a conditional write: only the versions If-Match names (any version for *), only an existing channel
    private static final String REPLACE = """
            UPDATE channels SET locations = ?::varchar[], version = version + 1, updated_at = now()
             WHERE tenant_id = ? AND channel = ? AND (? OR version = ANY (?::bigint[]))
            RETURNING """ + " " + COLUMNS;
    // 'default' is a location of every tenant, with or without its row
    private static final String UNKNOWN_LOCATIONS = """
            SELECT x.location FROM unnest(?::varchar[]) WITH ORDINALITY AS x(location, n)
             WHERE x.location <> 'default'
               AND NOT EXISTS (SELECT 1 FROM locations l WHERE l.tenant_id = ? AND l.location = x.location)
             ORDER BY x.n
            """;

    @Inject
    Jdbc jdbc;

    /** The channel a request names, read now; 422 unknown-channel when the tenant has none of that name. */
    public Channel require(String tenantId, String channel) {
        Channel found = find(tenantId, channel);
        if (found == null) {
            throw new ProblemException(ProblemType.UNKNOWN_CHANNEL, "No channel '" + channel + "'");
        }
        return found;
    }

    /** @return the channel, or null */
    public Channel find(String tenantId, String channel) {
        List<Channel> found = query(Jdbc.Mode.READ, ONE, tenantId, channel);
        return found.isEmpty() ? null : found.get(0);
    }

    /** The tenant's channels by name. */
    public List<Channel> all(String tenantId) {
        return query(Jdbc.Mode.READ, ALL, tenantId);
    }

    /**
     * Creates or replaces a channel; with If-Match, replaces it only at a version it names (412 otherwise, and for a
     * channel that does not exist).
     *
     * @return the channel as written
     */
    @Transactional
    public Channel put(String tenantId, String channel, List<String> locations, IfMatch precondition) {
        String[] names = locations.toArray(String[]::new);
        List<String> unknown = jdbc.run(Jdbc.Mode.READ, UNKNOWN_LOCATIONS, (c, ps) -> {
            ps.setArray(1, c.createArrayOf("varchar", names));
            ps.setString(2, tenantId);
            List<String> missing = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    missing.add(rs.getString(1));
                }
            }
            return missing;
        });
        if (!unknown.isEmpty()) {
            throw new ValidationFailedException("locations[" + locations.indexOf(unknown.get(0)) + "]",
                    "is not a location of the tenant: " + String.join(", ", unknown)
                            + " (PUT /v1/locations/{location} creates one, as does a stock record there)");
        }
        if (precondition == null) {
            return query(Jdbc.Mode.JOIN, PUT, tenantId, channel, names).get(0);
        }
        Long[] versions = precondition.versions();
        List<Channel> written = query(Jdbc.Mode.JOIN, REPLACE, names, tenantId, channel, precondition.any(), versions);
        if (written.isEmpty()) {
            Channel current = find(tenantId, channel);
            throw new ProblemException(ProblemType.PRECONDITION_FAILED, "If-Match does not match the current version of channel '"
                    + channel + "'" + (current == null ? " (it does not exist)" : " (now " + current.etag() + ")")
                    + "; nothing was changed");
        }
        return written.get(0);
    }

    private List<Channel> query(Jdbc.Mode mode, String sql, Object... args) {
        return jdbc.run(mode, sql, (c, ps) -> {
            for (int i = 0; i < args.length; i++) {
                Object arg = args[i];
                if (arg instanceof String[] strings) {
                    ps.setArray(i + 1, c.createArrayOf("varchar", strings));
                } else if (arg instanceof Long[] longs) {
                    ps.setArray(i + 1, c.createArrayOf("bigint", longs));
                } else {
                    ps.setObject(i + 1, arg);
                }
            }
            List<Channel> found = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    found.add(row(rs));
                }
            }
            return found;
        });
    }

    private static Channel row(ResultSet rs) throws SQLException {
        return new Channel(rs.getString("channel"), Arrays.asList((String[]) rs.getArray("locations").getArray()), rs.getLong("version"));
    }
}
