import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;

/** Binds a durable queue to stockhold.events, so the relay's events are routed and confirmed as in production. */
public class DeclareQueue {
    public static void main(String[] args) throws Exception {
        ConnectionFactory factory = new ConnectionFactory();
        factory.setHost(System.getenv().getOrDefault("RABBITMQ_HOST", "localhost"));
        try (Connection connection = factory.newConnection(); Channel channel = connection.createChannel()) {
            channel.exchangeDeclare("stockhold.events", "topic", true);
            channel.queueDeclare(args[0], true, false, false, null);
            channel.queuePurge(args[0]);
            channel.queueBind(args[0], "stockhold.events", "#");
        }
    }
}
