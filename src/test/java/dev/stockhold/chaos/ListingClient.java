package dev.stockhold.chaos;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;

import com.fasterxml.jackson.databind.JsonNode;

import dev.stockhold.chaos.ClientLog.Operation;
import dev.stockhold.reservation.ReservationStatus;

/** Keyset listings of the tenant's reservations, sometimes filtered by status, while everyone else writes. */
final class ListingClient extends FeatureClient {

    /**
     * Pages through the tenant's reservations (sometimes filtered by status) while everyone else writes: no item may
     * come twice and the pages must run newest first.
     */
    private void list(ThreadLocalRandom random) {
        log.count(Operation.LIST);
        String filter = random.nextBoolean() ? ""
                : "&status=" + ReservationStatus.values()[random.nextInt(ReservationStatus.values().length)];
        java.util.Set<String> seen = new java.util.HashSet<>();
        String previous = null;
        String cursor = null;
        for (int page = 0; page < 3; page++) {
            String url = "/v1/reservations?limit=25" + filter + (cursor == null ? "" : "&cursor=" + cursor);
            Function<Replica, HttpRequest> request = replica -> HttpRequest.newBuilder(URI.create(replica.baseUrl() + url))
                    .header("Authorization", "Bearer " + token).timeout(TIMEOUT).GET().build();
            HttpResponse<String> response = exchange(replica(random), request);
            if (response == null || response.statusCode() != 200) {
                return;
            }
            log.listedPages.increment();
            JsonNode body = parse(response.body());
            for (JsonNode item : body.path("items")) {
                String key = item.path("createdAt").asText() + " " + item.path("id").asText();
                if (!seen.add(item.path("id").asText()) || previous != null && compare(key, previous) > 0) {
                    log.listingAnomalies.add(url + ": " + key + " after " + previous);
                }
                previous = key;
            }
            cursor = body.path("nextCursor").asText(null);
            if (cursor == null) {
                return;
            }
        }
    }

    /** Newest first means (createdAt, id) descending; createdAt compared as instants. */
    private static int compare(String a, String b) {
        String[] x = a.split(" ");
        String[] y = b.split(" ");
        int byTime = java.time.Instant.parse(x[0]).compareTo(java.time.Instant.parse(y[0]));
        return byTime != 0 ? byTime : java.util.UUID.fromString(x[1]).toString().compareTo(java.util.UUID.fromString(y[1]).toString());
    }

    @Override
    List<Step> steps() {
        return List.of(new Step(3, this::list));
    }
}
