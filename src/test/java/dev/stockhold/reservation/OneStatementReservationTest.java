package dev.stockhold.reservation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.stockhold.idempotency.IdempotencyKey;
import dev.stockhold.idempotency.StoredResponse;
import dev.stockhold.inventory.Allocation;
import dev.stockhold.inventory.StockKey;
import dev.stockhold.outbox.AutocommitEvents;
import dev.stockhold.reservation.OneStatementReservation.Result;
import dev.stockhold.support.Api;
import dev.stockhold.support.Eventually;
import dev.stockhold.support.StockedSku;
import dev.stockhold.support.TenantFixture;
import dev.stockhold.web.ProblemMappers;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;

/**
 * The one-statement write of a new reservation is all or nothing on its own, without a transaction around it: a hold
 * the record no longer covers, or one that would empty it, leaves no key, reservation, line or event behind, and a key
 * already stored writes nothing either.
 */
@QuarkusTest
@StockedSku(5)
class OneStatementReservationTest extends TenantFixture {

    /** The service's clock (moved by other tests): the time the service stamps reservations with. */
    @Inject
    java.time.Clock clock;

    private static final Duration WAIT = Duration.ofSeconds(2);

    @Inject
    OneStatementReservation oneStatement;
    @Inject
    HeldViews views;
    @Inject
    AutocommitEvents events;
    @Inject
    DataSource dataSource;

    @Test
    void shouldWriteTheKeyTheReservationItsLineItsEventAndTheHoldTogether() {
        ReservationAttempt attempt = attempt(2);

        assertThat(write(attempt)).isEqualTo(Result.CREATED);

        assertThat(db.available(api.tenant(), sku)).isEqualTo(3);
        assertThat(db.idempotencyRecords(api.tenant(), attempt.key().value())).isEqualTo(1);
        assertThat(db.reservationsWithKey(api.tenant(), attempt.key().value())).isEqualTo(1);
        assertThat(db.outboxEventsOfTenant(api.tenant())).as("one created event").isEqualTo(1);
        assertThat(db.reservationsWithWrongEventCount(api.tenant())).isZero();
        String body = db.queryStrings("SELECT response_body FROM idempotency_records WHERE tenant_id = ?", api.tenant()).get(0);
        String event = db.queryStrings("SELECT payload FROM outbox_events WHERE tenant_id = ? AND aggregate_id = ?::uuid",
                api.tenant(), db.queryStrings("SELECT id::text FROM reservations WHERE tenant_id = ?", api.tenant()).get(0)).get(0);
        assertThat(event).as("the event's data is the stored answer, byte for byte").endsWith("\"data\":" + body + "}");
    }

    @Test
    void shouldWriteNothingWhenTheRecordNoLongerHasTheUnits() {
        long events = db.outboxEventsOfTenant(api.tenant());
        // placed while 5 were available, then another writer took 4 before the statement ran
        ReservationAttempt attempt = attempt(3);
        db.execute("UPDATE stock_records SET held = held + 4 WHERE tenant_id = ? AND sku = ?", api.tenant(), sku);

        assertThat(write(attempt)).isEqualTo(Result.TRANSACTIONAL_PATH);

        assertNothingWritten(attempt, events);
        assertThat(db.available(api.tenant(), sku)).isEqualTo(1);
    }

    @Test
    void shouldLeaveAHoldThatEmptiesTheRecordToTheTransactionalPath() {
        long events = db.outboxEventsOfTenant(api.tenant());
        ReservationAttempt attempt = attempt(5);

        assertThat(write(attempt)).as("its stock.depleted event is written there").isEqualTo(Result.TRANSACTIONAL_PATH);

        assertNothingWritten(attempt, events);
        assertThat(db.available(api.tenant(), sku)).isEqualTo(5);
    }

