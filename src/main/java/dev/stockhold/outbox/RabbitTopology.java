package dev.stockhold.outbox;

import java.io.IOException;
import java.util.Map;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ShutdownSignalException;

/**
 * The RabbitMQ topology events go through: the durable topic exchange {@code stockhold.events} with the alternate
 * exchange {@code stockhold.unrouted} (fanout), bound to the durable queue of the same name. An event no consumer queue
 * is bound for lands in that queue, confirmed and kept, instead of failing and going DEAD.
 */
public final class RabbitTopology {

    public static final String EXCHANGE = "stockhold.events";
    public static final String UNROUTED = "stockhold.unrouted";

    private RabbitTopology() {
    }

    /** A channel on the declared topology, and whether the events exchange has its alternate exchange. */
    public record Declared(Channel channel, boolean alternateExchange) {
    }

    /**
     * Declares the unrouted exchange and queue, then the events exchange pointing at them. An events exchange declared
     * by an earlier release has no alternate exchange, and RabbitMQ refuses to redeclare it with other arguments (406,
     * which closes the channel): then the existing exchange is used as it is, on a fresh channel.
     */
    public static Declared declare(Connection connection) throws IOException {
        Channel ch = connection.createChannel();
        ch.exchangeDeclare(UNROUTED, "fanout", true);
        ch.queueDeclare(UNROUTED, true, false, false, null);
        ch.queueBind(UNROUTED, UNROUTED, "");
        try {
            ch.exchangeDeclare(EXCHANGE, "topic", true, false, Map.of("alternate-exchange", UNROUTED));
            return new Declared(ch, true);
        } catch (IOException e) {
            if (!isPreconditionFailed(e)) {
                throw e;
            }
        }
        Channel fresh = connection.createChannel();
        fresh.exchangeDeclarePassive(EXCHANGE);
        return new Declared(fresh, false);
    }

    /** The upgrade path for an exchange without the alternate exchange: a policy, applied without redeclaring anything. */
    public static String upgradeCommand() {
        return "rabbitmqctl set_policy stockhold-unrouted '^stockhold\\.events$' '{\"alternate-exchange\":\"" + UNROUTED
                + "\"}' --apply-to exchanges";
    }

    private static boolean isPreconditionFailed(IOException e) {
        return e.getCause() instanceof ShutdownSignalException signal
                && signal.getReason() instanceof AMQP.Channel.Close close && close.getReplyCode() == AMQP.PRECONDITION_FAILED;
    }
}
