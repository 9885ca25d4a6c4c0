package dev.stockhold.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import dev.stockhold.chaos.ChaosSettings.Fault;

/**
 * The short chaos run (about 30 s of load, one kill -9, one broker outage) in every {@code ./mvnw verify}, so a
 * regression in retries, the outbox or the relay fails CI. {@code bash bench/chaos} is the full run.
 */
class ChaosIT {

    @Test
    void shouldKeepEveryInvariantThroughAReplicaKillAndABrokerOutage() throws Exception {
        ChaosRun.Report report = new ChaosRun(ChaosSettings.quick()).run();
        System.out.println(report.table());

        assertThat(report.failure()).isNull();
        // the run really did something: faults happened, reservations were made, events flowed, retries replayed
        assertThat(report.faults()).containsEntry(Fault.KILL_REPLICA, 1).containsEntry(Fault.STOP_BROKER, 1);
        assertThat(report.clients().statuses.get(201).sum()).isPositive();
        assertThat(report.clients().noAnswer.sum()).isPositive();
        assertThat(report.result().delivered()).isPositive();
        assertThat(report.result().reservationsByStatus()).containsKeys("HELD", "CONFIRMED", "CANCELLED", "EXPIRED");
        // and nothing broke
        assertThat(report.result().missingEvents()).isEmpty();
        assertThat(report.result().violations()).isEmpty();
    }
}
