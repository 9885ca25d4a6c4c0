package dev.stockhold.security;

/** The API's roles (docs/api.md), carried in the token's {@code groups} claim. */
public final class Roles {
    public static final String RESERVATIONS = "reservations";
    public static final String INVENTORY_ADMIN = "inventory-admin";
    public static final String OPS = "ops";

    private Roles() {
    }
}
