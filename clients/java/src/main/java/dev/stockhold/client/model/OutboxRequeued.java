package dev.stockhold.client.model;

import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

// Generated from the OpenAPI document (/q/openapi) by ClientModelTest: do not edit.
/**
 * The OutboxRequeued object of the API.
 *
 * @param id (required)
 * @param status (required)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record OutboxRequeued(UUID id, String status) {
}
