package dev.stockhold.reservation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.stockhold.support.Api;
import dev.stockhold.support.StockedSku;
import dev.stockhold.support.TenantFixture;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;

/** GET /v1/reservations: keyset pages, filters, cursors bound to their listing, reference and metadata, the plans. */
@QuarkusTest
@StockedSku(1_000_000)
class ReservationListTest extends TenantFixture {

    /** The service's clock (moved by other tests): the time the service stamps reservations with. */
    @Inject
    java.time.Clock clock;

    /** 1,000 reservations paged 37 at a time while more are created: each of the 1,000 exactly once, newest first. */
    @Test
    void shouldReturnEachReservationOnceNewestFirstWhileNewOnesArrive() throws InterruptedException {
        int count = 1_000;
        db.execute("""
                INSERT INTO reservations (id, tenant_id, status, idempotency_key, created_at, expires_at, updated_at)
                SELECT gen_random_uuid(), ?, 'HELD', 'seed-' || n, now() - (n / 3) * interval '1 millisecond',
                       now() + interval '1 hour', now()
                  FROM generate_series(1, ?) n
                """, api.tenant(), count); // three at a time share a created_at: the id breaks the tie
        Set<String> seeded = new HashSet<>(db.queryStrings("SELECT id::text FROM reservations WHERE tenant_id = ?", api.tenant()));
        AtomicBoolean paging = new AtomicBoolean(true);
        Thread writer = new Thread(() -> {
            while (paging.get()) {
                api.reserve(Api.key(), sku, 1);
            }
        });
        writer.start();

        List<String> seen = new ArrayList<>();
        List<Instant> times = new ArrayList<>();
        String cursor = null;
        int pages = 0;
        do {
            var request = api.request().queryParam("limit", 37);
            if (cursor != null) {
                request.queryParam("cursor", cursor);
            }
            JsonPath page = request.get("/v1/reservations").then().statusCode(200).extract().jsonPath();
            List<Map<String, Object>> items = page.getList("items");
            assertThat(items.size()).isLessThanOrEqualTo(37);
            items.forEach(item -> {
                seen.add((String) item.get("id"));
                times.add(Instant.parse((String) item.get("createdAt")));
            });
            cursor = page.getString("nextCursor");
            pages++;
        } while (cursor != null);
        paging.set(false);
        writer.join();

        assertThat(seen).doesNotHaveDuplicates();
        assertThat(seen).containsAll(seeded);
        assertThat(times).isSortedAccordingTo(java.util.Comparator.reverseOrder());
        assertThat(pages).isGreaterThanOrEqualTo(count / 37);
    }

    @Test
    void shouldCombineFiltersAndKeepReferenceAndMetadata() {
        String other = Api.sku();
        api.setStock(other, 100);
        String a = api.reserve(Api.key(), "{\"lines\":[{\"sku\":\"" + sku + "\",\"quantity\":1}],\"reference\":\"order-7\","
                + "\"metadata\":{\"channel\":\"web\",\"store\":\"berlin\"}}").then().statusCode(201)
                .body("reference", equalTo("order-7")).body("metadata.channel", equalTo("web")).extract().path("id");
        String b = api.reserve(Api.key(), "{\"lines\":[{\"sku\":\"" + other + "\",\"quantity\":1}],\"reference\":\"order-7\"}")
                .then().statusCode(201).extract().path("id");
        String c = api.reserve(Api.key(), sku, 1).then().statusCode(201).extract().path("id");
        api.confirm(b).then().statusCode(200);

        assertThat(ids("reference", "order-7")).containsExactly(b, a);
        assertThat(ids("reference", "order-7", "status", "HELD")).containsExactly(a);
        assertThat(ids("sku", sku)).containsExactly(c, a);
        assertThat(ids("sku", sku, "reference", "order-7")).containsExactly(a);
        assertThat(ids("status", "CONFIRMED")).containsExactly(b);
        assertThat(ids("createdFrom", clock.instant().plusSeconds(60).toString())).isEmpty();
        api.get(a).then().body("metadata.store", equalTo("berlin")).body("reference", equalTo("order-7"));
        api.get(c).then().body("$", org.hamcrest.Matchers.not(org.hamcrest.Matchers.hasKey("reference")));
        assertThat(Api.newTenant().request().get("/v1/reservations").then().statusCode(200).extract().jsonPath().getList("items"))
                .isEmpty();
    }

