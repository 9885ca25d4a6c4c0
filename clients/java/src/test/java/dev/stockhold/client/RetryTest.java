package dev.stockhold.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import dev.stockhold.client.ScriptedServer.Reply;
import dev.stockhold.client.model.ReservationRequest;
import dev.stockhold.client.model.ReservationRequestLine;
import dev.stockhold.client.model.SetOnHandRequest;
import dev.stockhold.client.model.StockRecord;

/** The retry policy against a scripted server: what is sent again, with which key, and how a call gives up. */
class RetryTest {

    private static final String RESERVATION = "{\"id\":\"9d3c0e4e-0000-4000-8000-000000000001\",\"status\":\"HELD\",\"lines\":[],"
            + "\"expiresAt\":\"2026-01-01T00:00:00Z\",\"createdAt\":\"2026-01-01T00:00:00Z\"}";
    private static final ReservationRequest REQUEST = ReservationRequest.of(List.of(ReservationRequestLine.of("A-1", 1)));
    private static final RetryPolicy FAST = RetryPolicy.DEFAULT.withBackoff(Duration.ofMillis(1), Duration.ofMillis(5), 2)
            .withAttemptTimeout(Duration.ofMillis(500));

    private static StockholdClient client(ScriptedServer server, RetryPolicy policy) {
        return StockholdClient.builder(server.uri(), () -> "token").retryPolicy(policy).build();
    }

    @Test
    void shouldRetryA503ALostAnswerAndAnInProgressWithTheSameKey() throws Exception {
        try (ScriptedServer server = new ScriptedServer(Reply.problem(503, "service-unavailable", Map.of("Retry-After", "0")), Reply.drop(),
                Reply.problem(409, "idempotency-request-in-progress", Map.of("Retry-After", "0")),
                Reply.json(201, RESERVATION, Map.of("Content-Type", "application/json", "Idempotent-Replayed", "true", "Location",
                        "/v1/reservations/9d3c0e4e-0000-4000-8000-000000000001")))) {
            Answer<?> answer = client(server, FAST).reservations().create(REQUEST);
            assertThat(answer.replayed()).isTrue();
            assertThat(answer.attempts()).isEqualTo(4);
            assertThat(answer.location()).hasPath("/v1/reservations/9d3c0e4e-0000-4000-8000-000000000001");
            assertThat(server.seen).extracting(seen -> seen.headers().get("idempotency-key")).hasSize(4).containsOnly('"' + answer.idempotencyKey() + '"');
            UUID.fromString(answer.idempotencyKey());
        }
    }

    @Test
    void shouldNeverRetryARefusalAndTypeItBySlug() throws Exception {
        try (ScriptedServer server = new ScriptedServer(Reply.problem(422, "idempotency-key-reused", Map.of()))) {
            Problems.IdempotencyKeyReused refused = catchThrowableOfType(() -> client(server, FAST).reservations().create(REQUEST, "order-\"7\""),
                    Problems.IdempotencyKeyReused.class);
            assertThat(refused.problem().detail()).isEqualTo("scripted");
            assertThat(refused.idempotencyKey()).isEqualTo("order-\"7\"");
            assertThat(server.seen).hasSize(1).first().extracting(seen -> seen.headers().get("idempotency-key")).isEqualTo("\"order-\\\"7\\\"\"");
        }
    }

    @Test
    void shouldExplainAShortfallByTheLinesThatCannotBeReserved() throws Exception {
        String availability = "{\"reservable\":false,\"lines\":[{\"sku\":\"A-1\",\"quantity\":1,\"reservable\":false,\"available\":[],"
                + "\"placement\":[],\"shortfall\":1}]}";
        try (ScriptedServer server = new ScriptedServer(Reply.problem(409, "insufficient-stock", Map.of()),
                Reply.json(200, availability, Map.of("Content-Type", "application/json")))) {
            Problems.InsufficientStock refused = catchThrowableOfType(() -> client(server, FAST).reservations().create(REQUEST),
                    Problems.InsufficientStock.class);
            assertThat(refused.skus()).containsExactly("A-1");
            assertThat(refused.shortfall()).containsExactly(new Shortfall("A-1", null, 1, 0, 1));
            assertThat(server.seen.get(1).requestLine()).startsWith("POST /v1/availability");
        }
    }

    @Test
    void shouldWaitWhatRetryAfterSays() throws Exception {
        try (ScriptedServer server = new ScriptedServer(Reply.problem(429, "too-many-requests", Map.of("Retry-After", "1")),
                Reply.json(201, RESERVATION, Map.of("Content-Type", "application/json")))) {
            client(server, FAST).reservations().create(REQUEST);
            long waited = server.seen.get(1).atNanos() - server.seen.get(0).atNanos();
            assertThat(Duration.ofNanos(waited)).as("the wait between the 429 and the retry").isGreaterThanOrEqualTo(Duration.ofMillis(900));
        }
    }

    @Test
    void shouldRepeatEvenAnUnsafeOperationAfterA408() throws Exception {
        try (ScriptedServer server = new ScriptedServer(Reply.problem(408, "request-timeout", Map.of()),
                Reply.json(200, RESERVATION, Map.of("Content-Type", "application/json")))) {
            Answer<?> extended = client(server, FAST).reservations().extend(UUID.fromString("9d3c0e4e-0000-4000-8000-000000000001"), 60);
            assertThat(extended.attempts()).as("the body came too slowly, nothing ran").isEqualTo(2);
        }
    }

