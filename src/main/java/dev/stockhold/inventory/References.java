package dev.stockhold.inventory;

import java.net.URI;
import java.net.URISyntaxException;

import dev.stockhold.web.ValidationFailedException;

/** The optional {@code reference} of a set or adjustment: an absolute URI naming the document behind the change. */
final class References {

    private References() {
    }

    static void requireAbsolute(String reference) {
        if (reference == null) {
            return;
        }
        try {
            if (new URI(reference).isAbsolute()) {
                return;
            }
        } catch (URISyntaxException e) {
            // reported below
        }
        throw new ValidationFailedException("reference", "must be an absolute URI, e.g. https://erp.example.com/receipts/4410");
    }
}
