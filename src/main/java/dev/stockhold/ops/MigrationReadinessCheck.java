package dev.stockhold.ops;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

import javax.sql.DataSource;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.MigrationInfoService;

/**
 * Ready only when the database answers and every migration this build ships has been applied. Flyway's own check
 * (info) logs two INFO lines each time it runs; once it has found this build's last migration applied, a probe only
 * asks the schema history whether that migration is still there (one query, no log line), and falls back to Flyway
 * when not.
 */
@Readiness
@ApplicationScoped
public class MigrationReadinessCheck implements HealthCheck {

    @Inject
    Flyway flyway;
    @Inject
    DataSource dataSource;

    /** This build's last migration, once Flyway found every migration applied; null until then. */
    private volatile String applied;

    @Override
    public HealthCheckResponse call() {
        try {
            String known = applied;
            if (known != null && stillApplied(known)) {
                return response(true, known, 0);
            }
            MigrationInfoService info = flyway.info();
            MigrationInfo[] pending = info.pending();
            MigrationInfo current = info.current();
            String version = current == null ? null : current.getVersion().getVersion();
            applied = pending.length == 0 ? version : null;
            return response(pending.length == 0, version == null ? "none" : version, pending.length);
        } catch (RuntimeException | SQLException e) {
            return HealthCheckResponse.named("database-migrations").down()
                    .withData("error", "database unreachable")
                    .build();
        }
    }

    private boolean stillApplied(String version) throws SQLException {
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement(
                        "SELECT count(*) FROM " + flyway.getConfiguration().getTable() + " WHERE version = ? AND success")) {
            ps.setString(1, version);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() && rs.getLong(1) > 0;
            }
        }
    }

    private static HealthCheckResponse response(boolean up, String current, int pending) {
        return HealthCheckResponse.named("database-migrations").status(up).withData("current", current).withData("pending", pending)
                .build();
    }
}
