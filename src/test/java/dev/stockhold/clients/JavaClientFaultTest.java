package dev.stockhold.clients;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

import javax.sql.DataSource;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.stockhold.client.Answer;
import dev.stockhold.client.OutcomeUnknownException;
import dev.stockhold.client.RetryPolicy;
import dev.stockhold.client.StockholdClient;
import dev.stockhold.client.model.AdjustmentRequest;
import dev.stockhold.client.model.Reservation;
import dev.stockhold.client.model.ReservationEdit;
import dev.stockhold.client.model.ReservationRequest;
import dev.stockhold.client.model.ReservationRequestLine;
import dev.stockhold.client.model.SettlementLine;
import dev.stockhold.client.model.SettlementRequest;
import dev.stockhold.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;

/**
 * The Java client against the real service behind a {@link FaultProxy} that loses 30% of the answers: every call
 * acts exactly once ({@link ClientFaults#verify}), and a call whose deadline passes says its outcome is unknown, with
 * the key that a later call settles it with.
 */
@QuarkusTest
class JavaClientFaultTest {

    /** Each attempt waits 0.8 s; a delayed answer comes after 1.5 s (so never). */
    private static final RetryPolicy POLICY = RetryPolicy.DEFAULT.withAttemptTimeout(Duration.ofMillis(800))
            .withBackoff(Duration.ofMillis(20), Duration.ofMillis(200), 2).withMaxAttempts(12);

    @Inject
    DataSource dataSource;

    @Test
    void shouldActOncePerCallWhenThirtyPercentOfAnswersAreLost() throws Exception {
        ClientFaults scenario = new ClientFaults(dataSource);
        try (FaultProxy proxy = new FaultProxy(RestAssured.port, 0.3, Duration.ofMillis(1500), 42)) {
            StockholdClient client = client(proxy, scenario, POLICY);
            int replayed = 0;
            for (int i = 0; i < ClientFaults.RESERVATIONS; i++) {
                Answer<Reservation> held = client.reservations().create(ReservationRequest
                        .of(List.of(ReservationRequestLine.of(scenario.reserved, ClientFaults.quantity(i)))).withReference("call-" + i)
                        .withTtlSeconds(3600));
                replayed += held.replayed() ? 1 : 0;
            }
            for (int i = 0; i < ClientFaults.ADJUSTMENTS; i++) {
                client.stock().adjust(scenario.adjusted, "default", AdjustmentRequest.of(2).withReason("client-test"));
            }
            for (int i = 0; i < ClientFaults.EDITS; i++) {
                Reservation deferred = client.reservations()
                        .create(ReservationRequest.of(List.of(ReservationRequestLine.of(scenario.fulfilled, 4)))
                                .withFulfilment("deferred").withTtlSeconds(3600))
                        .value();
                client.reservations().confirm(deferred.id());
                client.reservations().fulfil(deferred.id(), new SettlementRequest(List.of(SettlementLine.of(scenario.fulfilled, 3))));
                Reservation small = client.reservations()
                        .create(ReservationRequest.of(List.of(ReservationRequestLine.of(scenario.edited, 2)))
                                .withTtlSeconds(3600))
                        .value();
                client.reservations().edit(client.reservations().get(small.id()),
                        new ReservationEdit(List.of(ReservationRequestLine.of(scenario.edited, 5))));
            }
            String made = scenario.verify();
            var stats = client.stats();
            System.out.printf("[clients] java: calls=%d attempts=%d retries=%d replayed reservations=%d; proxy %s; %s%n", stats.calls(),
                    stats.attempts(), stats.retries(), replayed, proxy.summary(), made);
            assertThat(proxy.count(FaultProxy.Fault.DROP_AFTER_COMMIT)).as("answers dropped after the commit").isPositive();
            assertThat(proxy.count(FaultProxy.Fault.DELAY_PAST_TIMEOUT)).as("answers held past the timeout").isPositive();
            assertThat(proxy.count(FaultProxy.Fault.ANSWER_503_AFTER)).as("503s after the commit").isPositive();
            assertThat(stats.retries()).as("retries").isPositive();
            assertThat(replayed).as("reservations answered by a replay of an attempt whose answer was lost").isPositive();
        }
    }

