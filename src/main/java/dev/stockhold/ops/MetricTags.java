package dev.stockhold.ops;

import java.time.Duration;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import dev.stockhold.StockholdConfig;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;

/** Every metric carries the application version, so canary and stable can be compared side by side. */
public class MetricTags {

    @Produces
    @Singleton
    MeterFilter versionTag(StockholdConfig config) {
        return MeterFilter.commonTags(Tags.of("version", config.version()));
    }

    /**
     * The HTTP server metrics' {@code uri} tag is a route template or one fixed tag (RouteTemplates), whichever layer
     * answered: the number of {@code uri} values is bounded by the API, not by what clients send.
     */
    @Produces
    @Singleton
    MeterFilter boundedUriTag(jakarta.enterprise.inject.spi.BeanManager beans) {
        RouteTemplates routes = RouteTemplates.of(beans);
        return new MeterFilter() {
            @Override
            public Meter.Id map(Meter.Id id) {
                String uri = id.getTag("uri");
                if (uri == null || !id.getName().startsWith("http.server")) {
                    return id;
                }
                String tag = routes.tag(uri);
                return tag.equals(uri) ? id : id.replaceTags(Tags.of(id.getTagsAsIterable()).and("uri", tag));
            }
        };
    }

    /** Latency buckets for the HTTP server timer: the canary analysis takes the p99 of POST /v1/reservations from them. */
    @Produces
    @Singleton
    MeterFilter httpLatencyHistogram() {
        return new MeterFilter() {
            @Override
            public DistributionStatisticConfig configure(Meter.Id id, DistributionStatisticConfig config) {
                if (!"http.server.requests".equals(id.getName())) {
                    return config;
                }
                return DistributionStatisticConfig.builder()
                        .percentilesHistogram(true)
                        .minimumExpectedValue(Duration.ofMillis(1).toNanos() * 1.0)
                        .maximumExpectedValue(Duration.ofSeconds(10).toNanos() * 1.0)
                        .build().merge(config);
            }
        };
    }
}
