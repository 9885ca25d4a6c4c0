package dev.stockhold.client.model;

// Generated from the OpenAPI document (/q/openapi) by ClientModelTest: do not edit.
/**
 * The ReservationStatus values of the API.
 */
public enum ReservationStatus {
    HELD,
    CONFIRMED,
    CANCELLED,
    EXPIRED,
    PARTIALLY_FULFILLED,
    FULFILLED
}
