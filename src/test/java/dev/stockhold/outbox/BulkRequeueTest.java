package dev.stockhold.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;

import java.sql.SQLException;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.stockhold.support.Api;
import dev.stockhold.support.TenantFixture;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/** POST /v1/admin/outbox/dead/requeue over 10,000 dead events: filters, batches, tenant scope, bad input. */
@QuarkusTest
@TestProfile(ManualRelayProfile.class)
class BulkRequeueTest extends TenantFixture {

    private static final int DEAD = 10_000;

    Api other;

    @BeforeEach
    void setUp() throws SQLException {
        other = Api.newTenant();
        // half created, half confirmed events; the i-th written i seconds ago
        db.execute("""
                INSERT INTO outbox_events (id, tenant_id, aggregate_id, event_type, payload, status, attempts, last_error, created_at)
                SELECT gen_random_uuid(), ?, gen_random_uuid(),
                       CASE WHEN n % 2 = 0 THEN 'dev.stockhold.reservation.created.v1' ELSE 'dev.stockhold.reservation.confirmed.v1' END,
                       '{}', 'DEAD', 10, 'nack: test', now() - n * interval '1 second'
                  FROM generate_series(1, ?) n
                """, api.tenant(), DEAD);
        db.execute("""
                INSERT INTO outbox_events (id, tenant_id, aggregate_id, event_type, payload, status, attempts, created_at)
                SELECT gen_random_uuid(), ?, gen_random_uuid(), 'dev.stockhold.reservation.created.v1', '{}', 'DEAD', 10, now()
                  FROM generate_series(1, 100)
                """, other.tenant());
    }

    /** 10,000 requeued events would otherwise wait, pending, in front of the next test's events (no relay runs here). */
    @AfterEach
    void removeTheseTenantsEvents() {
        db.execute("DELETE FROM outbox_events WHERE tenant_id IN (?, ?)", api.tenant(), other.tenant());
    }

    @Test
    void shouldRequeueEveryMatchingDeadEventOfTheTenantAndNothingElse() {
        // confirmed events written between 2,000 and 5,000 seconds ago (since inclusive, until exclusive)
        String window = """
                {"type":"dev.stockhold.reservation.confirmed.v1","since":"%s","until":"%s"}
                """.formatted(java.time.Instant.now().minusSeconds(5_000), java.time.Instant.now().minusSeconds(2_000));
        int filtered = api.request().contentType("application/json").body(window).post("/v1/admin/outbox/dead/requeue")
                .then().statusCode(200).extract().path("requeued");
        assertThat(filtered).isBetween(1_498, 1_502);
        assertThat(pending(api)).isEqualTo(filtered);
        assertThat(db.queryLong("SELECT count(*) FROM outbox_events WHERE tenant_id = ? AND status = 'PENDING' AND event_type <> ?",
                api.tenant(), "dev.stockhold.reservation.confirmed.v1")).isZero();

        api.request().post("/v1/admin/outbox/dead/requeue").then().statusCode(200).body("requeued", equalTo(DEAD - filtered));

        assertThat(pending(api)).isEqualTo(DEAD);
        assertThat(db.queryLong("SELECT count(*) FROM outbox_events WHERE tenant_id = ? AND (attempts <> 0 OR status <> 'PENDING')",
                api.tenant())).as("a fresh attempt budget for each").isZero();
        assertThat(db.queryLong("SELECT count(*) FROM outbox_events WHERE tenant_id = ? AND status = 'DEAD'", other.tenant()))
                .as("another tenant's dead events").isEqualTo(100);
        api.request().post("/v1/admin/outbox/dead/requeue").then().statusCode(200).body("requeued", equalTo(0));
    }

    @Test
    void shouldRefuseABrokenFilterAndRequeueNothing() {
        api.request().contentType("application/json").body("{\"since\":\"yesterday\"}").post("/v1/admin/outbox/dead/requeue")
                .then().statusCode(400).body("type", endsWith("/validation-failed")).body("violations[0].field", equalTo("since"));
        api.request().contentType("application/json").body("{\"kind\":\"all\"}").post("/v1/admin/outbox/dead/requeue")
                .then().statusCode(400).body("type", endsWith("/validation-failed"));
        api.request().contentType("application/json").body("{\"type\":").post("/v1/admin/outbox/dead/requeue")
                .then().statusCode(400).body("type", endsWith("/malformed-request"));
        api.request().get("/v1/admin/outbox/dead?limit=abc")
                .then().statusCode(400).body("type", endsWith("/validation-failed")).body("violations[0].field", equalTo("limit"));
        api.request().get("/v1/admin/outbox/dead?limit=0").then().statusCode(400);
        api.request().get("/v1/admin/outbox/dead?limit=3").then().statusCode(200).body("size()", equalTo(3));

        assertThat(pending(api)).isZero();
    }

    private long pending(Api tenant) {
        return db.queryLong("SELECT count(*) FROM outbox_events WHERE tenant_id = ? AND status = 'PENDING'", tenant.tenant());
    }
}
