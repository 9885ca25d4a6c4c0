import java.util.Map;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;

/**
 * Binds a durable queue (emptied first) to stockhold.events with "#", so the relay's events are routed and confirmed
 * as in production. Declares the exchange as the service does (alternate exchange stockhold.unrouted) unless it exists.
 */
public class DeclareQueue {
    public static void main(String[] args) throws Exception {
        ConnectionFactory factory = new ConnectionFactory();
        factory.setHost(System.getenv().getOrDefault("RABBITMQ_HOST", "localhost"));
        try (Connection connection = factory.newConnection()) {
            Channel channel = connection.createChannel();
            channel.exchangeDeclare("stockhold.unrouted", "fanout", true);
            channel.queueDeclare("stockhold.unrouted", true, false, false, null);
            channel.queueBind("stockhold.unrouted", "stockhold.unrouted", "");
            try {
                channel.exchangeDeclare("stockhold.events", "topic", true, false, Map.of("alternate-exchange", "stockhold.unrouted"));
            } catch (java.io.IOException declaredOtherwise) {
                channel = connection.createChannel();
                channel.exchangeDeclarePassive("stockhold.events");
            }
            // QUEUE_TYPE=quorum declares a quorum queue (replicated, confirmed after its log's fsync); default classic
            String type = System.getenv("QUEUE_TYPE");
            channel.queueDeclare(args[0], true, false, false, type == null ? null : Map.of("x-queue-type", type));
            channel.queuePurge(args[0]);
            channel.queueBind(args[0], "stockhold.events", "#");
        }
    }
}
