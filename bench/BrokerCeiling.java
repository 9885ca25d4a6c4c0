import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.UUID;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;

/**
 * The broker's own ceiling for the relay's traffic: N messages shaped like the relay's (same size, properties and
 * headers, persistent, to stockhold.events) published in windows of the relay's batch size with one wait for
 * confirms each, with no database at all. Neither relay can publish faster than this on the same machine.
 *
 *   java -cp amqp-client.jar:slf4j-api.jar bench/BrokerCeiling.java COUNT WINDOW
 */
public class BrokerCeiling {
    public static void main(String[] args) throws Exception {
        int count = Integer.parseInt(args[0]);
        int window = Integer.parseInt(args[1]);
        ConnectionFactory factory = new ConnectionFactory();
        factory.setHost(System.getenv().getOrDefault("RABBITMQ_HOST", "localhost"));
        byte[] body = ("{\"specversion\":\"1.0\",\"id\":\"" + UUID.randomUUID() + "\",\"source\":\"/stockhold\",\"type\":"
                + "\"dev.stockhold.reservation.created.v1\",\"subject\":\"" + UUID.randomUUID() + "\",\"time\":\"2026-11-30T12:00:00Z\","
                + "\"datacontenttype\":\"application/json\",\"tenantid\":\"bench\",\"data\":{\"id\":\"" + UUID.randomUUID()
                + "\",\"status\":\"HELD\",\"lines\":[{\"sku\":\"SKU-1\",\"quantity\":1}],\"expiresAt\":\"2026-11-30T12:15:00Z\","
                + "\"createdAt\":\"2026-11-30T12:00:00Z\"}}").getBytes(StandardCharsets.UTF_8);
        try (Connection connection = factory.newConnection("broker-ceiling")) {
            Channel channel = connection.createChannel();
            channel.confirmSelect();
            long start = System.nanoTime();
            for (int sent = 0; sent < count; sent += window) {
                for (int i = 0; i < Math.min(window, count - sent); i++) {
                    AMQP.BasicProperties properties = new AMQP.BasicProperties.Builder().messageId(UUID.randomUUID().toString())
                            .contentType("application/cloudevents+json").contentEncoding("UTF-8").deliveryMode(2)
                            .type("dev.stockhold.reservation.created.v1").timestamp(new java.util.Date()).appId("stockhold")
                            .headers(Map.of("tenantid", "bench", "ce_type", "dev.stockhold.reservation.created.v1")).build();
                    channel.basicPublish("stockhold.events", "reservation.created", true, properties, body);
                }
                channel.waitForConfirmsOrDie(30_000);
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            System.out.printf("RESULT events_per_s=%.0f%n", count / seconds);
        }
    }
}
