package dev.stockhold.inventory;

import java.util.List;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import com.fasterxml.jackson.annotation.JsonInclude;

import io.quarkus.runtime.annotations.RegisterForReflection;

/** One page of GET /v1/items. */
@Schema(name = "StockRecordList")
@RegisterForReflection
@JsonInclude(JsonInclude.Include.NON_NULL)
public record StockPage(@Schema(required = true) List<StockRecord> items,
        @Schema(description = "Pass as cursor to read the next page; absent on the last page") String nextCursor) {
}
