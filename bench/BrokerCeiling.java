import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.UUID;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;

/**
 * The broker alone, with messages shaped like the relay's (same size, properties and headers, persistent, to
 * stockhold.events), published WINDOW at a time with one wait for confirms each, and no database at all.
 *
 * <p>
 * Without RATE: COUNT messages as fast as the broker confirms them, the ceiling neither relay can pass on this machine;
 * prints events_per_s. With RATE (messages/s): one window every WINDOW/RATE seconds, as a relay publishes at a low rate
 * with WINDOW events a publish; prints the confirm latency of a window (p50, p99) and, when MQ_CPUACCT names the
 * broker's cgroup v1 cpuacct group, the broker's CPU per message: what coalescing events into a publish saves it.
 *
 *   java -cp amqp-client.jar:slf4j-api.jar bench/BrokerCeiling.java COUNT WINDOW [RATE]
 */
public class BrokerCeiling {
    public static void main(String[] args) throws Exception {
        int count = Integer.parseInt(args[0]);
        int window = Integer.parseInt(args[1]);
        double rate = args.length > 2 ? Double.parseDouble(args[2]) : 0;
        ConnectionFactory factory = new ConnectionFactory();
        factory.setHost(System.getenv().getOrDefault("RABBITMQ_HOST", "localhost"));
        byte[] body = ("{\"specversion\":\"1.0\",\"id\":\"" + UUID.randomUUID() + "\",\"source\":\"/stockhold\",\"type\":"
                + "\"dev.stockhold.reservation.created.v1\",\"subject\":\"" + UUID.randomUUID() + "\",\"time\":\"2026-11-30T12:00:00Z\","
                + "\"datacontenttype\":\"application/json\",\"tenantid\":\"bench\",\"data\":{\"id\":\"" + UUID.randomUUID()
                + "\",\"status\":\"HELD\",\"lines\":[{\"sku\":\"SKU-1\",\"quantity\":1}],\"expiresAt\":\"2026-11-30T12:15:00Z\","
                + "\"createdAt\":\"2026-11-30T12:00:00Z\"}}").getBytes(StandardCharsets.UTF_8);
        String cpuacct = System.getenv("MQ_CPUACCT");
        try (Connection connection = factory.newConnection("broker-ceiling")) {
            Channel channel = connection.createChannel();
            channel.confirmSelect();
            long interval = rate > 0 ? (long) (1e9 * window / rate) : 0;
            long[] confirms = new long[(count + window - 1) / window];
            long cpuBefore = cpu(cpuacct);
            long start = System.nanoTime();
            for (int sent = 0, tick = 0; sent < count; sent += window, tick++) {
                long wait = start + tick * interval - System.nanoTime();
                if (wait > 0) {
                    Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                }
                long published = System.nanoTime();
                for (int i = 0; i < Math.min(window, count - sent); i++) {
                    AMQP.BasicProperties properties = new AMQP.BasicProperties.Builder().messageId(UUID.randomUUID().toString())
                            .contentType("application/cloudevents+json").contentEncoding("UTF-8").deliveryMode(2)
                            .type("dev.stockhold.reservation.created.v1").timestamp(new java.util.Date()).appId("stockhold")
                            .headers(Map.of("tenantid", "bench", "ce_type", "dev.stockhold.reservation.created.v1")).build();
                    channel.basicPublish("stockhold.events", "reservation.created", true, properties, body);
                }
                channel.waitForConfirmsOrDie(30_000);
                confirms[tick] = System.nanoTime() - published;
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            if (rate == 0) {
                System.out.printf("RESULT events_per_s=%.0f%n", count / seconds);
                return;
            }
            long cpu = cpu(cpuacct) - cpuBefore;
            Arrays.sort(confirms);
            System.out.printf("RESULT rate=%.0f window=%d messages=%d confirm_p50_ms=%.2f confirm_p99_ms=%.2f mq_ms_per_msg=%s%n", rate,
                    window, count, confirms[confirms.length / 2] / 1e6, confirms[(int) (confirms.length * 0.99)] / 1e6,
                    cpuacct == null ? "-" : String.format("%.3f", cpu / 1e6 / count));
        }
    }

    private static long cpu(String cpuacct) throws Exception {
        return cpuacct == null ? 0 : Long.parseLong(Files.readString(Path.of(cpuacct, "cpuacct.usage")).trim());
    }
}