    @Test
    void shouldFindTheReservationThatAnIdempotencyKeyStoredAndNothingElse() {
        String key = "checkout 17/" + UUID.randomUUID();
        String id = api.request().contentType("application/json").header("Idempotency-Key", "\"" + key + "\"")
                .body("{\"lines\":[{\"sku\":\"" + sku + "\",\"quantity\":1}]}").post("/v1/reservations")
                .then().statusCode(201).extract().path("id");
        api.reserve(Api.key(), sku, 1).then().statusCode(201);
        String adjustment = Api.key();
        api.adjust(adjustment, sku, "default", 1).then().statusCode(200);

        assertThat(ids("idempotencyKey", key)).containsExactly(id);
        assertThat(ids("idempotencyKey", key, "status", "CANCELLED")).isEmpty();
        assertThat(ids("idempotencyKey", adjustment)).as("a key that stored no reservation").isEmpty();
        assertThat(ids("idempotencyKey", "never-sent")).isEmpty();
        assertThat(Api.newTenant().request().queryParam("idempotencyKey", key).get("/v1/reservations").then().statusCode(200)
                .extract().jsonPath().getList("items")).as("another tenant's key").isEmpty();
        for (String bad : List.of("k".repeat(256), "tab\tkey", "caf\u00e9")) {
            var answer = api.request().queryParam("idempotencyKey", bad).get("/v1/reservations");
            assertThat(answer.statusCode()).as("idempotencyKey=%s", bad).isEqualTo(400);
            answer.then().body("type", endsWith("/validation-failed")).body("violations[0].field", equalTo("idempotencyKey"));
        }
    }

    @Test
    void shouldRefuseACursorThatWasAlteredOrBelongsToOtherFiltersOrAnotherTenant() {
        for (int i = 0; i < 3; i++) {
            api.reserve(Api.key(), sku, 1).then().statusCode(201);
        }
        String cursor = api.request().queryParam("limit", 1).get("/v1/reservations").then().statusCode(200).extract().path("nextCursor");
        api.request().queryParam("limit", 1).queryParam("cursor", cursor).get("/v1/reservations").then().statusCode(200);

        String tampered = cursor.substring(0, 3) + (cursor.charAt(3) == 'A' ? 'B' : 'A') + cursor.substring(4);
        for (var bad : List.of(Map.of("cursor", tampered), Map.of("cursor", "not-a-cursor"), Map.of("cursor", cursor, "status", "HELD"))) {
            api.request().queryParams(bad).get("/v1/reservations").then().statusCode(400)
                    .body("type", endsWith("/validation-failed")).body("violations[0].field", equalTo("cursor"));
        }
        Api.newTenant().request().queryParam("limit", 1).queryParam("cursor", cursor).get("/v1/reservations").then().statusCode(400);
        for (var bad : List.of(Map.of("limit", "0"), Map.of("limit", "201"), Map.of("limit", "abc"), Map.of("status", "held"),
                Map.of("createdFrom", "yesterday"), Map.of("sku", "bad sku"))) {
            api.request().queryParams(bad).get("/v1/reservations").then().statusCode(400).body("type", endsWith("/validation-failed"))
                    .body("violations[0].field", equalTo(bad.keySet().iterator().next()));
        }
    }

    @Test
    void shouldRefuseBadReferenceAndMetadataAndStoreNothing() {
        for (String body : List.of("\"reference\":\"\"", "\"reference\":\"" + "r".repeat(129) + "\"", "\"metadata\":{\"k\":1}",
                "\"metadata\":{\"" + "k".repeat(41) + "\":\"v\"}", "\"metadata\":{\"k\":\"" + "v".repeat(257) + "\"}",
                "\"metadata\":[\"k\"]")) {
            api.reserve(Api.key(), "{\"lines\":[{\"sku\":\"" + sku + "\",\"quantity\":1}]," + body + "}")
                    .then().statusCode(400).body("type", endsWith("/validation-failed"));
        }
        StringBuilder seventeen = new StringBuilder();
        for (int i = 0; i < 17; i++) {
            seventeen.append(i == 0 ? "" : ",").append("\"k").append(i).append("\":\"v\"");
        }
        api.reserve(Api.key(), "{\"lines\":[{\"sku\":\"" + sku + "\",\"quantity\":1}],\"metadata\":{" + seventeen + "}}")
                .then().statusCode(400);
        assertThat(db.queryLong("SELECT count(*) FROM reservations WHERE tenant_id = ?", api.tenant())).isZero();
    }

