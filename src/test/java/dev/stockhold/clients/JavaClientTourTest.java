package dev.stockhold.clients;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import dev.stockhold.client.Answer;
import dev.stockhold.client.Problems;
import dev.stockhold.client.Query;
import dev.stockhold.client.StockholdClient;
import dev.stockhold.client.model.AdjustmentRequest;
import dev.stockhold.client.model.Reservation;
import dev.stockhold.client.model.ReservationRequest;
import dev.stockhold.client.model.ReservationRequestLine;
import dev.stockhold.client.model.SetOnHandRequest;
import dev.stockhold.client.model.SettlementLine;
import dev.stockhold.client.model.SettlementRequest;
import dev.stockhold.client.model.StockMovement;
import dev.stockhold.client.model.StockRecord;
import dev.stockhold.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;

/** The Java tour of docs/clients.md, run against the service (ClientsGuideTest keeps the guide's copy equal to it). */
@QuarkusTest
class JavaClientTourTest {

    @Test
    void shouldRunTheTour() {
        String baseUrl = "http://localhost:" + RestAssured.port;
        String token = Tokens.allRoles("t-" + UUID.randomUUID().toString().substring(0, 13));
        // tour:begin
        StockholdClient stockhold = StockholdClient.builder(URI.create(baseUrl), () -> token).build();
        // 10 units of A-1 free to reserve at the default location
        stockhold.stock().setAvailable("A-1", 10);
        // hold 2 for order 42, with your own key (leave it out and the client makes one, kept for every retry)
        ReservationRequest order42 = ReservationRequest.of(List.of(ReservationRequestLine.of("A-1", 2))).withTtlSeconds(600)
                .withReference("order-42");
        Answer<Reservation> held = stockhold.reservations().create(order42, "order-42");
        // the same intent again: the stored answer, replayed; nothing is held twice
        Answer<Reservation> again = stockhold.reservations().create(order42, "order-42");
        System.out.println(again.value().id() + " replayed: " + again.replayed());
        // confirm sells the 2 units; the order's reservations by reference, page after page as the stream goes
        stockhold.reservations().confirm(held.value().id());
        List<Reservation> ofOrder42 = stockhold.reservations().list(Query.of().with("reference", "order-42")).toList();
        // a second warehouse: 25 received, then a count of 24, only if nobody wrote since the read (If-Match from it)
        stockhold.stock().adjust("A-1", "WH-2", AdjustmentRequest.of(25).withReason("received"), "grn-7");
        StockRecord wh2 = stockhold.stock().record("A-1", "WH-2").value();
        stockhold.stock().setIfUnchanged(wh2, SetOnHandRequest.of(24));
        // the same read again is stale now: nothing is overwritten
        boolean stale = false;
        try {
            stockhold.stock().setIfUnchanged(wh2, SetOnHandRequest.of(30));
        } catch (Problems.PreconditionFailed refused) {
            stale = true;
        }
        // keep 3 units aside at WH-2: confirm commits them, a fulfilment ships 2, a release frees 1
        Reservation aside = stockhold.reservations()
                .create(ReservationRequest.of(List.of(ReservationRequestLine.of("A-1", 3).withLocation("WH-2")))
                        .withFulfilment("deferred"))
                .value();
        stockhold.reservations().confirm(aside.id());
        stockhold.reservations().fulfil(aside.id(), new SettlementRequest(List.of(SettlementLine.of("A-1", 2))));
        stockhold.reservations().release(aside.id(), new SettlementRequest(List.of(SettlementLine.of("A-1", 1))));
        // WH-2's ledger, newest first, the cursor followed for you
        List<StockMovement> ledger = stockhold.stock().movements("A-1", "WH-2", Query.of().with("limit", 2)).toList();
        // 40 in one piece when no location holds more than 22: refused, with what the line lacks (18)
        int shortBy = 0;
        try {
            stockhold.reservations().create(ReservationRequest.of(List.of(ReservationRequestLine.of("A-1", 40))));
        } catch (Problems.InsufficientStock refused) {
            shortBy = (int) refused.shortfall().get(0).missing();
        }
        // tour:end
        assertThat(again.replayed()).isTrue();
        assertThat(again.value().id()).isEqualTo(held.value().id());
        assertThat(ofOrder42).extracting(Reservation::id).containsExactly(held.value().id());
        assertThat(stale).isTrue();
        assertThat(stockhold.stock().record("A-1", "WH-2").value().onHand()).isEqualTo(22);
        assertThat(ledger).extracting(StockMovement::kind).containsExactly("release", "fulfil", "confirm", "set", "adjust");
        assertThat(shortBy).isEqualTo(18);
        // a sku with the characters skus may have beyond letters and digits reaches its record
        stockhold.stock().set("B:1.x_y", "WH-2", SetOnHandRequest.of(3));
        assertThat(stockhold.stock().record("B:1.x_y", "WH-2").value().onHand()).isEqualTo(3);
    }
}
