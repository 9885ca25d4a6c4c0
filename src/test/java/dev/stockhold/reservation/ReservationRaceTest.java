package dev.stockhold.reservation;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Collectors;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.stockhold.support.Api;
import dev.stockhold.support.Management;
import dev.stockhold.support.MovableClock;
import dev.stockhold.support.NaiveReadThenWrite;
import dev.stockhold.support.Race;
import dev.stockhold.support.TenantFixture;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;

/** Races coordinated with barriers; every scenario asserts the rows, not only the status codes. */
@QuarkusTest
class ReservationRaceTest extends TenantFixture {

    static final int RACERS = 16;

    @Inject
    ReservationExpiryJob expiry;

    @Test
    void shouldGiveTheLastUnitToExactlyOneOfManyConcurrentRequests() {
        String sku = Api.sku();
        api.setStock(sku, 1);

        List<Integer> statuses = Race.run(RACERS, i -> api.reserve(Api.key(), sku, 1).statusCode());

        assertThat(statuses).filteredOn(s -> s == 201).hasSize(1);
        assertThat(statuses).filteredOn(s -> s == 409).hasSize(RACERS - 1);
        assertThat(db.available(api.tenant(), sku)).isZero();
        assertThat(db.reservationsOfTenant(api.tenant())).isEqualTo(1);
        assertThat(db.outboxEventsOfTenant(api.tenant())).isEqualTo(1);
    }

    /**
     * A hot sku: requests that queue behind one another are committed in groups with one decrement of their sum
     * (HotSkuGroups#commit). The stock still goes to exactly as many requests as it has units: groups whose sum
     * is there commit whole, the group whose sum is not falls back to one request at a time.
     */
    @Test
    void shouldSellAHotSkuExactlyOnceEvenWhenRequestsAreGrouped() {
        String sku = Api.sku();
        int stock = 40;
        int racers = 96;
        api.setStock(sku, stock);
        double groupedBefore = groupedReservations();

        List<Response> responses = Race.run(racers, i -> api.reserve(Api.key(), sku, 1));

        List<Integer> statuses = responses.stream().map(Response::statusCode).toList();
        assertThat(statuses).filteredOn(s -> s == 201).hasSize(stock);
        assertThat(statuses).filteredOn(s -> s == 409).hasSize(racers - stock);
        assertThat(responses).filteredOn(r -> r.statusCode() == 201).extracting(r -> r.path("id")).doesNotHaveDuplicates();
        assertThat(db.available(api.tenant(), sku)).isZero();
        assertThat(db.reservationsOfTenant(api.tenant())).isEqualTo(stock);
        assertThat(db.heldOrConfirmed(api.tenant(), sku)).isEqualTo(stock);
        assertThat(db.outboxEventsOfTenant(api.tenant())).isEqualTo(stock);
        assertThat(db.idempotencyRecordsOfTenant(api.tenant())).isEqualTo(racers);
        assertThat(groupedReservations()).as("some requests were committed in groups").isGreaterThan(groupedBefore);
    }

    /**
     * Retries racing their originals on a hot sku: eight keys, twelve requests each. Eight reservations exist
     * afterwards, and only they count as reservations committed in groups; replays answered inside a group do not.
     */
    @Test
    void shouldCountOnlyNewReservationsAsGroupedNotTheReplaysInAGroup() {
        String sku = Api.sku();
        api.setStock(sku, 1000);
        List<String> keys = java.util.stream.IntStream.range(0, 8).mapToObj(i -> Api.key()).toList();
        double groupedBefore = groupedReservations();

        List<Response> responses = Race.run(96, i -> api.reserve(keys.get(i % keys.size()), sku, 1));

        assertThat(responses).extracting(Response::statusCode).containsOnly(201);
        assertThat(responses.stream().map(r -> r.path("id").toString()).distinct()).hasSize(8);
        assertThat(db.reservationsOfTenant(api.tenant())).isEqualTo(8);
        assertThat(groupedReservations() - groupedBefore).as("reservations counted as grouped").isLessThanOrEqualTo(8);
    }