    /**
     * A guessed location that is no longer the sku's first record is an answer of the statement, not an error: no
     * exception reaches the caller (the driver throws one for every statement PostgreSQL ends in an ERROR, which its log
     * records with the whole statement), nothing is written, and the key stays free for the request placed again.
     */
    @Test
    void shouldAnswerAStaleGuessWithoutAnErrorAndWriteNothing() {
        long events = db.outboxEventsOfTenant(api.tenant());
        ReservationAttempt attempt = attempt(1);
        ReservationView stale = views.held(attempt.request(), new Allocation.Placed(List.of(new StockKey(sku, "nowhere"))),
                dev.stockhold.Clocks.now(clock));

        assertThat(oneStatement.write(attempt, stale, views.created(stale), WAIT, true)).isEqualTo(Result.MISPLACED);

        assertNothingWritten(attempt, events);
        assertThat(write(attempt)).as("placed again, under the same key").isEqualTo(Result.CREATED);
    }

    @Test
    void shouldWriteNothingForAKeyAlreadyStored() {
        ReservationAttempt attempt = attempt(1);
        assertThat(write(attempt)).isEqualTo(Result.CREATED);
        long events = db.outboxEventsOfTenant(api.tenant());

        assertThat(write(attempt)).isEqualTo(Result.KEY_TAKEN);

        assertThat(db.available(api.tenant(), sku)).isEqualTo(4);
        assertThat(db.reservationsWithKey(api.tenant(), attempt.key().value())).isEqualTo(1);
        assertThat(db.outboxEventsOfTenant(api.tenant())).isEqualTo(events);
    }

    /**
     * A duplicate gives up its key within the short key wait a sku's lane uses, but a request that owns its key waits for
     * a locked record as long as the transactional path would: with one wait for both, the short one would send every
     * request that met a hot record's lock down the transactional path to do its work twice.
     */
    @Test
    void shouldWaitForALockedRecordLongerThanForTheKey() throws Exception {
        ReservationAttempt attempt = attempt(1);
        CompletableFuture<Result> writing;
        try (AutoCloseable held = db.holdStockRow(api.tenant(), sku)) {
            writing = CompletableFuture.supplyAsync(() -> write(attempt, HotSkuGroups.GROUP_KEY_WAIT));
            // the database shows the statement still waiting on the record four key waits after it began
            Eventually.await(WAIT, "the statement waiting on the record past the key wait", () -> db.queryLong("""
                    SELECT count(*) FROM pg_stat_activity
                     WHERE wait_event_type = 'Lock' AND datname = current_database()
                       AND clock_timestamp() - query_start > ? * interval '1 millisecond'""",
                    4 * HotSkuGroups.GROUP_KEY_WAIT.toMillis()) >= 1);
            assertThat(writing).as("still waiting for the record").isNotDone();
        }

        assertThat(writing.get(WAIT.toSeconds(), TimeUnit.SECONDS)).isEqualTo(Result.CREATED);
        assertThat(db.available(api.tenant(), sku)).isEqualTo(4);
    }

    /**
     * The statement is its own commit, so a session that ends while it runs (here: terminated while it waits on the
     * record; in the chaos run: a failover that shut the primary down while the commit waited for the standby) may
     * have committed it. The answer says the outcome is unknown, never "nothing was changed", and a retry with the
     * same key learns the outcome.
     */
    @Test
    void shouldAnswerOutcomeUnknownWhenTheSessionEndsDuringTheStatement() throws Exception {
        String key = Api.key();
        String waiting = """
                FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()
                 AND query LIKE '%AS lock_wait%'""";
        try (AutoCloseable held = db.holdStockRow(api.tenant(), sku)) {
            CompletableFuture<Response> answer = CompletableFuture.supplyAsync(() -> api.reserve(key, sku, 1));
            Eventually.await(WAIT, "the statement waiting on the record", () -> db.queryLong("SELECT count(*) " + waiting) == 1);
            assertThat(db.queryLong("SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) " + waiting)).isEqualTo(1);
            answer.get(WAIT.toSeconds(), TimeUnit.SECONDS).then().statusCode(503).header("Retry-After", "1")
                    .body("detail", equalTo(ProblemMappers.OUTCOME_UNKNOWN));
        }
        api.reserve(key, sku, 1).then().statusCode(201);
        api.reserve(key, sku, 1).then().statusCode(201).header("Idempotent-Replayed", "true");
        assertThat(db.available(api.tenant(), sku)).isEqualTo(4);
    }

