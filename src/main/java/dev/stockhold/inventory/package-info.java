/**
 * Stock per (tenant, sku, location): on hand, held, available and version; locations and their priority; the
 * allocation of a reservation's lines to locations; admin sets (with compare-and-set) and idempotent adjustments; and
 * the stock events. All SQL on stock_records and locations is {@link dev.stockhold.inventory.StockRepository}: every
 * stock change is one conditional UPDATE, in key order, so no update is lost and no two writers deadlock.
 */
package dev.stockhold.inventory;
