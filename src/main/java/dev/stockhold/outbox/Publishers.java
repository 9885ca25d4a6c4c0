package dev.stockhold.outbox;

import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import dev.stockhold.StockholdConfig;
import dev.stockhold.StockholdConfig.Relay.Target;
import io.quarkus.logging.Log;
import io.quarkus.runtime.LaunchMode;

/** Chooses the relay's publisher from {@code stockhold.relay.target}. */
@ApplicationScoped
public class Publishers {

    @Produces
    @ApplicationScoped
    EventPublisher publisher(StockholdConfig config,
            @ConfigProperty(name = "rabbitmq-host") Optional<String> rabbitHost,
            @ConfigProperty(name = "rabbitmq-port", defaultValue = "5672") int rabbitPort,
            @ConfigProperty(name = "rabbitmq-username") Optional<String> rabbitUser,
            @ConfigProperty(name = "rabbitmq-password") Optional<String> rabbitPassword,
            @ConfigProperty(name = "rabbitmq-virtual-host", defaultValue = "/") String rabbitVirtualHost,
            @ConfigProperty(name = "kafka.bootstrap.servers", defaultValue = "localhost:9092") String kafkaServers) {
        Target target = config.relay().target();
        if (target == Target.RABBITMQ && rabbitHost.isEmpty() && LaunchMode.current() == LaunchMode.DEVELOPMENT) {
            Log.info("Dev mode without RABBITMQ_HOST: the relay logs each CloudEvent instead of publishing it");
            target = Target.LOG;
        }
        return switch (target) {
            // no default credentials: dev and test set guest in their profiles; prod must name its own (ProdSecurityGuard)
            case RABBITMQ ->
                new RabbitPublisher(rabbitHost.orElse("localhost"), rabbitPort, rabbitUser.orElseThrow(() -> missing("RABBITMQ_USERNAME")),
                        rabbitPassword.orElseThrow(() -> missing("RABBITMQ_PASSWORD")), rabbitVirtualHost);
            case KAFKA -> new KafkaPublisher(kafkaServers, config.relay().publishTimeout(), config.relay().kafka());
            case LOG -> new LoggingPublisher();
        };
    }

    private static IllegalStateException missing(String variable) {
        return new IllegalStateException(variable + " is not set: the relay has no default broker credentials");
    }

    void close(@Disposes EventPublisher publisher) {
        publisher.close();
    }
}