    @Test
    void shouldFingerprintReferenceAndMetadataButKeepTheV1Fingerprint() {
        String key = Api.key();
        api.reserve(key, "{\"lines\":[{\"sku\":\"" + sku + "\",\"quantity\":1}],\"metadata\":{\"a\":\"1\",\"b\":\"2\"}}").then()
                .statusCode(201);
        api.reserve(key, "{\"metadata\":{\"b\":\"2\",\"a\":\"1\"},\"lines\":[{\"sku\":\"" + sku + "\",\"quantity\":1}]}")
                .then().statusCode(201).header("Idempotent-Replayed", "true");
        api.reserve(key, "{\"lines\":[{\"sku\":\"" + sku + "\",\"quantity\":1}],\"metadata\":{\"a\":\"1\",\"b\":\"3\"}}")
                .then().statusCode(422);
        api.reserve(key, "{\"lines\":[{\"sku\":\"" + sku + "\",\"quantity\":1}]}").then().statusCode(422);
        // a v1 request's fingerprint is what it was before reference and metadata existed
        assertThat(new ReservationRequest(List.of(new ReservationRequest.Line("A-1", 2, null)), 600, null, null, null, null, null, null)
                .fingerprint())
                .isEqualTo(dev.stockhold.idempotency.Fingerprint.of("v1;ttl=600;A-1=2"));
    }

    /**
     * Each list shape on 200,000 reservations (20,000 of this tenant) with fresh statistics: through an index, never a
     * sequential scan or an OFFSET; a shape that matches few rows may sort those few. (In a rolled-back transaction.)
     */
    @Test
    void shouldReadEachListShapeThroughAnIndex() throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try {
                try (PreparedStatement seed = c.prepareStatement("""
                        INSERT INTO reservations (id, tenant_id, status, idempotency_key, created_at, expires_at, updated_at, reference)
                        SELECT gen_random_uuid(), CASE WHEN n % 10 = 0 THEN ? ELSE 'plan-other-' || (n % 7) END,
                               (ARRAY['HELD','CONFIRMED','CANCELLED','EXPIRED'])[1 + n % 4], 'k' || n,
                               now() - n * interval '1 second', now(), now(), 'ref-' || (n % 500)
                          FROM generate_series(1, 200000) n
                        """)) {
                    seed.setString(1, api.tenant());
                    seed.executeUpdate();
                }
                try (Statement s = c.createStatement()) {
                    s.execute("ANALYZE reservations");
                    s.execute("ANALYZE reservation_lines");
                }
                Instant now = Instant.now();
                ReservationQuery.Position position = new ReservationQuery.Position(now.minusSeconds(5_000), UUID.randomUUID());
                List<ReservationQuery> shapes = List.of(
                        query(null, null, null, null, null, null),
                        query(ReservationStatus.HELD, null, null, null, null, position),
                        query(null, null, "ref-10", null, null, null),
                        query(ReservationStatus.CONFIRMED, null, "ref-20", null, null, position),
                        query(null, sku, null, null, null, null),
                        query(null, null, null, now.minusSeconds(90_000), now.minusSeconds(3_600), position));
                for (ReservationQuery shape : shapes) {
                    String plan = explain(c, shape);
                    assertThat(plan).as(shape.sql()).contains("Index").doesNotContain("Seq Scan on reservations")
                            .doesNotContain("OFFSET");
                }
                ReservationQuery byKey = new ReservationQuery(api.tenant(), null, null, null, "k10", null, null, 50, null);
                assertThat(explain(c, byKey)).as("by Idempotency-Key: one probe of each primary key")
                        .contains("idempotency_records_pk").contains("reservations_pk ").doesNotContain("Seq Scan");
                // the whole tenant, newest first: a walk of the index in its order that stops after the page, no sort
                assertThat(explain(c, shapes.get(0))).containsPattern("Index (Only )?Scan using reservations_tenant_created_id_idx")
                        .doesNotContain("Sort");
            } finally {
                c.rollback();
                // the 200,000 rolled-back rows stay behind as dead tuples (autovacuum is off here): a reused test
                // database would slow down run after run until a statement outlives the socket timeout
                c.setAutoCommit(true);
                try (Statement s = c.createStatement()) {
                    s.execute("VACUUM reservations, reservation_lines");
                }
            }
        }
    }

    private ReservationQuery query(ReservationStatus status, String sku, String reference, Instant from, Instant to,
            ReservationQuery.Position after) {
        return new ReservationQuery(api.tenant(), status, sku, reference, null, from, to, 50, after);
    }

    private static String explain(Connection c, ReservationQuery query) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("EXPLAIN " + query.sql())) {
            List<Object> args = query.arguments();
            for (int i = 0; i < args.size(); i++) {
                ps.setObject(i + 1, args.get(i));
            }
            StringBuilder plan = new StringBuilder();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    plan.append(rs.getString(1)).append('\n');
                }
            }
            return plan.toString();
        }
    }

    private List<String> ids(String... filters) {
        var request = api.request();
        for (int i = 0; i < filters.length; i += 2) {
            request.queryParam(filters[i], filters[i + 1]);
        }
        return request.get("/v1/reservations").then().statusCode(200).extract().jsonPath().getList("items.id");
    }
}