    @Test
    void shouldNotRepeatAnUnsafeOperationWhoseAnswerWasLost() throws Exception {
        try (ScriptedServer server = new ScriptedServer(Reply.drop(), Reply.json(200, RESERVATION, Map.of("Content-Type", "application/json")))) {
            OutcomeUnknownException unknown = catchThrowableOfType(
                    () -> client(server, FAST).reservations().extend(UUID.fromString("9d3c0e4e-0000-4000-8000-000000000001"), 60),
                    OutcomeUnknownException.class);
            assertThat(unknown.idempotencyKey()).isNull();
            assertThat(server.seen).hasSize(1);
        }
    }

    @Test
    void shouldReportAnUnknownOutcomeWithItsKeyWhenTheDeadlinePasses() throws Exception {
        Reply busy = Reply.problem(409, "idempotency-request-in-progress", Map.of("Retry-After", "0"));
        try (ScriptedServer server = new ScriptedServer(busy, busy, busy, busy, busy, busy, busy, busy, busy, busy)) {
            OutcomeUnknownException unknown = catchThrowableOfType(
                    () -> client(server, FAST.withMaxAttempts(3)).reservations().create(REQUEST, "settle-me"), OutcomeUnknownException.class);
            assertThat(unknown.idempotencyKey()).isEqualTo("settle-me");
            assertThat(unknown.attempts()).isEqualTo(3);
        }
    }

    @Test
    void shouldStopRetryingWhenTheBudgetIsSpent() throws Exception {
        try (ScriptedServer server = new ScriptedServer(Reply.problem(429, "too-many-requests", Map.of("Retry-After", "0")),
                Reply.json(201, RESERVATION, Map.of("Content-Type", "application/json")))) {
            StockholdClient broke = client(server, FAST.withBudget(0, 0));
            assertThat(catchThrowableOfType(() -> broke.reservations().create(REQUEST), Problems.TooManyRequests.class)).isNotNull();
            assertThat(server.seen).hasSize(1);
            assertThat(broke.stats().refusedRetries()).isEqualTo(1);
        }
    }

    @Test
    void shouldShareTheBudgetWithAClientOfAnotherPolicy() throws Exception {
        try (ScriptedServer server = new ScriptedServer(Reply.problem(429, "too-many-requests", Map.of("Retry-After", "0")),
                Reply.json(201, RESERVATION, Map.of("Content-Type", "application/json")))) {
            StockholdClient patient = client(server, FAST.withBudget(0, 0).withMaxAttempts(1)).with(FAST.withMaxAttempts(10));
            assertThat(catchThrowableOfType(() -> patient.reservations().create(REQUEST), Problems.TooManyRequests.class)).isNotNull();
            assertThat(server.seen).as("more attempts allowed, but no budget to spend on them").hasSize(1);
        }
    }

    @Test
    void shouldCallA412AfterALostCompareAndSetUnknown() throws Exception {
        String record = "{\"sku\":\"A-1\",\"location\":\"default\",\"onHand\":5,\"version\":3}";
        try (ScriptedServer server = new ScriptedServer(Reply.json(200, record, Map.of("Content-Type", "application/json")).after(800),
                Reply.problem(412, "precondition-failed", Map.of()))) {
            StockRecord read = new StockRecord("A-1", "default", 5, 0, 0, 5, 3, null, 0, 0, 5, 0, 0);
            OutcomeUnknownException unknown = catchThrowableOfType(
                    () -> client(server, FAST).stock().setIfUnchanged(read, SetOnHandRequest.of(9)), OutcomeUnknownException.class);
            assertThat(unknown.getCause()).isInstanceOf(Problems.PreconditionFailed.class);
            assertThat(server.seen).extracting(seen -> seen.headers().get("if-match")).containsExactly("\"3\"", "\"3\"");
        }
    }

    @Test
    void shouldNotTakeAnUnreadableAnswerForALostOne() throws Exception {
        try (ScriptedServer server = new ScriptedServer(Reply.json(201, "<html>proxy page</html>", Map.of("Content-Type", "text/html")))) {
            IllegalStateException unreadable = catchThrowableOfType(() -> client(server, FAST).reservations().create(REQUEST),
                    IllegalStateException.class);
            assertThat(unreadable).hasMessageContaining("not a Reservation");
            assertThat(server.seen).hasSize(1);
        }
    }

    @Test
    void shouldSendPathValuesEscapedOnlyWhereTheyMustBe() throws Exception {
        String record = "{\"sku\":\"A:1\",\"location\":\"WH~2 x\",\"onHand\":5,\"version\":3}";
        try (ScriptedServer server = new ScriptedServer(Reply.json(200, record, Map.of("Content-Type", "application/json")))) {
            client(server, FAST).stock().record("A:1", "WH~2 x/é");
            assertThat(server.seen.get(0).requestLine()).startsWith("GET /v1/items/A:1/stock/WH~2%20x%2F%C3%A9 ");
        }
    }

    @Test
    void shouldDrawJitteredWaitsUnderAGrowingCappedBound() {
        RetryPolicy policy = RetryPolicy.DEFAULT.withBackoff(Duration.ofMillis(100), Duration.ofMillis(1000), 2);
        for (int i = 0; i < 200; i++) {
            assertThat(policy.backoff(1)).isBetween(Duration.ZERO, Duration.ofMillis(100));
            assertThat(policy.backoff(3)).isBetween(Duration.ZERO, Duration.ofMillis(400));
            assertThat(policy.backoff(30)).isBetween(Duration.ZERO, Duration.ofMillis(1000));
        }
        assertThat(java.util.stream.IntStream.range(0, 200).mapToObj(i -> policy.backoff(4)).distinct().count()).as("jitter").isGreaterThan(100);
    }
}
