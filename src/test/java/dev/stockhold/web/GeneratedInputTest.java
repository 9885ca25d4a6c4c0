package dev.stockhold.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import javax.sql.DataSource;

import jakarta.inject.Inject;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import dev.stockhold.support.Api;
import dev.stockhold.support.Db;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;

/**
 * Generated hostile input (a seeded random table, reproducible): mutated bodies, keys and skus. Properties: never a
 * 5xx, always problem+json on a 4xx, and a 4xx changes nothing.
 */
@QuarkusTest
class GeneratedInputTest {

    static final long SEED = 20261129L;
    static final String[] VALUES = { "null", "true", "-1", "0", "1", "1.5", "1e3", "99999999999999999999", "\"1\"", "\"\"",
            "[]", "{}", "\"A-1\"", "\"\\u0000\"", "\"' OR 1=1 --\"", "\"\u0410-1\"", "\"" + "x".repeat(300) + "\"", "[1,2]",
            "{\"sku\":\"A-1\"}", "-0", "1E400", "\"\uD83D\uDE00\"" };

    @Inject
    DataSource dataSource;

    static Stream<Arguments> cases() {
        Random random = new Random(SEED);
        return IntStream.range(0, 150).mapToObj(i -> Arguments.of(i, body(random), key(random)));
    }

    private static String body(Random random) {
        String sku = random.nextInt(4) == 0 ? VALUES[random.nextInt(VALUES.length)] : "\"GEN-1\"";
        String quantity = random.nextInt(3) == 0 ? VALUES[random.nextInt(VALUES.length)] : String.valueOf(random.nextInt(5));
        String ttl = random.nextInt(3) == 0 ? ",\"ttlSeconds\":" + VALUES[random.nextInt(VALUES.length)] : "";
        String line = "{\"sku\":" + sku + ",\"quantity\":" + quantity + "}";
        List<String> shapes = new ArrayList<>(List.of(
                "{\"lines\":[" + line + "]" + ttl + "}",
                "{\"lines\":" + VALUES[random.nextInt(VALUES.length)] + ttl + "}",
                "{\"lines\":[" + line + "," + line + "]}",
                "{\"lines\":[" + line + "]," + "\"" + "k".repeat(random.nextInt(5)) + "\":1}",
                line,
                "{\"lines\":[" + line + "]",
                VALUES[random.nextInt(VALUES.length)]));
        return shapes.get(random.nextInt(shapes.size()));
    }

    private static String key(Random random) {
        return switch (random.nextInt(6)) {
            case 0 -> "";
            case 1 -> "k".repeat(200 + random.nextInt(100));
            case 2 -> "key with spaces";
            case 3 -> "k\u00e9y";
            default -> Api.key();
        };
    }

    @ParameterizedTest(name = "case {0}: {1}")
    @MethodSource("cases")
    void shouldNeverFailOnTheServerAndNeverChangeStateOnARefusal(int index, String body, String key) {
        Db db = new Db(dataSource);
        Api api = Api.newTenant();
        api.setStock("GEN-1", 10);

        Response response = api.reserve(key, body);

        assertThat(response.statusCode()).as("case %d", index).isLessThan(500);
        if (response.statusCode() >= 400) {
            assertThat(response.contentType()).startsWith("application/problem+json");
            if (response.statusCode() != 409) {
                assertThat(db.available(api.tenant(), "GEN-1")).isEqualTo(10);
                assertThat(db.reservationsOfTenant(api.tenant())).isZero();
                assertThat(db.outboxEventsOfTenant(api.tenant())).isZero();
            }
        } else {
            assertThat(response.statusCode()).isEqualTo(201);
            assertThat(db.reservationsOfTenant(api.tenant())).isEqualTo(1);
        }
    }
}