    private static double groupedReservations() {
        String metrics = Management.given().get("/q/metrics").then().statusCode(200).extract().asString();
        return metrics.lines().filter(l -> l.startsWith("stockhold_reservations_grouped_total"))
                .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
    }

    /** The detector is real: the same race against a read-then-write decrement oversells. */
    @Test
    void shouldCatchTheOversellOfANaiveReadThenWriteDecrement() {
        String sku = Api.sku();
        api.setStock(sku, 1);
        NaiveReadThenWrite naive = new NaiveReadThenWrite(dataSource, RACERS);

        List<Boolean> won = Race.run(RACERS, i -> naive.reserve(api.tenant(), sku, 1));

        // the rule the service holds to above (I2): every unit promised is held by the record, and no more than on hand.
        // Every racer read available=1 before any wrote, so more than one was promised the single unit, and the
        // record's last write holds one of them
        long promised = won.stream().filter(w -> w).count();
        long held = db.queryLong("SELECT held FROM stock_records WHERE tenant_id = ? AND sku = ? AND location = 'default'",
                api.tenant(), sku);
        assertThat(promised).as("units promised against 1 on hand and %d held by the record", held).isGreaterThan(held);
    }

    @Test
    void shouldExecuteConcurrentRequestsWithTheSameKeyOnce() {
        String sku = Api.sku();
        api.setStock(sku, 100);
        String key = Api.key();

        List<Response> responses = Race.run(RACERS, i -> api.reserve(key, sku, 3));

        List<Integer> statuses = responses.stream().map(Response::statusCode).toList();
        assertThat(statuses).allMatch(s -> s == 201 || s == 409);
        assertThat(responses).filteredOn(r -> r.statusCode() == 201 && r.header("Idempotent-Replayed") == null).hasSize(1);
        assertThat(responses).filteredOn(r -> r.statusCode() == 409)
                .allMatch(r -> r.path("type").toString().endsWith("/idempotency-request-in-progress")
                        && r.header("Retry-After") != null);
        List<String> ids = responses.stream().filter(r -> r.statusCode() == 201).map(r -> r.<String>path("id")).distinct().toList();
        assertThat(ids).hasSize(1);
        assertThat(db.available(api.tenant(), sku)).isEqualTo(97);
        assertThat(db.reservationsWithKey(api.tenant(), key)).isEqualTo(1);
        assertThat(db.outboxEventsOfTenant(api.tenant())).isEqualTo(1);
    }

    @Test
    void shouldNotDeadlockWhenCartsNameTheSameSkusInOppositeOrder() {
        String a = Api.sku();
        String b = Api.sku();
        api.setStock(a, 1_000);
        api.setStock(b, 1_000);
        String ab = "{\"lines\":[{\"sku\":\"" + a + "\",\"quantity\":1},{\"sku\":\"" + b + "\",\"quantity\":1}]}";
        String ba = "{\"lines\":[{\"sku\":\"" + b + "\",\"quantity\":1},{\"sku\":\"" + a + "\",\"quantity\":1}]}";
        int rounds = 5;

        List<Integer> statuses = new ArrayList<>();
        for (int round = 0; round < rounds; round++) {
            statuses.addAll(Race.run(RACERS, i -> api.reserve(Api.key(), i % 2 == 0 ? ab : ba).statusCode()));
        }

        assertThat(statuses).hasSize(RACERS * rounds).containsOnly(201);
        assertThat(db.available(api.tenant(), a)).isEqualTo(1_000 - RACERS * rounds);
        assertThat(db.available(api.tenant(), b)).isEqualTo(1_000 - RACERS * rounds);
    }

    @Test
    void shouldLetExactlyOneOfConfirmAndCancelWin() {
        String sku = Api.sku();
        api.setStock(sku, 100);
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < RACERS / 2; i++) {
            ids.add(api.reserve(Api.key(), sku, 2).path("id"));
        }

        List<Integer> statuses = Race.run(RACERS, i -> {
            String id = ids.get(i / 2);
            return (i % 2 == 0 ? api.confirm(id) : api.cancel(id)).statusCode();
        });

