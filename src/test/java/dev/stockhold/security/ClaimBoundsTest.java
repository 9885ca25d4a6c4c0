package dev.stockhold.security;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import java.time.Duration;
import java.time.Instant;
import java.util.Set;

import org.junit.jupiter.api.Test;

import dev.stockhold.support.Api;
import dev.stockhold.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.smallrye.jwt.build.Jwt;
import io.smallrye.jwt.build.JwtClaimsBuilder;

/**
 * Correctly signed tokens whose claims are out of bounds, and tokens whose bytes spell a verified token another way:
 * each is a 401 problem, never a 500 and never a new entry in the verified-token cache.
 */
@QuarkusTest
class ClaimBoundsTest {

    @Test
    void shouldRefuseAnExpiryBeyondAnyDateWithA401() {
        Api api = Api.newTenant();
        long now = Instant.now().getEpochSecond();
        String token = claims(api.tenant(), "user").issuedAt(now).claim("exp", 1e20d).sign();

        given().auth().oauth2(token).get("/v1/items").then().statusCode(401).contentType("application/problem+json")
                .body("type", equalTo("/problems/unauthorized"));
    }

    @Test
    void shouldRefuseASubjectTheLedgerCannotRecord() {
        Api api = Api.newTenant();
        String sku = Api.sku();
        api.setStock(sku, 5);
        // as JSON escapes, signed as they are: a builder may clean a subject up before it signs
        for (String subject : new String[]{ "x".repeat(300), "a\\u0000b", "a\\u0085b", "a\\ud800b", "" }) {
            String token = signed(api.tenant(), subject);
            var answer = given().auth().oauth2(token).contentType(ContentType.JSON).header("Idempotency-Key", Api.key())
                    .body("{\"delta\":1,\"reason\":\"received\"}").post("/v1/items/" + sku + "/stock/default/adjustments");
            assertThat(answer.statusCode()).as("sub of %d characters: %s", subject.length(), answer.asString()).isEqualTo(401);
            assertThat(answer.asString()).contains("/problems/unauthorized");
        }
        String fine = claims(api.tenant(), "é-".repeat(100) + "\ud83d\ude00").expiresIn(Duration.ofMinutes(5)).sign();
        given().auth().oauth2(fine).contentType(ContentType.JSON).header("Idempotency-Key", Api.key())
                .body("{\"delta\":1,\"reason\":\"received\"}").post("/v1/items/" + sku + "/stock/default/adjustments")
                .then().statusCode(200);
    }

    @Test
    void shouldRefuseAnotherSpellingOfAVerifiedToken() {
        Api api = Api.newTenant();
        String token = Tokens.allRoles(api.tenant());
        given().auth().oauth2(token).get("/v1/items").then().statusCode(200);

        String signature = token.substring(token.lastIndexOf('.') + 1);
        char last = signature.charAt(signature.length() - 1);
        // 256 bytes of signature are 342 characters: the last one carries 4 bits, and its other 2 must be zero
        String sameBytes = token.substring(0, token.length() - 1)
                + "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".charAt(
                        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".indexOf(last) | 1);
        for (String spelling : new String[]{ token + "=", token + "==", sameBytes, " " + token, token.replace('.', ',') }) {
            assertThat(spelling).isNotEqualTo(token);
            given().auth().oauth2(spelling).get("/v1/items").then().statusCode(401);
        }
    }

    /** A token whose sub is this JSON string content, written into the claims as it is. */
    private static String signed(String tenant, String subject) {
        long now = Instant.now().getEpochSecond();
        String claims = "{\"iss\":\"" + Tokens.ISSUER + "\",\"aud\":\"" + Tokens.AUDIENCE + "\",\"sub\":\"" + subject
                + "\",\"tenant_id\":\"" + tenant + "\",\"groups\":[\"reservations\",\"inventory-admin\"],\"iat\":" + now
                + ",\"exp\":" + (now + 300) + "}";
        try {
            org.jose4j.jws.JsonWebSignature jws = new org.jose4j.jws.JsonWebSignature();
            jws.setPayload(claims);
            jws.setAlgorithmHeaderValue("RS256");
            jws.setKey(io.smallrye.jwt.util.KeyUtils.readPrivateKey("test-jwt/TEST-ONLY-private.pem"));
            return jws.getCompactSerialization();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static JwtClaimsBuilder claims(String tenant, String subject) {
        return Jwt.issuer(Tokens.ISSUER).audience(Tokens.AUDIENCE).subject(subject).claim("tenant_id", tenant)
                .groups(Set.of("reservations", "inventory-admin"));
    }
}
