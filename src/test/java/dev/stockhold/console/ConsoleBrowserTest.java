package dev.stockhold.console;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import javax.sql.DataSource;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;

import dev.stockhold.console.TestIdentityProvider.User;
import dev.stockhold.support.BrokerQueue;
import dev.stockhold.support.Db;
import dev.stockhold.support.Eventually;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;

/**
 * The operator console in Debian's Chromium against the running service: sign-in through a real authorization-code
 * flow with PKCE at {@link TestIdentityProvider}, then every view used with the keyboard alone (Tab, type, Enter),
 * except the double clicks, which are the mouse's. Each view is checked with axe-core.
 */
@QuarkusTest
@TestProfile(ConsoleProfile.class)
class ConsoleBrowserTest {

    static final String ROLES_ALL = "reservations,inventory-admin,ops";

    @TestHTTPResource("/console/")
    URL console;

    @Inject
    DataSource dataSource;

    Db db;
    User alice;
    User bob;
    String sku = "SKU-" + UUID.randomUUID().toString().substring(0, 8);
    Browser browser;

    @BeforeEach
    void setUp() throws Exception {
        db = new Db(dataSource);
        String run = UUID.randomUUID().toString().substring(0, 8);
        alice = new User("alice-" + run, "console-a-" + run, Set.of(ROLES_ALL.split(",")));
        bob = new User("bob-" + run, "console-b-" + run, Set.of(ROLES_ALL.split(",")));
        TestIdentityProvider.addUser(alice);
        TestIdentityProvider.addUser(bob);
        TestIdentityProvider.registerRedirectUri(console.toString());
        // a record with a history: set to 40, then counted down and up again
        as(alice).contentType(ContentType.JSON).body("{\"onHand\":40}").put("/v1/items/{sku}/stock/default", sku).then().statusCode(200);
        adjust(alice, -4, "damaged");
        adjust(alice, 9, "found in aisle 3");
        browser = Browser.open();
    }

    @AfterEach
    void closeBrowser() {
        if (browser != null) {
            assertThat(browser.pageErrors()).as("errors the pages logged (scripts, the Content-Security-Policy)").isEmpty();
            browser.close();
        }
    }

    @Test
    void shouldSignInFindASkuAdjustItAndRefuseAStaleSet() throws Exception {
        int issued = TestIdentityProvider.tokensIssued();
        browser.signIn(console, alice);
        assertThat(TestIdentityProvider.tokensIssued()).as("one code redeemed at the token endpoint").isEqualTo(issued + 1);

        browser.findSku(sku);
        browser.tabTo("button", "Open default");
        browser.press(Keys.ENTER);
        browser.awaitText("h2", sku + " at default");
        assertThat(browser.fact("onHand")).isEqualTo("45");
        assertThat(browser.fact("held")).isEqualTo("0");
        assertThat(browser.fact("reservable")).isEqualTo("45");
        assertThat(browser.fact("version")).isEqualTo(String.valueOf(stock(alice, "version")));
        WebElement chart = browser.driver.findElement(By.cssSelector("figure.chart svg"));
        assertThat(chart.getAttribute("data-entries")).as("ledger entries drawn").isEqualTo("3");
        assertThat(chart.getAttribute("data-on-hand")).isEqualTo("45");
        assertThat(browser.driver.findElement(By.cssSelector("path.on-hand")).getAttribute("d")).as("a step per entry, and now")
                .matches("M[^H]+( H[\\d.]+ V[\\d.]+){3}");
        assertThat(browser.rowsOf("Ledger entries")).hasSize(3);
        WebElement kind = browser.tabTo("select", "Kind");
        browser.press("set");
        assertThat(kind.getAttribute("value")).isEqualTo("set");
        browser.tabTo("button", "Filter");
        browser.press(Keys.ENTER);
        browser.await(d -> browser.rowsOf("Ledger entries").size() == 1);
        assertThat(browser.rowsOf("Ledger entries").get(0).getText()).contains("set").contains("+40");

        browser.type("input", "Change of on hand", "5");
        browser.type("input", "Reason", "cycle count");
        browser.type("input", "Reference", "https://erp.example/counts/17");
        browser.press(Keys.ENTER);
        browser.awaitText("#status", "Adjusted " + sku);
        browser.awaitText("[data-fact='onHand']", "50");
        List<String> newest = browser.cells("Ledger entries", 0);
        assertThat(newest.get(2)).isEqualTo("adjust");
        assertThat(newest.get(3)).isEqualTo("+5");
        assertThat(newest.get(7)).isEqualTo("cycle count");
        browser.screenshot(screenshotPath());
        assertThat(browser.accessibilityViolations()).as("axe on the stock view").isEmpty();

        // someone else changes the record after the console read it: the set names the old version and is refused
        long before = stock(alice, "version");
        adjust(alice, 1, "another operator");
        browser.type("input", "New on hand", "100");
        browser.press(Keys.ENTER);
        browser.awaitText("#status", "Conflict");
        assertThat(browser.status()).contains("changed since version " + before).contains("nothing was overwritten");
        browser.awaitText("[data-fact='onHand']", "51");
        assertThat(stock(alice, "onHand")).as("never overwritten").isEqualTo(51);

        // a warehouse counted 48 as of now (the form's time, taken when the view is drawn, after every entry above)
        browser.goTo("Stock");
        Path csv = Files.createTempFile("stockhold-count", ".csv");
        Files.writeString(csv, "sku,onHand\n" + sku + ",48\n");
        browser.type("input", "Location", "default");
        browser.tabTo("input[type=file]", "Count file").sendKeys(csv.toString());
        browser.tabTo("button", "Upload count");
        browser.press(Keys.ENTER);
        browser.awaitText("table caption", "Count at default");
        assertThat(browser.cells("Count at default", 0)).as("sku, status, counted, before, after, drift").containsExactly(sku, "applied",
                "48", "51", "48", "-3");
        assertThat(stock(alice, "onHand")).isEqualTo(48);
    }

