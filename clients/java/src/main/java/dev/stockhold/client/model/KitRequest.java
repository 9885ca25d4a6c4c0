package dev.stockhold.client.model;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

// Generated from the OpenAPI document (/q/openapi) by ClientModelTest: do not edit.
/**
 * The KitRequest object of the API.
 *
 * @param components (required) Distinct skus with stock of their own (not kits), and the units of each in one kit
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record KitRequest(List<KitRequestComponent> components) {
}