    /**
     * Planned once per connection: once the driver has prepared the statement there (from its fifth run), PostgreSQL
     * runs it on the plan made without values, and the settings that ask for that (and close the paths a plan made on
     * small tables could take) end with each statement. Without them PostgreSQL plans it anew on every run (0 plans
     * reused in 300 runs on this machine), and planning is about half of what the statement costs.
     */
    @Test
    void shouldRunOnOnePlanPerConnectionAndLeaveTheConnectionsSettingsAsTheyWere() throws SQLException {
        api.setStock(sku, 100);
        try (Connection c = dataSource.getConnection()) {
            for (int i = 0; i < 8; i++) {
                ReservationAttempt attempt = attempt(1);
                ReservationView held = placed(attempt);
                AutocommitEvents.LeasedRow event = events.opening(api.tenant(), ReservationEvents.created(held), held.createdAt());
                assertThat(oneStatement.writeOn(c, attempt, held, views.created(held), WAIT, true, event).result())
                        .isEqualTo(Result.CREATED);
            }
            try (Statement s = c.createStatement();
                    ResultSet plans = s.executeQuery("SELECT generic_plans, custom_plans FROM pg_prepared_statements "
                            + "WHERE statement LIKE '%stockhold_hold_check%'")) {
                assertThat(plans.next()).as("the statement prepared on this connection").isTrue();
                assertThat(plans.getLong("generic_plans")).as("runs on the plan made once").isPositive();
                assertThat(plans.getLong("custom_plans")).as("runs planned anew").isZero();
            }
            try (Statement s = c.createStatement();
                    ResultSet settings = s.executeQuery("SELECT current_setting('plan_cache_mode'), current_setting('enable_seqscan'),"
                            + " current_setting('enable_hashjoin'), current_setting('enable_mergejoin')")) {
                assertThat(settings.next()).isTrue();
                assertThat(List.of(settings.getString(1), settings.getString(2), settings.getString(3), settings.getString(4)))
                        .as("the connection's own settings afterwards").containsExactly("auto", "on", "on", "on");
            }
        }
        assertThat(db.available(api.tenant(), sku)).isEqualTo(92);
    }

    private void assertNothingWritten(ReservationAttempt attempt, long eventsBefore) {
        assertThat(db.idempotencyRecords(api.tenant(), attempt.key().value())).isZero();
        assertThat(db.reservationsOfTenant(api.tenant())).isZero();
        assertThat(db.queryLong("SELECT count(*) FROM reservation_lines WHERE sku = ?", sku)).isZero();
        assertThat(db.outboxEventsOfTenant(api.tenant())).isEqualTo(eventsBefore);
    }

    private ReservationAttempt attempt(int quantity) {
        ReservationRequest request = new ReservationRequest(List.of(new ReservationRequest.Line(sku, quantity, null)), null, null, null,
                null, null, null, null);
        return new ReservationAttempt(api.tenant(), IdempotencyKey.parse(Api.key()), request.fingerprint(), request);
    }

    private Result write(ReservationAttempt attempt) {
        return write(attempt, WAIT);
    }

    private Result write(ReservationAttempt attempt, Duration keyWait) {
        ReservationView held = placed(attempt);
        StoredResponse created = views.created(held);
        return oneStatement.write(attempt, held, created, keyWait, true);
    }

    private ReservationView placed(ReservationAttempt attempt) {
        return views.held(attempt.request(), new Allocation.Placed(List.of(new StockKey(sku, "default"))),
                dev.stockhold.Clocks.now(clock));
    }
}