    @Test
    void shouldReserveAndCancelWithDoubleClicksMovingStockOnce() throws Exception {
        browser.signIn(console, alice);
        browser.goTo("Reservations");
        String reference = "order-" + UUID.randomUUID().toString().substring(0, 8);
        browser.type("input", "Sku", sku);
        browser.type("input", "Quantity", "3");
        browser.type("input", "Reference (optional)", reference);
        browser.doubleClick(browser.driver.findElement(By.xpath("//button[.='Reserve']")));
        browser.awaitText("[data-fact='status']", "HELD");
        assertThat(as(alice).queryParam("reference", reference).get("/v1/reservations").then().statusCode(200).extract().jsonPath()
                .getList("items")).as("one reservation for a double click").hasSize(1);
        assertThat(stock(alice, "held")).isEqualTo(3);
        String id = browser.driver.findElement(By.cssSelector("main h2")).getText().replace("Reservation ", "");
        assertThat(browser.fact("expires")).as("the hold counts down").containsPattern("in 1[45] min \\d+ s");

        browser.doubleClick(browser.driver.findElement(By.xpath("//button[.='Cancel']")));
        browser.awaitText("[data-fact='status']", "CANCELLED");
        assertThat(stock(alice, "held")).isZero();
        assertThat(db.queryLong("SELECT count(*) FROM outbox_events WHERE tenant_id = ? AND aggregate_id = ?::uuid AND event_type LIKE ?",
                alice.tenant(), id, "%reservation.cancelled%")).as("one cancellation").isEqualTo(1);
        assertThat(browser.accessibilityViolations()).as("axe on the reservations view").isEmpty();

        // found again by its reference, and a reservation made elsewhere by the Idempotency-Key its client sent
        browser.findReservation("reference", reference);
        browser.awaitText("main h2", "Reservation " + id);
        String key = "checkout-" + UUID.randomUUID();
        String other = as(alice).contentType(ContentType.JSON).header("Idempotency-Key", key)
                .body("{\"fulfilment\":\"deferred\",\"lines\":[{\"sku\":\"" + sku + "\",\"quantity\":2}]}").post("/v1/reservations")
                .then().statusCode(201).extract().path("id");
        browser.findReservation("Idempotency-Key", key);
        browser.awaitText("main h2", "Reservation " + other);
        browser.awaitText("[data-fact='status']", "HELD");
        browser.type("input", "Hold for (seconds from now)", "1800");
        browser.press(Keys.ENTER);
        browser.awaitText("#status", "Extended");
        browser.awaitText("[data-fact='expires']", "(in 29 min");
        browser.tabTo("button", "Confirm");
        browser.press(Keys.ENTER);
        browser.awaitText("[data-fact='status']", "CONFIRMED");
        browser.tabTo("button", "Fulfil all open");
        browser.press(Keys.ENTER);
        browser.awaitText("[data-fact='status']", "FULFILLED");
        assertThat(stock(alice, "onHand")).as("the fulfilment shipped the 2 committed units").isEqualTo(43);
        assertThat(browser.cells("Lines", 0).get(3)).as("fulfilled").isEqualTo("2");
    }

