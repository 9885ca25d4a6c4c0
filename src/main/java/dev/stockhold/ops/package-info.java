/**
 * What operators see: readiness of the schema, the invariant auditor (I2 per stock record), the version tag on every
 * metric and the HTTP latency histogram, and trace export only when an endpoint is configured.
 */
package dev.stockhold.ops;
