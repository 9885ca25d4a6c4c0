/**
 * Purchase orders: units a location expects, by a date. They count as the record's incoming until they arrive (in one
 * or more receipts) or the order closes; backordered reservation lines are promised against them and allocated when
 * they arrive ({@code reservation.Backorders}). Every stock change goes through {@code inventory.StockMoves}.
 */
package dev.stockhold.supply;