    @Test
    void shouldFindAReservationByItsIdAndReleaseWhatIsOpen() throws Exception {
        String id = as(alice).contentType(ContentType.JSON).header("Idempotency-Key", UUID.randomUUID().toString())
                .body("{\"fulfilment\":\"deferred\",\"lines\":[{\"sku\":\"" + sku + "\",\"quantity\":4}]}").post("/v1/reservations")
                .then().statusCode(201).extract().path("id");
        as(alice).header("Idempotency-Key", UUID.randomUUID().toString()).post("/v1/reservations/{id}/confirm", id).then().statusCode(200);
        long onHand = stock(alice, "onHand");
        assertThat(stock(alice, "committed")).isEqualTo(4);

        browser.signIn(console, alice);
        browser.goTo("Reservations");
        browser.findReservation("id", id);
        browser.awaitText("main h2", "Reservation " + id);
        browser.awaitText("[data-fact='status']", "CONFIRMED");
        browser.tabTo("button", "Release all open");
        browser.press(Keys.ENTER);
        browser.awaitText("#status", "Release all open: the reservation is FULFILLED");
        assertThat(browser.cells("Lines", 0).get(4)).as("released").isEqualTo("4");
        assertThat(stock(alice, "committed")).as("the released units are no longer committed").isZero();
        assertThat(stock(alice, "onHand")).as("a release ships nothing").isEqualTo(onHand);
        assertThat(browser.driver.findElements(By.xpath("//button[.='Release all open' or .='Fulfil all open']")))
                .as("nothing left open to act on").isEmpty();
    }

    @Test
    void shouldRequeueADeadEventAndSeeItPublished() throws Exception {
        try (BrokerQueue broker = new BrokerQueue()) {
            browser.signIn(console, alice);
            browser.goTo("Outbox");
            browser.awaitText("[data-fact='dead']", "0");
            // the broker refuses an event while the view is open: the view reads itself again and shows it
            String id = deadReservationEvent(alice);
            browser.awaitText("table", id);
            assertThat(browser.fact("dead")).isEqualTo("1");
            assertThat(browser.driver.findElement(By.cssSelector("td.error-text")).getText()).contains("refused by the broker");
            assertThat(browser.accessibilityViolations()).as("axe on the outbox view").isEmpty();

            browser.tabTo("button", "Requeue event " + id);
            browser.press(Keys.ENTER);
            browser.awaitText("#status", "sent back to the relay");
            awaitDb("the event published again", "SELECT count(*) FROM outbox_events WHERE id = ?::uuid AND status = 'PUBLISHED'", 1, id);
            Eventually.await(java.time.Duration.ofSeconds(15), "the event at the broker",
                    () -> broker.of(alice.tenant()).stream().anyMatch(d -> id.equals(d.eventId())));
            browser.awaitText("[data-fact='dead']", "0");
            assertThat(browser.driver.findElements(By.xpath("//td[.='" + id + "']"))).as("no longer listed as dead").isEmpty();

            // two more, sent back together
            List<String> dead = List.of(deadReservationEvent(alice), deadReservationEvent(alice));
            browser.awaitText("[data-fact='dead']", "2");
            browser.tabTo("button", "Requeue all dead events");
            browser.press(Keys.ENTER);
            browser.awaitText("#status", "2 dead event(s) sent back to the relay");
            Eventually.await(java.time.Duration.ofSeconds(15), "both events at the broker",
                    () -> broker.of(alice.tenant()).stream().map(d -> d.eventId()).toList().containsAll(dead));
            browser.awaitText("[data-fact='dead']", "0");

            // with the refresh turned off the view stays as it was read; turned on, it reads at once
            browser.tabTo("input", "Refresh every 5 s");
            browser.press(Keys.SPACE);
            String later = deadReservationEvent(alice);
            Thread.sleep(6_500); // longer than a refresh period
            assertThat(browser.fact("dead")).as("not read again while the refresh is off").isEqualTo("0");
            browser.press(Keys.SPACE);
            browser.awaitText("table", later);
            assertThat(browser.fact("dead")).isEqualTo("1");
        }
    }

    @Test
    void shouldShowATenantNothingOfAnothersInTheConsole() throws Exception {
        String reference = "a-only-" + UUID.randomUUID().toString().substring(0, 8);
        String aliceReservation = as(alice).contentType(ContentType.JSON).header("Idempotency-Key", UUID.randomUUID().toString())
                .body("{\"reference\":\"" + reference + "\",\"lines\":[{\"sku\":\"" + sku + "\",\"quantity\":1}]}")
                .post("/v1/reservations").then().statusCode(201).extract().path("id");
        String aliceDead = deadReservationEvent(alice);

        browser.signIn(console, bob);
        browser.findSku(sku);
        browser.awaitText("main .error", "not found");
        assertThat(browser.driver.findElements(By.xpath("//table[caption[contains(., 'Stock per location')]]"))).isEmpty();

        browser.goTo("Reservations");
        browser.findReservation("reference", reference);
        browser.awaitText("#status", "0 reservation(s) found");
        browser.get(console + "#/reservations?id=" + aliceReservation);
        browser.awaitText("main .error", "not found");
        assertThat(browser.driver.findElement(By.tagName("main")).getText()).doesNotContain(reference);

        browser.goTo("Outbox");
        browser.awaitText("[data-fact='dead']", "0");
        assertThat(browser.driver.findElement(By.tagName("main")).getText()).doesNotContain(aliceDead);
    }