        long confirmed = 0;
        for (int r = 0; r < ids.size(); r++) {
            assertThat(List.of(statuses.get(2 * r), statuses.get(2 * r + 1))).containsExactlyInAnyOrder(200, 409);
            String status = db.status(ids.get(r));
            assertThat(status).isEqualTo(statuses.get(2 * r) == 200 ? "CONFIRMED" : "CANCELLED");
            confirmed += "CONFIRMED".equals(status) ? 1 : 0;
        }
        assertThat(db.available(api.tenant(), sku)).isEqualTo(100 - (ids.size() * 2L) + (ids.size() - confirmed) * 2);
        assertThat(db.reservationsWithWrongEventCount(api.tenant())).isZero();
    }

    @Test
    void shouldLetExactlyOneOfExpiryAndCancelWinAndReturnStockOnce() {
        String sku = Api.sku();
        api.setStock(sku, 100);
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < RACERS; i++) {
            ids.add(api.reserve(Api.key(), "{\"lines\":[{\"sku\":\"" + sku + "\",\"quantity\":1}],\"ttlSeconds\":1}").path("id"));
        }
        assertThat(db.available(api.tenant(), sku)).isEqualTo(100 - RACERS);
        MovableClock.advance(Duration.ofMillis(1_100));

        // RACERS cancels against two expiry runs, all released at once
        List<Integer> statuses = Race.run(RACERS + 2, i -> i < RACERS ? api.cancel(ids.get(i)).statusCode() : expiry.expireDue());

        for (int i = 0; i < RACERS; i++) {
            String status = db.status(ids.get(i));
            assertThat(status).isIn("CANCELLED", "EXPIRED");
            assertThat(statuses.get(i)).isEqualTo("CANCELLED".equals(status) ? 200 : 409);
        }
        assertThat(db.available(api.tenant(), sku)).isEqualTo(100);
        assertThat(db.reservationsWithWrongEventCount(api.tenant())).isZero();
    }

    /** I1, I2 and I4 after a randomized concurrent mix of reserve, confirm, cancel and expire. */
    @Test
    void shouldConserveStockUnderARandomConcurrentMix() {
        List<String> skus = List.of(Api.sku(), Api.sku(), Api.sku(), Api.sku());
        Map<String, Long> initial = skus.stream().collect(Collectors.toMap(s -> s, s -> 40L));
        initial.forEach(api::setStock);
        int operationsPerRacer = 25;

        Race.run(RACERS, racer -> {
            ThreadLocalRandom random = ThreadLocalRandom.current();
            List<String> mine = new ArrayList<>();
            for (int op = 0; op < operationsPerRacer; op++) {
                int dice = random.nextInt(10);
                if (dice < 5 || mine.isEmpty()) {
                    String first = skus.get(random.nextInt(skus.size()));
                    String second = skus.get(random.nextInt(skus.size()));
                    String body = "{\"lines\":[{\"sku\":\"" + first + "\",\"quantity\":" + (1 + random.nextInt(3)) + "}"
                            + (first.equals(second) ? "" : ",{\"sku\":\"" + second + "\",\"quantity\":" + (1 + random.nextInt(3)) + "}")
                            + "],\"ttlSeconds\":" + (random.nextBoolean() ? 1 : 600) + "}";
                    Response r = api.reserve(Api.key(), body);
                    if (r.statusCode() == 201) {
                        mine.add(r.path("id"));
                    }
                } else if (dice < 7) {
                    api.confirm(mine.get(random.nextInt(mine.size())));
                } else if (dice < 9) {
                    api.cancel(mine.get(random.nextInt(mine.size())));
                } else {
                    // time passes while the others write: holds of 1 s run out mid-race
                    MovableClock.advance(Duration.ofMillis(100));
                    expiry.expireDue();
                }
            }
            return mine.size();
        });
        MovableClock.advance(Duration.ofMillis(1_100));
        expiry.expireDue();

        for (String sku : skus) {
            long available = db.available(api.tenant(), sku);
            assertThat(available).isGreaterThanOrEqualTo(0);
            assertThat(available + db.heldOrConfirmed(api.tenant(), sku)).as("conservation of %s", sku).isEqualTo(initial.get(sku));
        }
        assertThat(db.reservationsWithWrongEventCount(api.tenant())).isZero();
    }
}
