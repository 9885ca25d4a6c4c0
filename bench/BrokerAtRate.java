import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentNavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;

/**
 * The broker alone at a fixed rate: one message shaped like the relay's (size, properties, persistent, to
 * stockhold.events) every 1/RATE seconds for SECONDS, each confirmed on its own, as the relay publishes at low rates.
 * Prints the confirm latency (p50, p99, max) and the broker's CPU per message, read from a cgroup v1 cpuacct group
 * when MQ_CPUACCT names one. Isolates what the broker costs per event from what the relay does. With BATCH, messages go
 * out BATCH at a time at the same rate (one tick every BATCH/RATE seconds): what coalescing saves the broker.
 *
 *   java -cp amqp-client.jar:slf4j-api.jar bench/BrokerAtRate.java RATE SECONDS [BATCH]
 */
public class BrokerAtRate {
    public static void main(String[] args) throws Exception {
        double rate = Double.parseDouble(args[0]);
        int seconds = Integer.parseInt(args[1]);
        int batch = args.length > 2 ? Integer.parseInt(args[2]) : 1;
        ConnectionFactory factory = new ConnectionFactory();
        factory.setHost(System.getenv().getOrDefault("RABBITMQ_HOST", "localhost"));
        byte[] body = ("{\"specversion\":\"1.0\",\"id\":\"" + UUID.randomUUID() + "\",\"source\":\"/stockhold\",\"type\":"
                + "\"dev.stockhold.reservation.created.v1\",\"subject\":\"" + UUID.randomUUID() + "\",\"time\":\"2026-11-30T12:00:00Z\","
                + "\"datacontenttype\":\"application/json\",\"tenantid\":\"bench\",\"data\":{\"id\":\"" + UUID.randomUUID()
                + "\",\"status\":\"HELD\",\"lines\":[{\"sku\":\"SKU-1\",\"quantity\":1}],\"expiresAt\":\"2026-11-30T12:15:00Z\","
                + "\"createdAt\":\"2026-11-30T12:00:00Z\"}}").getBytes(StandardCharsets.UTF_8);
        String cpuacct = System.getenv("MQ_CPUACCT");
        try (Connection connection = factory.newConnection("broker-at-rate")) {
            Channel channel = connection.createChannel();
            channel.confirmSelect();
            ConcurrentNavigableMap<Long, Long> sentAt = new ConcurrentSkipListMap<>();
            long[] latencies = new long[(int) (rate * seconds) + 16];
            int[] confirmed = { 0 };
            channel.addConfirmListener((tag, multiple) -> {
                long now = System.nanoTime();
                Map<Long, Long> done = multiple ? sentAt.headMap(tag, true) : Map.of(tag, sentAt.getOrDefault(tag, now));
                synchronized (latencies) {
                    for (long t : done.values()) {
                        latencies[confirmed[0]++] = now - t;
                    }
                }
                if (multiple) {
                    sentAt.headMap(tag, true).clear();
                } else {
                    sentAt.remove(tag);
                }
            }, (tag, multiple) -> System.err.println("nack " + tag));
            long cpuBefore = cpu(cpuacct);
            long start = System.nanoTime();
            long interval = (long) (1_000_000_000L * batch / rate);
            int n = (int) (rate * seconds);
            for (int i = 0; i < n; i++) {
                long due = start + (i / batch) * interval;
                long wait = due - System.nanoTime();
                if (wait > 0) {
                    Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                }
                long seq = channel.getNextPublishSeqNo();
                sentAt.put(seq, System.nanoTime());
                channel.basicPublish("stockhold.events", "reservation.created", new AMQP.BasicProperties.Builder()
                        .contentType("application/cloudevents+json").deliveryMode(2).messageId(UUID.randomUUID().toString())
                        .type("dev.stockhold.reservation.created.v1").build(), body);
            }
            channel.waitForConfirmsOrDie(10_000);
            long cpuAfter = cpu(cpuacct);
            long[] sorted;
            synchronized (latencies) {
                sorted = Arrays.copyOf(latencies, confirmed[0]);
            }
            Arrays.sort(sorted);
            System.out.printf("RESULT rate=%.0f batch=%d messages=%d confirm_p50_ms=%.2f confirm_p99_ms=%.2f confirm_max_ms=%.2f mq_ms_per_msg=%s%n",
                    rate, batch, sorted.length, sorted[sorted.length / 2] / 1e6, sorted[(int) (sorted.length * 0.99)] / 1e6,
                    sorted[sorted.length - 1] / 1e6, cpuacct == null ? "-" : String.format("%.3f", (cpuAfter - cpuBefore) / 1e6 / n));
        }
    }

    private static long cpu(String cpuacct) throws Exception {
        return cpuacct == null ? 0 : Long.parseLong(Files.readString(Path.of(cpuacct, "cpuacct.usage")).trim());
    }
}
