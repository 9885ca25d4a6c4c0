package dev.stockhold.ops;

import java.util.List;
import java.util.Map;

import org.eclipse.microprofile.config.spi.ConfigSource;

import io.smallrye.config.ConfigSourceContext;
import io.smallrye.config.ConfigSourceFactory;
import io.smallrye.config.ConfigValue;
import io.smallrye.config.PropertiesConfigSource;

/**
 * Trace export only when an OTLP endpoint is configured. Without one, spans are not sampled (nothing is exported,
 * no connection attempts), yet every request still has a trace id: it is logged and travels with the outbox events.
 * Lowest priority, so an explicit {@code QUARKUS_OTEL_TRACES_SAMPLER} always wins.
 */
public class TracingDefaults implements ConfigSourceFactory {

    @Override
    public Iterable<ConfigSource> getConfigSources(ConfigSourceContext context) {
        if (isSet(context.getValue("quarkus.otel.exporter.otlp.endpoint"))
                || isSet(context.getValue("quarkus.otel.exporter.otlp.traces.endpoint"))) {
            return List.of();
        }
        return List.of(new PropertiesConfigSource(Map.of("quarkus.otel.traces.sampler", "always_off"),
                "stockhold-tracing-defaults", 1));
    }

    private static boolean isSet(ConfigValue value) {
        return value != null && value.getValue() != null && !value.getValue().isBlank();
    }
}
