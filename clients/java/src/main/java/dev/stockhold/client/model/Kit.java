package dev.stockhold.client.model;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

// Generated from the OpenAPI document (/q/openapi) by ClientModelTest: do not edit.
/**
 * The Kit object of the API.
 *
 * @param sku (required)
 * @param components (required)
 * @param version (required) Rises on every write; the ETag is "&lt;version&gt;"
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record Kit(String sku, List<KitComponent> components, long version) {
}