    @Test
    void shouldOfferSignInAndPassAccessibilityChecksBeforeIt() throws Exception {
        browser.get(console.toString());
        browser.awaitText("main p", "Sign in with your organisation's account (" + TestIdentityProvider.issuer() + ")");
        assertThat(browser.accessibilityViolations()).as("axe on the sign-in page").isEmpty();
        assertThat(browser.accessibilityPasses()).as("rules axe checked and found met").isGreaterThan(10);
    }

    @Test
    void shouldOfferOnlyWhatTheRolesAllow() throws Exception {
        User clerk = new User("clerk-" + alice.name(), alice.tenant(), Set.of("reservations"));
        TestIdentityProvider.addUser(clerk);
        for (int i = 0; i < 20; i++) {
            adjust(alice, 1, "receipt " + i);
        }
        browser.signIn(console, clerk);
        browser.findSku(sku);
        browser.tabTo("button", "Open default");
        browser.press(Keys.ENTER);
        browser.awaitText("[data-fact='onHand']", "65");
        assertThat(browser.driver.findElements(By.xpath("//button[.='Adjust' or .='Set' or .='Upload count']")))
                .as("no inventory-admin form").isEmpty();

        // 23 entries: a keyset page of the newest 20, then the 3 older, and back
        assertThat(browser.rowsOf("(page 1)")).hasSize(20);
        browser.tabTo("button", "Older entries");
        browser.press(Keys.ENTER);
        browser.awaitText("table caption", "(page 2)");
        assertThat(browser.driver.switchTo().activeElement().getText()).as("the keyboard goes on from the ledger").isEqualTo("Ledger");
        assertThat(browser.rowsOf("(page 2)")).extracting(row -> row.findElement(By.tagName("td")).getText())
                .containsExactly("3", "2", "1");
        browser.tabTo("button", "Newer entries");
        browser.press(Keys.ENTER);
        browser.awaitText("table caption", "(page 1)");

        browser.goTo("Outbox");
        browser.awaitText("main .note", "Not allowed");
        assertThat(browser.driver.findElements(By.xpath("//button[starts-with(., 'Requeue')]"))).isEmpty();
    }

    /** A reservation's created event, published, then refused by the broker until the relay gave it up (DEAD). */
    String deadReservationEvent(User user) {
        String reservation = as(user).contentType(ContentType.JSON).header("Idempotency-Key", UUID.randomUUID().toString())
                .body("{\"lines\":[{\"sku\":\"" + sku + "\",\"quantity\":1}]}").post("/v1/reservations")
                .then().statusCode(201).extract().path("id");
        awaitDb("the created event published", "SELECT count(*) FROM outbox_events WHERE aggregate_id = ?::uuid AND status = 'PUBLISHED'",
                1, reservation);
        db.execute("""
                UPDATE outbox_events SET status = 'DEAD', attempts = 10, published_at = NULL,
                       last_error = 'nack: refused by the broker (test)'
                 WHERE aggregate_id = ?::uuid
                """, reservation);
        return db.queryStrings("SELECT id::text FROM outbox_events WHERE aggregate_id = ?::uuid", reservation).get(0);
    }

    private Path screenshotPath() {
        // the README's screenshot is rewritten only on request, like the generated docs tables
        return Boolean.getBoolean("console.screenshot.update") ? dev.stockhold.support.Repository.path("docs/console.png")
                : Path.of("target/console-stock.png");
    }

    RequestSpecification as(User user) {
        return given().auth().oauth2(TestIdentityProvider.accessToken(user));
    }

    void adjust(User user, int delta, String reason) {
        as(user).contentType(ContentType.JSON).header("Idempotency-Key", UUID.randomUUID().toString())
                .body("{\"delta\":" + delta + ",\"reason\":\"" + reason + "\"}")
                .post("/v1/items/{sku}/stock/default/adjustments", sku).then().statusCode(200);
    }

    /** One of the record's numbers as the API has it (held, committed, onHand, version). */
    long stock(User user, String field) {
        return as(user).get("/v1/items/{sku}/stock/default", sku).then().statusCode(200).extract().jsonPath().getLong(field);
    }

    void awaitDb(String what, String sql, long expected, Object... args) {
        Eventually.await(java.time.Duration.ofSeconds(15), what, () -> db.queryLong(sql, args) == expected);
    }

}
