import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.DefaultConsumer;
import com.rabbitmq.client.Envelope;
import com.rabbitmq.client.AMQP;

/**
 * Binds a durable queue (emptied first) to stockhold.events with "#", so the relay's events are routed and confirmed
 * as in production. Declares the exchange as the service does (alternate exchange stockhold.unrouted) unless it exists.
 *
 * <p>
 * With a second argument {@code consume}, it then stays and consumes the queue as a downstream service would: prefetch
 * 250, one acknowledgement per message, and prints "consuming" once it is registered and the count of messages it
 * acknowledged when it is stopped. A queue nobody consumes is not what a broker holds in production: its backlog grows by
 * every event of a run, and RabbitMQ's work for it (the classic queue keeps the messages in the queue process's memory)
 * stalls confirms for hundreds of milliseconds and costs more than twice the CPU per event.
 */
public class DeclareQueue {
    public static void main(String[] args) throws Exception {
        ConnectionFactory factory = new ConnectionFactory();
        factory.setHost(System.getenv().getOrDefault("RABBITMQ_HOST", "localhost"));
        try (Connection connection = factory.newConnection("bench-queue")) {
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
            if (args.length > 1 && args[1].equals("consume")) {
                consume(connection, args[0]);
            }
        }
    }

    private static void consume(Connection connection, String queue) throws Exception {
        AtomicLong acked = new AtomicLong();
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            System.out.println("acked=" + acked.get());
            stopped.countDown();
        }));
        Channel channel = connection.createChannel();
        channel.basicQos(250);
        channel.basicConsume(queue, false, new DefaultConsumer(channel) {
            @Override
            public void handleDelivery(String tag, Envelope envelope, AMQP.BasicProperties properties, byte[] body)
                    throws java.io.IOException {
                getChannel().basicAck(envelope.getDeliveryTag(), false);
                acked.incrementAndGet();
            }
        });
        System.out.println("consuming");
        stopped.await();
    }
}