    @Test
    void shouldReportAnUnknownOutcomeWithTheKeyThatSettlesIt() throws Exception {
        ClientFaults scenario = new ClientFaults(dataSource);
        try (FaultProxy proxy = new FaultProxy(RestAssured.port, 0, Duration.ofMillis(1500), 7)) {
            StockholdClient patient = client(proxy, scenario, POLICY);
            StockholdClient hurried = patient.with(POLICY.withDeadline(Duration.ofMillis(2500)));
            ReservationRequest request = ReservationRequest.of(List.of(ReservationRequestLine.of(scenario.reserved, 2)))
                    .withReference("lost-1");
            Reservation deferred = patient.reservations()
                    .create(ReservationRequest.of(List.of(ReservationRequestLine.of(scenario.fulfilled, 4)))
                            .withFulfilment("deferred"))
                    .value();
            patient.reservations().confirm(deferred.id());
            Reservation small = patient.reservations().create(ReservationRequest.of(List.of(ReservationRequestLine.of(scenario.edited, 2))))
                    .value();
            Answer<Reservation> toEdit = patient.reservations().get(small.id());

            proxy.blackHole(true);
            String reserveKey = unknown(() -> hurried.reservations().create(request));
            String adjustKey = unknown(() -> hurried.stock().adjust(scenario.adjusted, "default", AdjustmentRequest.of(5)));
            SettlementRequest three = new SettlementRequest(List.of(SettlementLine.of(scenario.fulfilled, 3)));
            String fulfilKey = unknown(() -> hurried.reservations().fulfil(deferred.id(), three));
            ReservationEdit five = new ReservationEdit(List.of(ReservationRequestLine.of(scenario.edited, 5)));
            String editKey = unknown(() -> hurried.reservations().edit(toEdit, five));
            proxy.blackHole(false);

            assertThat(patient.reservations().create(request, reserveKey).replayed()).as("the reservation settled by its key").isTrue();
            assertThat(patient.stock().adjust(scenario.adjusted, "default", AdjustmentRequest.of(5), adjustKey).replayed()).isTrue();
            assertThat(patient.reservations().fulfil(deferred.id(), three, fulfilKey).replayed()).isTrue();
            Answer<Reservation> edited = patient.reservations().edit(toEdit, five, editKey);
            assertThat(edited.replayed()).isTrue();
            assertThat(scenario.reservationsWithReference("lost-1")).as("reservations of the lost call").isEqualTo(1);
            assertThat(scenario.field(scenario.adjusted, "onHand")).isEqualTo(ClientFaults.STOCK + 5);
            assertThat(scenario.field(scenario.fulfilled, "onHand")).isEqualTo(ClientFaults.STOCK - 3);
            assertThat(edited.value().lines().get(0).quantity()).isEqualTo(5);
            assertThat(scenario.field(scenario.edited, "held")).isEqualTo(5);
        }
    }

    private static String unknown(Runnable call) {
        OutcomeUnknownException unknown = catchThrowableOfType(call::run, OutcomeUnknownException.class);
        assertThat(unknown).as("a call whose every answer is lost").isNotNull();
        assertThat(unknown.idempotencyKey()).as("the key to settle it").isNotBlank();
        UUID.fromString(unknown.idempotencyKey()); // a key the client made
        return unknown.idempotencyKey();
    }

    static StockholdClient client(FaultProxy proxy, ClientFaults scenario, RetryPolicy policy) {
        String token = Tokens.allRoles(scenario.api.tenant());
        return StockholdClient.builder(URI.create(proxy.url()), () -> token).retryPolicy(policy).build();
    }
}
