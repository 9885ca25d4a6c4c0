package dev.stockhold.client;

import java.util.UUID;

import dev.stockhold.client.model.IncomingRequest;
import dev.stockhold.client.model.PurchaseOrder;
import dev.stockhold.client.model.PurchaseReceiptRequest;
import dev.stockhold.client.model.Transfer;
import dev.stockhold.client.model.TransferReceiptRequest;
import dev.stockhold.client.model.TransferRequest;

/** Stock on its way: transfers between locations and purchase orders, with their receipts. */
public final class Supply {

    private final Calls calls;

    Supply(Calls calls) {
        this.calls = calls;
    }

    public Answer<Transfer> ship(TransferRequest request, String key) {
        return calls.send(Request.of(Operation.TRANSFER_CREATE).key(key).body(request), Transfer.class);
    }

    public Answer<Transfer> transfer(UUID id) {
        return calls.send(Request.of(Operation.TRANSFER, id.toString()), Transfer.class);
    }

    public Answer<Transfer> receiveTransfer(UUID id, TransferReceiptRequest request, String key) {
        return calls.send(Request.of(Operation.TRANSFER_RECEIPT, id.toString()).key(key).body(request), Transfer.class);
    }

    /** Cancels a transfer. Not repeated after a lost answer (a repeat is refused once the first won): OutcomeUnknown. */
    public Answer<Transfer> cancelTransfer(UUID id) {
        return calls.send(Request.of(Operation.TRANSFER_CANCEL, id.toString()), Transfer.class);
    }

    public Answer<PurchaseOrder> expect(String sku, String location, IncomingRequest request, String key) {
        return calls.send(Request.of(Operation.INCOMING, sku, location).key(key).body(request), PurchaseOrder.class);
    }

    public Answer<PurchaseOrder> purchaseOrder(UUID id) {
        return calls.send(Request.of(Operation.PURCHASE_ORDER, id.toString()), PurchaseOrder.class);
    }

    public Answer<PurchaseOrder> receivePurchase(UUID id, PurchaseReceiptRequest request, String key) {
        return calls.send(Request.of(Operation.PURCHASE_RECEIPT, id.toString()).key(key).body(request), PurchaseOrder.class);
    }
}
