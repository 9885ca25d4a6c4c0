package dev.stockhold.security;

import java.util.List;
import java.util.Map;

import org.eclipse.microprofile.config.spi.ConfigSource;

import io.smallrye.config.ConfigSourceContext;
import io.smallrye.config.ConfigSourceFactory;
import io.smallrye.config.ConfigValue;
import io.smallrye.config.PropertiesConfigSource;

/**
 * Maps {@code stockhold.security.audience} ({@code STOCKHOLD_SECURITY_AUDIENCE}) onto smallrye-jwt's own audience
 * check, {@code mp.jwt.verify.audiences}, so a token must name Stockhold in {@code aud}. The value {@link #UNCHECKED}
 * maps to nothing: every audience is accepted. An explicit {@code mp.jwt.verify.audiences} wins (lowest ordinal).
 */
public class Audience implements ConfigSourceFactory {

    /** The written-out opt-out of the audience check. */
    public static final String UNCHECKED = "unchecked";
    static final String PROPERTY = "stockhold.security.audience";

    @Override
    public Iterable<ConfigSource> getConfigSources(ConfigSourceContext context) {
        ConfigValue audience = context.getValue(PROPERTY);
        if (audience == null || audience.getValue() == null || audience.getValue().isBlank()
                || audience.getValue().trim().equals(UNCHECKED)) {
            return List.of();
        }
        return List.of(new PropertiesConfigSource(Map.of("mp.jwt.verify.audiences", audience.getValue()),
                "stockhold-audience", 1));
    }
}
