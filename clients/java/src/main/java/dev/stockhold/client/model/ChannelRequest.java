package dev.stockhold.client.model;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

// Generated from the OpenAPI document (/q/openapi) by ClientModelTest: do not edit.
/**
 * The ChannelRequest object of the API.
 *
 * @param locations (required) Distinct locations of the tenant, in the order a request through the channel is allocated
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record ChannelRequest(List<String> locations) {
}
