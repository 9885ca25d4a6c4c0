package dev.stockhold.reservation;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import javax.sql.DataSource;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.stockhold.support.Api;
import dev.stockhold.support.Db;
import dev.stockhold.support.Management;
import dev.stockhold.support.Race;
import dev.stockhold.support.ServerLog;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;

/**
 * Overload of the reservation path: more requests at once than the replica admits (a limit of 4 here) while the ones
 * admitted are slow (their stock row is held by another transaction). The excess is shed at once with 503 and
 * Retry-After, before any work, and stores nothing; no request gets a 500; retries of the shed keys succeed once the
 * replica has room.
 */
@QuarkusTest
@TestProfile(ReservationAdmissionTest.SmallLimit.class)
class ReservationAdmissionTest {

    public static class SmallLimit implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("stockhold.limits.adaptive-reservations", "true",
                    "stockhold.limits.reservations-initial-limit", "4",
                    "stockhold.limits.reservations-max-limit", "4");
        }
    }

    @Inject
    DataSource dataSource;

    @Test
    void shouldShedWhatItCannotAdmitAtOnceWithRetryAfterAndStoreNothingForIt() throws Exception {
        Db db = new Db(dataSource);
        Api api = Api.newTenant();
        String sku = Api.sku();
        api.setStock(sku, 100);
        List<String> keys = IntStream.range(0, 24).mapToObj(i -> Api.key()).toList();

        List<Response> answers;
        String serverErrors;
        try (ServerLog log = ServerLog.open(); AutoCloseable held = db.holdStockRow(api.tenant(), sku)) {
            answers = Race.run(keys.size(), i -> api.reserve(keys.get(i), sku, 1));
            serverErrors = log.errorsText();
        }

        List<Response> shed = answers.stream().filter(r -> r.statusCode() == 503
                && r.path("detail").toString().contains("concurrency limit")).toList();
        assertThat(answers).extracting(Response::statusCode).as("statuses; the server logged these errors: %s", serverErrors)
                .isSubsetOf(201, 503);
        assertThat(shed).as("requests shed by the limit").hasSizeGreaterThanOrEqualTo(keys.size() - 4);
        assertThat(shed).allSatisfy(r -> assertThat(r.header("Retry-After")).isEqualTo("1"));
        // a shed request did nothing: its key is free, so its retry is a first execution
        for (int i = 0; i < keys.size(); i++) {
            if (shed.contains(answers.get(i))) {
                assertThat(db.idempotencyRecords(api.tenant(), keys.get(i))).isZero();
            }
        }
        for (String key : keys) {
            api.reserve(key, sku, 1).then().statusCode(201);
        }
        assertThat(db.reservationsOfTenant(api.tenant())).isEqualTo(keys.size());
        assertThat(Management.given().get("/q/metrics").asString()).contains("stockhold_reservations_limit{");
    }
}
