package dev.stockhold.client.model;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

// Generated from the OpenAPI document (/q/openapi) by ClientModelTest: do not edit.
/**
 * The Channel object of the API.
 *
 * @param channel (required)
 * @param locations (required) The channel's locations in allocation order
 * @param version (required) Rises on every write; the ETag is "&lt;version&gt;"
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record Channel(String channel, List<String> locations, long version) {
}
