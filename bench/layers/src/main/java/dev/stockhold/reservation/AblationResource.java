package dev.stockhold.reservation;

import java.io.IOException;
import java.nio.file.Files;
import java.sql.PreparedStatement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

import jakarta.annotation.security.PermitAll;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import dev.stockhold.Jdbc;
import dev.stockhold.OutcomeLog;
import dev.stockhold.StockholdConfig;
import dev.stockhold.idempotency.IdempotencyKey;
import dev.stockhold.security.CurrentTenant;
import dev.stockhold.security.Roles;
import dev.stockhold.web.StrictJson;

/**
 * Rows (b) to (f) of bench/ablation, compiled only into the ablation build ({@code ./mvnw -Pablation package}, into
 * target/ablation): never part of the service. Each path adds one layer to the one before, over the same one-statement
 * reservation; outside /v1, so no admission gate (row g) applies, and the bench starts rows b-e with tracing and HTTP
 * metrics off and the relay off.
 * <ul>
 * <li>b: Quarkus REST on a worker thread, the body bound by Jackson, the statement (the one bench/reservation.pgbench
 * carries, key and sku as parameters) through JDBC, as {@link OneStatementReservation} sends it;</li>
 * <li>c: + the bearer token verified and the tenant read from it;</li>
 * <li>d: + the service's own request and idempotency code: the key parsed, the body read strictly and validated, its
 * fingerprint, the placement (the location guess, or the allocation read for a sku not yet seen), the view and stored
 * answer, and the service's statement with the key, the stored answer and the event ({@link ReservingService#alone});</li>
 * <li>e: + the outcome log line;</li>
 * <li>f: + the outcome metric (the bench starts this row with tracing and HTTP metrics on).</li>
 * </ul>
 */
@Path("/ablation")
@Produces(MediaType.APPLICATION_JSON)
public class AblationResource {

    /** The body rows b and c bind: the sku of the first line is all the statement needs. */
    public record Body(List<Line> lines) {
        public record Line(String sku, int quantity) {
        }
    }

    @Inject
    Jdbc jdbc;
    @Inject
    CurrentTenant tenant;
    @Inject
    StrictJson json;
    @Inject
    ReservingService reserving;
    @Inject
    ReservationMetrics metrics;
    @Inject
    StockholdConfig config;

    private final String statement;
    /** Per JDBC parameter: true for the key, false for the sku. */
    private final List<Boolean> keyParameters = new ArrayList<>();

    AblationResource(@ConfigProperty(name = "ablation.statement-file") String file) throws IOException {
        String numbered = Files.readString(java.nio.file.Path.of(file));
        StringBuilder sql = new StringBuilder();
        for (int i = 0; i < numbered.length(); i++) {
            char c = numbered.charAt(i);
            if (c == '$' && i + 1 < numbered.length() && (numbered.charAt(i + 1) == '1' || numbered.charAt(i + 1) == '2')) {
                keyParameters.add(numbered.charAt(++i) == '1');
                sql.append('?');
            } else {
                sql.append(c);
            }
        }
        this.statement = OneStatementReservation.GENERIC_PLAN + ";\n" + sql;
    }

    @POST
    @Path("b")
    @PermitAll
    @Consumes(MediaType.APPLICATION_JSON)
    public Response plain(Body body) {
        return statement(body.lines().get(0).sku());
    }

    @POST
    @Path("c")
    @RolesAllowed(Roles.RESERVATIONS)
    @Consumes(MediaType.APPLICATION_JSON)
    public Response token(Body body) {
        if (tenant.id() == null) {
            throw new IllegalStateException("no tenant");
        }
        return statement(body.lines().get(0).sku());
    }

    /**
     * Rows d (the reservation), e (+ its outcome line) and f (+ its outcome metric), each as
     * {@link ReservingService#reserve} records them.
     */
    @POST
    @Path("{row: [def]}")
    @RolesAllowed(Roles.RESERVATIONS)
    @Consumes(MediaType.APPLICATION_JSON)
    public Response idempotent(@PathParam("row") String row, @Context HttpHeaders headers, byte[] body) {
        String tenantId = tenant.id();
        IdempotencyKey key = IdempotencyKey.parse(headers.getRequestHeader(IdempotencyKey.HEADER));
        ReservationRequest request = json.read(body, ReservationRequest.class).requireDistinctSkus().requireValidMetadata();
        ReservationReply reply = reserving.alone(new ReservationAttempt(tenantId, key, request.fingerprint(), request),
                config.idempotency().inFlightWait());
        if (reply == null) {
            throw new IllegalStateException("the statement sent the request to the transactional path");
        }
        if (!row.equals("d")) {
            ReservationMetrics.Outcome outcome = reply.replayed() ? ReservationMetrics.Outcome.REPLAYED : ReservationMetrics.Outcome.CREATED;
            if (row.equals("f")) {
                metrics.outcome(outcome);
            }
            OutcomeLog.reservation(outcome.tag(), tenantId, key.value(), reply.response().reservationId(),
                    "status=" + reply.response().status());
        }
        return reply.response().answer(reply.replayed());
    }

    private Response statement(String sku) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        String key = new UUID(random.nextLong(), random.nextLong()).toString();
        jdbc.withConnection(Jdbc.Mode.AUTOCOMMIT, c -> {
            try (PreparedStatement ps = c.prepareStatement(statement)) {
                for (int i = 0; i < keyParameters.size(); i++) {
                    ps.setString(i + 1, keyParameters.get(i) ? key : sku);
                }
                ps.execute();
                ps.getMoreResults();
            }
            return null;
        });
        return Response.status(201).entity(Map.of("key", key, "status", "HELD")).build();
    }
}
