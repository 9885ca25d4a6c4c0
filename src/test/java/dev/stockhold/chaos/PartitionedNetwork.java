package dev.stockhold.chaos;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A network namespace for one replica, joined to the machine by three veth pairs in the benchmarking range
 * 198.18.0.0/15: one link its clients use, one to PostgreSQL and one to the broker. Cutting a link
 * ({@code ip link set DEV down} on the machine's end) drops every packet on it without an error, as a failed switch or
 * a partitioned zone does: connections through it hang rather than fail. Healing brings the link up again.
 *
 * <p>
 * PostgreSQL and RabbitMQ listen on loopback only here, so the machine's end of the database and broker links runs a
 * {@link TcpForwarder} to them. Needs root ({@code ip netns}).
 */
final class PartitionedNetwork implements AutoCloseable {

    /** One link between the namespace and the machine. */
    enum Link {
        CLIENTS("shc", "198.18.0.1", "198.18.0.2"),
        DATABASE("shd", "198.18.0.5", "198.18.0.6"),
        BROKER("shm", "198.18.0.9", "198.18.0.10");

        final String device;
        /** The machine's address on the link. */
        final String outside;
        /** The replica's address on the link. */
        final String inside;

        Link(String device, String outside, String inside) {
            this.device = device;
            this.outside = outside;
            this.inside = inside;
        }
    }

    static final String NAMESPACE = "stockhold-chaos";

    private final List<TcpForwarder> forwarders = new ArrayList<>();
    /** Loopback port -> the port its forwarder on the machine's end of a link listens on. */
    private final Map<Integer, Integer> forwardedPorts = new HashMap<>();

    private PartitionedNetwork() {
    }

    /** Whether this process may create namespaces (root and the {@code ip} tool). */
    static boolean available() {
        return "root".equals(System.getProperty("user.name")) && Commands.succeeds("ip", "netns", "list");
    }

    /** Creates the namespace and its links (removing what an aborted run left) and starts the forwarders. */
    static PartitionedNetwork create(List<Integer> pgPorts, int brokerPort) throws IOException, InterruptedException {
        remove();
        ip("netns", "add", NAMESPACE);
        ip("-n", NAMESPACE, "link", "set", "lo", "up");
        for (Link link : Link.values()) {
            ip("link", "add", link.device + "0", "type", "veth", "peer", "name", link.device + "1", "netns", NAMESPACE);
            ip("addr", "add", link.outside + "/30", "dev", link.device + "0");
            ip("link", "set", link.device + "0", "up");
            ip("-n", NAMESPACE, "addr", "add", link.inside + "/30", "dev", link.device + "1");
            ip("-n", NAMESPACE, "link", "set", link.device + "1", "up");
        }
        PartitionedNetwork network = new PartitionedNetwork();
        for (int pgPort : pgPorts) {
            network.forward(Link.DATABASE, pgPort);
        }
        network.forward(Link.BROKER, brokerPort);
        return network;
    }

    /**
     * A forwarder on a free port of the link's machine end (never a fixed or derived number: a service listening on
     * every address holds the same port there, as pg_auto_failover's nodes do, and RabbitMQ's management plugin holds
     * 5672 + 10000).
     */
    private void forward(Link link, int port) throws IOException {
        TcpForwarder forwarder = new TcpForwarder(new InetSocketAddress(link.outside, 0), new InetSocketAddress("127.0.0.1", port));
        forwarders.add(forwarder);
        forwardedPorts.put(port, forwarder.port());
    }

    /** The port on the machine's end of a link that forwards to {@code port} on loopback. */
    int forwarded(int port) {
        Integer forwarded = forwardedPorts.get(port);
        if (forwarded == null) {
            throw new IllegalArgumentException("no forwarder to port " + port);
        }
        return forwarded;
    }

    /** The command prefix that runs a process inside the namespace. */
    List<String> launcher() {
        return List.of("ip", "netns", "exec", NAMESPACE);
    }

    void cut(Link link) throws IOException, InterruptedException {
        ip("link", "set", link.device + "0", "down");
    }

    void heal(Link link) throws IOException, InterruptedException {
        ip("link", "set", link.device + "0", "up");
    }

    @Override
    public void close() throws IOException, InterruptedException {
        for (TcpForwarder forwarder : forwarders) {
            forwarder.close();
        }
        remove();
    }

    /** Deleting the namespace deletes the veth ends in it, and with them their peers. */
    private static void remove() throws IOException, InterruptedException {
        Commands.succeeds("ip", "netns", "delete", NAMESPACE);
        for (Link link : Link.values()) {
            Commands.succeeds("ip", "link", "delete", link.device + "0");
        }
    }

    private static void ip(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add("ip");
        command.addAll(List.of(args));
        Commands.run(command);
    }
}
