package dev.stockhold.security;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Set;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import javax.sql.DataSource;

import jakarta.inject.Inject;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.stockhold.support.Api;
import dev.stockhold.support.Db;
import dev.stockhold.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.smallrye.jwt.build.Jwt;

/** Forged and abused tokens: every one refused with a 401 problem, and nothing changes. */
@QuarkusTest
class JwtAttackTest {

    @Inject
    DataSource dataSource;

    Db db;
    Api victim;

    @BeforeEach
    void setUp() {
        db = new Db(dataSource);
        victim = Api.newTenant();
        victim.setStock("LOOT", 10);
    }

    @Test
    void shouldRefuseAnUnsignedTokenWithAlgNone() {
        String token = b64("{\"alg\":\"none\",\"typ\":\"JWT\"}") + "." + claims(victim.tenant()) + ".";

        attempt(token);
    }

    @Test
    void shouldRefuseHs256SignedWithThePublicKey() throws Exception {
        // key confusion: a verifier that let the token pick HMAC would accept the public key as the shared secret
        byte[] publicKey = Files.readAllBytes(Path.of("src/test/resources/test-jwt/TEST-ONLY-public.pem"));
        String signingInput = b64("{\"alg\":\"HS256\",\"typ\":\"JWT\"}") + "." + claims(victim.tenant());
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(publicKey, "HmacSHA256"));
        String token = signingInput + "." + Base64.getUrlEncoder().withoutPadding().encodeToString(
                mac.doFinal(signingInput.getBytes(StandardCharsets.US_ASCII)));

        attempt(token);
    }

    @Test
    void shouldRefuseATokenNotYetValid() {
        long future = Instant.now().plus(Duration.ofHours(1)).getEpochSecond();
        String token = Jwt.issuer(Tokens.ISSUER).audience(Tokens.AUDIENCE).subject("attacker").claim("tenant_id", victim.tenant())
                .groups(Set.of("reservations", "inventory-admin"))
                .issuedAt(future).claim("nbf", future).expiresAt(future + 3600).sign();

        attempt(token);
    }

    @Test
    void shouldRefuseATokenWithATamperedPayload() {
        String genuine = Tokens.forTenant("attacker-" + System.nanoTime(), "reservations", "inventory-admin");
        String[] parts = genuine.split("\\.");
        String token = parts[0] + "." + claims(victim.tenant()) + "." + parts[2];

        attempt(token);
    }

    @Test
    void shouldIgnoreEveryOtherPlaceASecondTenantCouldBeNamed() {
        Api attacker = Api.newTenant();
        String token = Jwt.issuer(Tokens.ISSUER).audience(Tokens.AUDIENCE).subject("attacker").claim("tenant_id", attacker.tenant())
                .claim("tenant", victim.tenant())
                .claim("tid", victim.tenant()).groups(Set.of("reservations", "inventory-admin"))
                .expiresIn(Duration.ofMinutes(5)).sign();

        given().auth().oauth2(token).header("X-Tenant-Id", victim.tenant()).header("Tenant-Id", victim.tenant())
                .queryParam("tenant_id", victim.tenant())
                .get("/v1/items/LOOT").then().statusCode(404);
        given().auth().oauth2(token).header("X-Tenant-Id", victim.tenant()).contentType(ContentType.JSON)
                .header("Idempotency-Key", Api.key())
                .body("{\"lines\":[{\"sku\":\"LOOT\",\"quantity\":1}]}").post("/v1/reservations").then().statusCode(422);
        given().auth().oauth2(token).contentType(ContentType.JSON).header("Idempotency-Key", Api.key())
                .body("{\"lines\":[{\"sku\":\"LOOT\",\"quantity\":1}],\"tenant_id\":\"" + victim.tenant() + "\"}")
                .post("/v1/reservations").then().statusCode(400);

        assertThat(db.available(victim.tenant(), "LOOT")).isEqualTo(10);
        assertThat(db.reservationsOfTenant(victim.tenant())).isZero();
    }

    @Test
    void shouldRefuseATenantClaimThatIsNotAString() {
        String token = Jwt.issuer(Tokens.ISSUER).audience(Tokens.AUDIENCE).subject("attacker").claim("tenant_id", 42)
                .groups(Set.of("reservations", "inventory-admin"))
                .expiresIn(Duration.ofMinutes(5)).sign();

        attempt(token);
    }

    private void attempt(String token) {
        given().auth().oauth2(token).get("/v1/items/LOOT").then().statusCode(401)
                .contentType("application/problem+json").body("type", equalTo("/problems/unauthorized"));
        given().auth().oauth2(token).contentType(ContentType.JSON).body("{\"available\":0}").put("/v1/items/LOOT")
                .then().statusCode(401);
        given().auth().oauth2(token).contentType(ContentType.JSON).header("Idempotency-Key", Api.key())
                .body("{\"lines\":[{\"sku\":\"LOOT\",\"quantity\":1}]}").post("/v1/reservations").then().statusCode(401);
        assertThat(db.available(victim.tenant(), "LOOT")).isEqualTo(10);
        assertThat(db.reservationsOfTenant(victim.tenant())).isZero();
    }

    private static String claims(String tenant) {
        long now = Instant.now().getEpochSecond();
        return b64("{\"iss\":\"" + Tokens.ISSUER + "\",\"sub\":\"x\",\"tenant_id\":\"" + tenant
                + "\",\"groups\":[\"reservations\",\"inventory-admin\"],\"iat\":" + now + ",\"exp\":" + (now + 600) + "}");
    }

    private static String b64(String json) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(json.getBytes(StandardCharsets.UTF_8));
    }
}
