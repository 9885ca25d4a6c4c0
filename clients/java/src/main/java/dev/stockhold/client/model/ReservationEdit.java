package dev.stockhold.client.model;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

// Generated from the OpenAPI document (/q/openapi) by ClientModelTest: do not edit.
/**
 * The ReservationEdit object of the API.
 *
 * @param lines (required) Replace the reservation's lines: same rules as on create; a line without a location keeps the location the reservation holds the sku at
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record ReservationEdit(List<ReservationRequestLine> lines) {
}
