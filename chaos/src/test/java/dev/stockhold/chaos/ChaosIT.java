package dev.stockhold.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import dev.stockhold.chaos.ChaosSettings.Fault;

/**
 * The short chaos run (about 30 s of load, one broker outage, one partition of a replica from PostgreSQL and the
 * broker, one kill -9) in every {@code ./mvnw verify}, so a regression in retries, timeouts, the outbox or the relay
 * fails CI. {@code bash bench/chaos} is the full run. The partition needs root ({@code ip netns}).
 */
class ChaosIT {

    @Test
    void shouldKeepEveryInvariantThroughABrokerOutageAPartitionAndAReplicaKill() throws Exception {
        Assumptions.assumeTrue(PartitionedNetwork.available(), "the partition needs root and ip netns");
        ChaosSettings settings = ChaosSettings.quick();
        ChaosRun.Report report = new ChaosRun(settings).run();
        System.out.println(report.table());

        assertThat(report.failure()).isNull();
        // the run really did something: faults happened, reservations were made, events flowed, retries replayed
        assertThat(report.faults()).containsEntry(Fault.KILL_REPLICA, 1).containsEntry(Fault.STOP_BROKER, 1)
                .containsEntry(Fault.PARTITION, 1);
        assertThat(report.clients().statuses.get(201).sum()).isPositive();
        assertThat(report.clients().noAnswer.sum()).isPositive();
        assertThat(report.result().delivered()).isPositive();
        assertThat(report.result().reservationsByStatus()).containsKeys("HELD", "CONFIRMED", "CANCELLED", "EXPIRED");
        // cut off from PostgreSQL, the replica turned unready and answered 503 + Retry-After, and no request to it hung
        // for the whole cut (JDBC connect and socket timeouts), then it served again
        PartitionWatch.Seen cut = report.partitions().get(0);
        assertThat(cut.unready()).isNotNull();
        assertThat(cut.firstUnavailable()).isNotNull();
        assertThat(cut.readsOther()).isZero();
        assertThat(cut.servingAgain()).isNotNull();
        assertThat(Duration.ofMillis(cut.slowestMillis())).isLessThan(settings.partition());
        assertThat(Duration.ofMillis(report.clients().slowest.get("replica-b").get())).isLessThan(settings.partition());
        // and nothing broke
        assertThat(report.result().missingEvents()).isEmpty();
        assertThat(report.result().violations()).isEmpty();
    }
}
