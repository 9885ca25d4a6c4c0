package dev.stockhold.web;

/**
 * The names of the contract's own request and answer headers, kept with the web layer that documents them (the
 * OpenAPI defaults) so that no lower layer has to be imported for a name.
 */
public final class Headers {

    /** The request header that makes a write safe to retry. */
    public static final String IDEMPOTENCY_KEY = "Idempotency-Key";
    /** Header on a replayed answer (draft-ietf-httpapi-idempotency-key-header, Stripe). */
    public static final String IDEMPOTENT_REPLAYED = "Idempotent-Replayed";

    private Headers() {
    }
}
