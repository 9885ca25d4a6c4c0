/**
 * Transfers: units shipped from one location of a tenant to another, received there in one or more receipts, or
 * cancelled (what was not received goes back). Every stock change goes through {@code inventory.StockMoves}; this
 * package keeps the transfer itself, its idempotent requests and its events.
 */
package dev.stockhold.transfer;
