package dev.stockhold.client;

import dev.stockhold.client.model.AdjustmentRequest;
import dev.stockhold.client.model.Availability;
import dev.stockhold.client.model.AvailabilityRequest;
import dev.stockhold.client.model.BatchAdjustmentRequest;
import dev.stockhold.client.model.Channel;
import dev.stockhold.client.model.ChannelList;
import dev.stockhold.client.model.ChannelRequest;
import dev.stockhold.client.model.DeadEvent;
import dev.stockhold.client.model.ExtendRequest;
import dev.stockhold.client.model.IncomingRequest;
import dev.stockhold.client.model.Item;
import dev.stockhold.client.model.Kit;
import dev.stockhold.client.model.KitList;
import dev.stockhold.client.model.KitRequest;
import dev.stockhold.client.model.Location;
import dev.stockhold.client.model.LocationList;
import dev.stockhold.client.model.LocationRequest;
import dev.stockhold.client.model.OutboxBulkRequeued;
import dev.stockhold.client.model.OutboxRequeueFilter;
import dev.stockhold.client.model.OutboxRequeued;
import dev.stockhold.client.model.OutboxSummary;
import dev.stockhold.client.model.PurchaseOrder;
import dev.stockhold.client.model.PurchaseReceiptRequest;
import dev.stockhold.client.model.Reservation;
import dev.stockhold.client.model.ReservationEdit;
import dev.stockhold.client.model.ReservationList;
import dev.stockhold.client.model.ReservationRequest;
import dev.stockhold.client.model.SetOnHandRequest;
import dev.stockhold.client.model.SetStockRequest;
import dev.stockhold.client.model.Settings;
import dev.stockhold.client.model.SettlementRequest;
import dev.stockhold.client.model.Snapshot;
import dev.stockhold.client.model.SnapshotRequest;
import dev.stockhold.client.model.StockMovementList;
import dev.stockhold.client.model.StockRecord;
import dev.stockhold.client.model.StockRecordList;
import dev.stockhold.client.model.Transfer;
import dev.stockhold.client.model.TransferReceiptRequest;
import dev.stockhold.client.model.TransferRequest;

/**
 * Every operation of the /v1 API: its method, path template, request and answer types, and how a retry of it is
 * safe ({@link Retry}). A test of the repository holds this list equal to the service's OpenAPI document.
 */
