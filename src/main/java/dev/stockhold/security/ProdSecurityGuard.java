package dev.stockhold.security;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import jakarta.enterprise.event.Observes;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import dev.stockhold.StockholdConfig;
import io.quarkus.arc.profile.IfBuildProfile;
import io.quarkus.runtime.StartupEvent;

/**
 * The prod build refuses to start without the settings a safe deployment needs: an audience for tokens (or the
 * written-out opt-out), a cursor secret of its own instead of the published dev value, the base of every event's
 * {@code dataschema} on a host the deployment owns, and broker credentials (no
 * {@code guest} default) when the relay publishes to RabbitMQ.
 */
@IfBuildProfile("prod")
public class ProdSecurityGuard {

    /** Published in this repository: a MAC key nobody may rely on. Dev and tests only. */
    public static final String DEV_CURSOR_SECRET = StockholdConfig.DEV_CURSOR_SECRET;

    void check(@Observes StartupEvent event, StockholdConfig config,
            @ConfigProperty(name = "rabbitmq-username") Optional<String> rabbitUser,
            @ConfigProperty(name = "rabbitmq-password") Optional<String> rabbitPassword) {
        List<String> refusals = refusals(config.security().audience(), config.security().cursorSecret());
        if (config.events().schemaBaseUri().filter(uri -> !uri.isBlank()).isEmpty()) {
            refusals.add("STOCKHOLD_EVENTS_SCHEMA_BASE_URI is not set: name the public URL of this service's /schemas/events/ "
                    + "(every event's dataschema points there)");
        }
        boolean publishesToRabbit = config.relay().enabled() && config.relay().target() == StockholdConfig.Relay.Target.RABBITMQ;
        if (publishesToRabbit && (rabbitUser.isEmpty() || rabbitPassword.isEmpty())) {
            refusals.add("RABBITMQ_USERNAME and RABBITMQ_PASSWORD must be set: there are no default broker credentials in prod");
        }
        if (config.console().devTokenFile().isPresent()) {
            refusals.add("STOCKHOLD_CONSOLE_DEV_TOKEN_FILE is set: the console would hand its token to anyone who opens it");
        }
        if (!refusals.isEmpty()) {
            throw new IllegalStateException(String.join("; ", refusals));
        }
    }

    static List<String> refusals(Optional<List<String>> audience, String cursorSecret) {
        List<String> refusals = new ArrayList<>();
        if (audience.map(List::isEmpty).orElse(true)) {
            refusals.add("STOCKHOLD_SECURITY_AUDIENCE is not set: name the aud value(s) your identity provider puts in "
                    + "Stockhold's tokens (or write out '" + Audience.UNCHECKED + "' to accept any audience)");
        }
        if (cursorSecret.equals(DEV_CURSOR_SECRET) || cursorSecret.length() < 32) {
            refusals.add("STOCKHOLD_SECURITY_CURSOR_SECRET must be a secret of at least 32 characters shared by the "
                    + "replicas, not the published dev value");
        }
        return refusals;
    }
}
