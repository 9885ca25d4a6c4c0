package dev.stockhold.client;

import java.net.URI;

/**
 * A successful answer: its body, and what the headers said about it.
 *
 * @param value the body
 * @param status the HTTP status (200 or 201)
 * @param etag the {@code ETag}'s version, when the answer carried one: what a later write names in {@code If-Match}
 * @param replayed whether the service answered with the stored outcome of an earlier attempt with the same key
 *        ({@code Idempotent-Replayed: true}): the effect happened once, on an earlier attempt
 * @param idempotencyKey the key this call was sent with, or null for a call without one
 * @param location the {@code Location} of a created resource, or null
 * @param attempts how many attempts the call took
 */
public record Answer<T>(T value, int status, String etag, boolean replayed, String idempotencyKey, URI location, int attempts) {
}