public enum Operation {
    OUTBOX_SUMMARY("GET", "/v1/admin/outbox", Retry.READ, null, OutboxSummary.class),
    OUTBOX_DEAD("GET", "/v1/admin/outbox/dead", Retry.READ, null, DeadEvent[].class),
    OUTBOX_REQUEUE_ALL("POST", "/v1/admin/outbox/dead/requeue", Retry.UNSAFE, OutboxRequeueFilter.class, OutboxBulkRequeued.class),
    OUTBOX_REQUEUE("POST", "/v1/admin/outbox/dead/{id}/requeue", Retry.UNSAFE, null, OutboxRequeued.class),
    AVAILABILITY("POST", "/v1/availability", Retry.READ, AvailabilityRequest.class, Availability.class),
    CHANNELS("GET", "/v1/channels", Retry.READ, null, ChannelList.class),
    CHANNEL_PUT("PUT", "/v1/channels/{channel}", Retry.IDEMPOTENT, ChannelRequest.class, Channel.class),
    CHANNEL("GET", "/v1/channels/{channel}", Retry.READ, null, Channel.class),
    RECORDS("GET", "/v1/items", Retry.READ, null, StockRecordList.class),
    ITEM_PUT("PUT", "/v1/items/{sku}", Retry.IDEMPOTENT, SetStockRequest.class, Item.class),
    ITEM("GET", "/v1/items/{sku}", Retry.READ, null, Item.class),
    RECORD_PUT("PUT", "/v1/items/{sku}/stock/{location}", Retry.IDEMPOTENT, SetOnHandRequest.class, StockRecord.class),
    RECORD("GET", "/v1/items/{sku}/stock/{location}", Retry.READ, null, StockRecord.class),
    ADJUST("POST", "/v1/items/{sku}/stock/{location}/adjustments", Retry.KEYED, AdjustmentRequest.class, StockRecord.class),
    INCOMING("POST", "/v1/items/{sku}/stock/{location}/incoming", Retry.KEYED, IncomingRequest.class, PurchaseOrder.class),
    MOVEMENTS("GET", "/v1/items/{sku}/stock/{location}/movements", Retry.READ, null, StockMovementList.class),
    KITS("GET", "/v1/kits", Retry.READ, null, KitList.class),
    KIT_PUT("PUT", "/v1/kits/{sku}", Retry.IDEMPOTENT, KitRequest.class, Kit.class),
    KIT("GET", "/v1/kits/{sku}", Retry.READ, null, Kit.class),
    LOCATIONS("GET", "/v1/locations", Retry.READ, null, LocationList.class),
    LOCATION_PUT("PUT", "/v1/locations/{location}", Retry.IDEMPOTENT, LocationRequest.class, Location.class),
    SNAPSHOT("POST", "/v1/locations/{location}/snapshots", Retry.KEYED, SnapshotRequest.class, Snapshot.class),
    PURCHASE_ORDER("GET", "/v1/purchase-orders/{id}", Retry.READ, null, PurchaseOrder.class),
    PURCHASE_RECEIPT("POST", "/v1/purchase-orders/{id}/receipts", Retry.KEYED, PurchaseReceiptRequest.class, PurchaseOrder.class),
    RESERVATIONS("GET", "/v1/reservations", Retry.READ, null, ReservationList.class),
    RESERVE("POST", "/v1/reservations", Retry.KEYED, ReservationRequest.class, Reservation.class),
    RESERVATION("GET", "/v1/reservations/{id}", Retry.READ, null, Reservation.class),
    EDIT("PATCH", "/v1/reservations/{id}", Retry.KEYED, ReservationEdit.class, Reservation.class),
    CANCEL("POST", "/v1/reservations/{id}/cancel", Retry.IDEMPOTENT, null, Reservation.class),
    CONFIRM("POST", "/v1/reservations/{id}/confirm", Retry.IDEMPOTENT, null, Reservation.class),
    EXTEND("POST", "/v1/reservations/{id}/extend", Retry.UNSAFE, ExtendRequest.class, Reservation.class),
    FULFIL("POST", "/v1/reservations/{id}/fulfilments", Retry.KEYED, SettlementRequest.class, Reservation.class),
    RELEASE("POST", "/v1/reservations/{id}/release", Retry.KEYED, SettlementRequest.class, Reservation.class),
    SETTINGS_PUT("PUT", "/v1/settings", Retry.IDEMPOTENT, Settings.class, Settings.class),
    SETTINGS("GET", "/v1/settings", Retry.READ, null, Settings.class),
    ADJUST_MANY("POST", "/v1/stock/adjustments", Retry.KEYED, BatchAdjustmentRequest.class, StockRecordList.class),
    TRANSFER_CREATE("POST", "/v1/transfers", Retry.KEYED, TransferRequest.class, Transfer.class),
    TRANSFER("GET", "/v1/transfers/{id}", Retry.READ, null, Transfer.class),
    TRANSFER_CANCEL("POST", "/v1/transfers/{id}/cancel", Retry.UNSAFE, null, Transfer.class),
    TRANSFER_RECEIPT("POST", "/v1/transfers/{id}/receipts", Retry.KEYED, TransferReceiptRequest.class, Transfer.class);

    /** Whether, and after what, a call of an operation may be sent again. */
    public enum Retry {
        /** Reads nothing but state: always safe to send again. */
        READ,
        /** Carries an Idempotency-Key, kept for every attempt: the service answers a repeat with the first outcome. */
        KEYED,
        /** The same request twice leaves the same state (an absolute set, a confirm, a cancel). */
        IDEMPOTENT,
        /** A repeat could act twice: sent again only when the first attempt surely did not reach the service. */
        UNSAFE
    }

    private final String method;
    private final String path;
    private final Retry retry;
    private final Class<?> request;
    private final Class<?> answer;

    Operation(String method, String path, Retry retry, Class<?> request, Class<?> answer) {
        this.method = method;
        this.path = path;
        this.retry = retry;
        this.request = request;
        this.answer = answer;
    }

    public String method() {
        return method;
    }

    public String path() {
        return path;
    }

    public Retry retry() {
        return retry;
    }

    /** The body's type, or null for none. */
    public Class<?> request() {
        return request;
    }

    /** The type of a 2xx answer's body. */
    public Class<?> answer() {
        return answer;
    }
}
