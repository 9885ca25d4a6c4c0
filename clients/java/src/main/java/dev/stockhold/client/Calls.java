package dev.stockhold.client;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.stockhold.client.model.Problem;

/**
 * Sends a {@link Request} until it has an answer it can give: one policy ({@link RetryPolicy}) for every operation,
 * with what may be repeated decided by the operation's {@link Operation.Retry}. Every attempt of a call carries the
 * same Idempotency-Key and If-Match.
 */
final class Calls {

    private final HttpClient http;
    private final URI base;
    private final Supplier<String> token;
    private final RetryPolicy policy;
    private final RetryBudget budget;
    private final ObjectMapper json;
    private final AtomicLong calls = new AtomicLong();
    private final AtomicLong attempts = new AtomicLong();

    Calls(HttpClient http, URI base, Supplier<String> token, RetryPolicy policy, ObjectMapper json) {
        this(http, base, token, policy, new RetryBudget(policy.budgetRatio(), policy.budgetPerSecond()), json);
    }

    private Calls(HttpClient http, URI base, Supplier<String> token, RetryPolicy policy, RetryBudget budget, ObjectMapper json) {
        this.http = http;
        this.base = base;
        this.token = token;
        this.policy = policy;
        this.budget = budget;
        this.json = json;
    }

    /** The same connections and retry budget under another policy (its budget settings are the first one's). */
    Calls with(RetryPolicy other) {
        return new Calls(http, base, token, other, budget, json);
    }

    <T> Answer<T> send(Request request, Class<T> type) {
        calls.incrementAndGet();
        budget.deposit();
        Instant deadline = Instant.now().plus(policy.deadline());
        Attempts tried = new Attempts(request);
        byte[] body = body(request);
        for (int attempt = 1;; attempt++) {
            attempts.incrementAndGet();
            Duration wait;
            try {
                HttpResponse<String> response = http.send(httpRequest(request, body, remaining(deadline)), HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() < 300) {
                    return answer(request, response, type, attempt);
                }
                ProblemException problem = ProblemException.of(problem(response), request.idempotencyKey(), attempt);
                wait = tried.refused(problem, retryAfter(response).orElse(policy.backoff(attempt)));
            } catch (HttpConnectTimeoutException | ConnectException e) {
                wait = tried.notSent(e, policy.backoff(attempt));
            } catch (IOException e) {
                wait = tried.lost(e, attempt, policy.backoff(attempt));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw tried.giveUp(attempt);
            }
            if (attempt >= policy.maxAttempts() || Instant.now().plus(wait).isAfter(deadline) || !budget.tryWithdraw()) {
                throw tried.giveUp(attempt);
            }
            sleep(wait, tried, attempt);
        }
    }

    private static void sleep(Duration wait, Attempts tried, int attempt) {
        try {
            Thread.sleep(wait.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw tried.giveUp(attempt);
        }
    }

    private Duration remaining(Instant deadline) {
        Duration left = Duration.between(Instant.now(), deadline);
        Duration timeout = left.compareTo(policy.attemptTimeout()) < 0 ? left : policy.attemptTimeout();
        return timeout.isNegative() || timeout.isZero() ? Duration.ofMillis(1) : timeout;
    }

    /** The JSON body, written once for every attempt; a body Jackson cannot write is the caller's error, not a retry. */
    private byte[] body(Request request) {
        try {
            return request.body() == null ? null : json.writeValueAsBytes(request.body());
        } catch (IOException e) {
            throw new IllegalArgumentException("the request body cannot be written as JSON: " + e.getMessage(), e);
        }
    }

    private HttpRequest httpRequest(Request request, byte[] body, Duration timeout) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(base.resolve(request.target())).timeout(timeout)
                .header("Accept", "application/json, application/problem+json");
        String bearer = token.get();
        if (bearer != null) {
            builder.header("Authorization", "Bearer " + bearer);
        }
        if (request.idempotencyKey() != null) {
            builder.header("Idempotency-Key", Keys.header(request.idempotencyKey()));
        }
        if (request.ifMatch() != null) {
            builder.header("If-Match", '"' + request.ifMatch() + '"');
        }
        if (body != null) {
            builder.header("Content-Type", "application/json");
            builder.method(request.operation().method(), HttpRequest.BodyPublishers.ofByteArray(body));
        } else {
            builder.method(request.operation().method(), HttpRequest.BodyPublishers.noBody());
        }
        return builder.build();
    }

    /** The answer; a 2xx body that is not the operation's type is an error of the service, never a lost answer to retry. */
    private <T> Answer<T> answer(Request request, HttpResponse<String> response, Class<T> type, int attempt) {
        T value;
        try {
            value = type == null || response.body().isEmpty() ? null : json.readValue(response.body(), type);
        } catch (IOException e) {
            throw new IllegalStateException(request.operation() + ": the " + response.statusCode() + " answer is not a " + type.getSimpleName(), e);
        }
        String etag = response.headers().firstValue("ETag").map(Calls::version).orElse(null);
        boolean replayed = response.headers().firstValue("Idempotent-Replayed").map("true"::equalsIgnoreCase).orElse(false);
        URI location = response.headers().firstValue("Location").map(base::resolve).orElse(null);
        return new Answer<>(value, response.statusCode(), etag, replayed, request.idempotencyKey(), location, attempt);
    }

    private Problem problem(HttpResponse<String> response) {
        if (response.headers().firstValue("Content-Type").orElse("").startsWith("application/problem+json")) {
            try {
                return json.readValue(response.body(), Problem.class);
            } catch (IOException e) {
                // not a problem document after all: described below from the status
            }
        }
        String detail = response.body().length() > 200 ? response.body().substring(0, 200) : response.body();
        return new Problem("about:blank", "HTTP " + response.statusCode(), response.statusCode(), detail, List.of(), List.of());
    }

    /** {@code Retry-After} in seconds or as an HTTP date, when the answer gave one. */
    static Optional<Duration> retryAfter(HttpResponse<?> response) {
        return response.headers().firstValue("Retry-After").map(String::trim).flatMap(value -> {
            try {
                return Optional.of(Duration.ofSeconds(Math.max(0, Long.parseLong(value))));
            } catch (NumberFormatException notSeconds) {
                try {
                    Instant at = ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
                    Duration wait = Duration.between(Instant.now(), at);
                    return Optional.of(wait.isNegative() ? Duration.ZERO : wait);
                } catch (RuntimeException notDate) {
                    return Optional.empty();
                }
            }
        });
    }

    private static String version(String etag) {
        String value = etag.startsWith("W/") ? etag.substring(2) : etag;
        return value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"") ? value.substring(1, value.length() - 1) : value;
    }

    /** Calls sent, attempts made, retries spent and refused by the budget: what the client has done so far. */
    ClientStats stats() {
        return new ClientStats(calls.get(), attempts.get(), budget.spent(), budget.refused());
    }
}
