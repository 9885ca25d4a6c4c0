package dev.stockhold.inventory;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.stockhold.web.ValidationFailedException;
import io.quarkus.runtime.annotations.RegisterForReflection;

/** Body of PUT /v1/channels/{channel}. */
@Schema(name = "ChannelRequest")
@RegisterForReflection
public record ChannelRequest(
        @Schema(required = true, minItems = 1, maxItems = MAX_LOCATIONS, example = "[\"WH-2\", \"WH-1\"]",
                description = "Distinct locations of the tenant, in the order a request through the channel is allocated") @NotNull @Size(
                        min = 1, max = MAX_LOCATIONS) List<@NotNull @Pattern(regexp = Sku.REGEX, message = Sku.RULE) String> locations) {

    /** The most locations one channel may hold. */
    public static final int MAX_LOCATIONS = 100;

    /** No location twice. Call after Bean Validation passed. */
    public ChannelRequest requireDistinct() {
        Map<String, Integer> first = new HashMap<>();
        for (int i = 0; i < locations.size(); i++) {
            Integer earlier = first.putIfAbsent(locations.get(i), i);
            if (earlier != null) {
                throw new ValidationFailedException("locations[" + i + "]", "repeats locations[" + earlier + "]");
            }
        }
        return this;
    }
}
