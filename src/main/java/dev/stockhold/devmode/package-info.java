/**
 * Dev mode only: an embedded PostgreSQL when no JDBC URL is configured. Nothing here is active in prod or tests.
 */
package dev.stockhold.devmode;
