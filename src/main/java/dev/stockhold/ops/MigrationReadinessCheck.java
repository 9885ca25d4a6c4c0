package dev.stockhold.ops;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;

/** Ready only when the database answers and every migration this build ships has been applied. */
@Readiness
@ApplicationScoped
public class MigrationReadinessCheck implements HealthCheck {

    @Inject
    Flyway flyway;

    @Override
    public HealthCheckResponse call() {
        try {
            MigrationInfo[] pending = flyway.info().pending();
            MigrationInfo current = flyway.info().current();
            return HealthCheckResponse.named("database-migrations")
                    .status(pending.length == 0)
                    .withData("current", current == null ? "none" : current.getVersion().getVersion())
                    .withData("pending", pending.length)
                    .build();
        } catch (RuntimeException e) {
            return HealthCheckResponse.named("database-migrations").down()
                    .withData("error", "database unreachable")
                    .build();
        }
    }
}
