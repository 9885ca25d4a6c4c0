package dev.stockhold.inventory;

import dev.stockhold.web.ProblemException;
import dev.stockhold.web.ProblemType;

/** item-not-found: no such sku for this tenant (another tenant's sku looks exactly the same). */
public class ItemNotFoundException extends ProblemException {

    public ItemNotFoundException(String sku) {
        super(ProblemType.ITEM_NOT_FOUND, "No stock item '" + sku + "'");
    }

    public ItemNotFoundException(StockKey at) {
        super(ProblemType.ITEM_NOT_FOUND, "No stock record for '" + at.sku() + "' at '" + at.location() + "'");
    }
}
