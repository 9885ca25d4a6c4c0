package dev.stockhold.inventory;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import com.fasterxml.jackson.annotation.JsonIgnore;

import io.quarkus.runtime.annotations.RegisterForReflection;

/** A sales channel: a named, ordered group of the tenant's locations that reservations and stock reads may go through. */
@Schema(name = "Channel")
@RegisterForReflection(ignoreNested = false)
public record Channel(@Schema(required = true, example = "b2b") String channel,
        @Schema(required = true, minItems = 1, maxItems = ChannelRequest.MAX_LOCATIONS,
                description = "The channel's locations in allocation order") List<String> locations,
        @Schema(required = true, example = "1", description = "Rises on every write; the ETag is \"<version>\"") long version) {

    /** The entity tag of this version, as ETag and If-Match carry it. */
    @JsonIgnore
    public String etag() {
        return "\"" + version + "\"";
    }

    /**
     * The candidates this channel may allocate from, in its order: only records at its locations, by the location's place
     * in the channel, then (within one location) in the order given.
     */
    public List<Candidate> order(List<Candidate> candidates) {
        return order(candidates, c -> c.key().location());
    }

    /** The same for any rows with a location: only those at the channel's locations, in its order (stable). */
    public <T> List<T> order(List<T> rows, Function<T, String> location) {
        Map<String, Integer> place = new HashMap<>();
        for (int i = 0; i < locations.size(); i++) {
            place.put(locations.get(i), i);
        }
        List<T> ordered = new ArrayList<>();
        for (T row : rows) {
            if (place.containsKey(location.apply(row))) {
                ordered.add(row);
            }
        }
        ordered.sort(Comparator.comparingInt(row -> place.get(location.apply(row))));
        return ordered;
    }

    /** GET /v1/channels: the tenant's channels by name. */
    @Schema(name = "ChannelList")
    public record Page(@Schema(required = true) List<Channel> items) {
    }
}
