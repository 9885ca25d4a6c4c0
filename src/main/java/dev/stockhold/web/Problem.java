package dev.stockhold.web;

import java.util.List;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import com.fasterxml.jackson.annotation.JsonInclude;

import io.quarkus.runtime.annotations.RegisterForReflection;

/** RFC 9457 problem details, the body of every 4xx and 5xx. */
// The description's list of slugs is written from ProblemType by OpenApiDefaults, so it names every slug answered
@Schema(name = "Problem", description = "RFC 9457 problem details.")
@JsonInclude(JsonInclude.Include.NON_EMPTY)
@RegisterForReflection(ignoreNested = false)
public record Problem(
        @Schema(required = true, example = "/problems/insufficient-stock") String type,
        @Schema(required = true) String title,
        @Schema(required = true) int status,
        @Schema(required = true) String detail,
        @Schema(description = "validation-failed: the offending fields") List<Violation> violations,
        @Schema(description = "insufficient-stock, unknown-sku and reservation-cap-exceeded: the skus concerned") List<String> skus) {

    public static Problem of(ProblemType type, String detail) {
        return new Problem(type.uri().toString(), type.title(), type.status(), detail, List.of(), List.of());
    }

    public Problem withViolations(List<Violation> list) {
        return new Problem(type, title, status, detail, List.copyOf(list), skus);
    }

    public Problem withSkus(List<String> list) {
        return new Problem(type, title, status, detail, violations, List.copyOf(list));
    }

    /** One offending field of a validation-failed problem. */
    @Schema(name = "Violation")
    public record Violation(@Schema(required = true, example = "lines[0].quantity") String field, @Schema(required = true) String message) {
    }
}
