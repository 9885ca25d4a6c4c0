package dev.stockhold.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * The partition's forwarders take free ports: a machine where another service already listens on every address at
 * the port a fixed rule would pick (RabbitMQ's management plugin holds 15672 = 5672 + 10000) still gets its namespace,
 * and the forwarder reaches the service behind it.
 */
class PartitionedNetworkTest {

    @Test
    void shouldForwardThroughAFreePortEvenWhereTheDerivedPortIsTaken() throws Exception {
        assumeTrue(PartitionedNetwork.available(), "needs root and ip netns");
        ServerSocket broker = null;
        ServerSocket squatter = null;
        for (int attempt = 0; attempt < 50 && squatter == null; attempt++) {
            ServerSocket candidate = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            int derived = candidate.getLocalPort() + 10_000;
            squatter = derived <= 65_535 ? holdOnEveryAddress(derived) : null;
            if (squatter != null) {
                broker = candidate;
            } else {
                candidate.close();
            }
        }
        assumeTrue(broker != null, "no port pair found");
        try (ServerSocket target = broker;
                ServerSocket held = squatter;
                PartitionedNetwork network = PartitionedNetwork.create(List.of(), target.getLocalPort())) {
            int forwarded = network.forwarded(target.getLocalPort());
            assertThat(forwarded).isNotEqualTo(held.getLocalPort());
            try (Socket client = new Socket(PartitionedNetwork.Link.BROKER.outside, forwarded); Socket accepted = target.accept()) {
                client.getOutputStream().write(42);
                client.getOutputStream().flush();
                assertThat(accepted.getInputStream().read()).isEqualTo(42);
            }
        }
    }

    /** A socket on the port on every address, as the management plugin holds it; null when that port is busy. */
    private static ServerSocket holdOnEveryAddress(int port) throws IOException {
        ServerSocket squatter = new ServerSocket();
        try {
            squatter.bind(new InetSocketAddress(port));
            return squatter;
        } catch (IOException e) {
            squatter.close();
            return null;
        }
    }
}
