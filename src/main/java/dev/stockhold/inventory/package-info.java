/**
 * Stock per (tenant, sku, location): on hand, held, available and version; locations and their priority; the
 * allocation of a reservation's lines to locations; admin sets (with compare-and-set) and idempotent adjustments; and
 * the stock events. Other packages move stock only through {@link dev.stockhold.inventory.StockMoves}, which writes the
 * records, the ledger and the stock events itself. The SQL is one repository per table ({@code StockRecords},
 * {@code LocationRepository}, {@code MovementLedger}): every stock change is one conditional UPDATE, in key order, so
 * no update is lost and no two writers deadlock. "Reservable" is defined once, in {@link dev.stockhold.inventory.Reservable}.
 */
package dev.stockhold.inventory;
