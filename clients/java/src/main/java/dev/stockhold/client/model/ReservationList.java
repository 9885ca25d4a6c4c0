package dev.stockhold.client.model;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

// Generated from the OpenAPI document (/q/openapi) by ClientModelTest: do not edit.
/**
 * The ReservationList object of the API.
 *
 * @param items (required) Newest first
 * @param nextCursor (optional) Opaque; pass it as cursor, with the same filters, for the next page. Absent on the last page.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record ReservationList(List<Reservation> items, String nextCursor) {

    /** The required fields; the optional ones are absent. */
    public static ReservationList of(List<Reservation> items) {
        return new ReservationList(items, null);
    }

    /** A copy with {@code nextCursor} set. */
    public ReservationList withNextCursor(String value) {
        return new ReservationList(items, value);
    }
}
