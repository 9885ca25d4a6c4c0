package dev.stockhold.deploy;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.stockhold.support.GeneratedIssuer;

/**
 * What the container tests share: the image (built once per run, cached by podman), a fresh database, an issuer made
 * up for the run (its public key mounted read-only, as a Secret volume would be) and the environment of this
 * machine's PostgreSQL and RabbitMQ on top of the ConfigMap's. Containers started here are removed on close.
 */
final class ContainerFixture implements AutoCloseable {

    static final String SERVER = "jdbc:postgresql://127.0.0.1:5432/";
    private static final String KEY_PATH = "/etc/stockhold/issuer/public.pem";

    final Path work;
    final String database = "stockhold_container_" + UUID.randomUUID().toString().substring(0, 8);
    final String tenant = "ctr-" + UUID.randomUUID().toString().substring(0, 8);
    final String token;
    private final Path publicKey;
    private final Map<String, String> scriptEnv;
    private final List<ServiceContainer> started = new ArrayList<>();
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();

    /** @param scriptEnv MEMORY_LIMIT, TMP_SIZE, GRACE_SECONDS for docker/local-image run (empty: its defaults) */
    ContainerFixture(String name, Map<String, String> scriptEnv) throws IOException, SQLException {
        this.scriptEnv = scriptEnv;
        work = Files.createDirectories(Path.of("target", name));
        ServiceContainer.buildImage(work.resolve("build.log"));
        Map<String, String> issuer = new GeneratedIssuer().start();
        token = GeneratedIssuer.token(tenant, "reservations", "inventory-admin");
        publicKey = work.resolve("issuer.pem");
        Files.copy(Path.of(issuer.get("mp.jwt.verify.publickey.location")), publicKey, StandardCopyOption.REPLACE_EXISTING);
        admin("CREATE DATABASE " + database);
    }

    /** A container of the image on the host network at {@code port}; {@code env} overrides the defaults here. */
    ServiceContainer start(String name, int port, Map<String, String> env) throws IOException {
        Map<String, String> all = new LinkedHashMap<>();
        all.put("QUARKUS_HTTP_PORT", Integer.toString(port));
        all.put("QUARKUS_MANAGEMENT_PORT", Integer.toString(ServiceContainer.freePort()));
        all.put("QUARKUS_DATASOURCE_JDBC_URL", SERVER + database);
        all.put("QUARKUS_DATASOURCE_USERNAME", "postgres");
        all.put("QUARKUS_DATASOURCE_PASSWORD", "");
        all.put("RABBITMQ_HOST", "127.0.0.1");
        all.put("RABBITMQ_USERNAME", "guest");
        all.put("RABBITMQ_PASSWORD", "guest");
        all.put("MP_JWT_VERIFY_PUBLICKEY_LOCATION", KEY_PATH);
        all.put("MP_JWT_VERIFY_ISSUER", GeneratedIssuer.ISSUER);
        all.put("STOCKHOLD_SECURITY_AUDIENCE", GeneratedIssuer.AUDIENCE);
        all.put("STOCKHOLD_EVENTS_SCHEMA_BASE_URI", "http://localhost/schemas/events/");
        all.put("STOCKHOLD_SECURITY_CURSOR_SECRET", GeneratedIssuer.CURSOR_SECRET);
        all.putAll(env);
        ServiceContainer container = ServiceContainer.start(name, port, all, Map.of(publicKey, KEY_PATH), scriptEnv, work);
        started.add(container);
        return container;
    }

    /** A request with this run's token; {@code body} null for none. */
    HttpResponse<String> send(ServiceContainer to, String method, String path, String body, String idempotencyKey)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(to.url(path)))
                .timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + token)
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        if (idempotencyKey != null) {
            request.header("Idempotency-Key", idempotencyKey);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> get(ServiceContainer from, String path) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(from.url(path))).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    Connection db() throws SQLException {
        return DriverManager.getConnection(SERVER + database, "postgres", "");
    }

    @Override
    public void close() throws IOException, SQLException {
        for (ServiceContainer container : started) {
            Files.writeString(work.resolve(container.name + ".log"), container.logs());
            container.close();
        }
        admin("DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
    }

    private static void admin(String sql) throws SQLException {
        try (Connection c = DriverManager.getConnection(SERVER + "postgres", "postgres", "")) {
            c.createStatement().execute(sql);
        }
    }
}
