package dev.stockhold.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import dev.stockhold.support.Api;
import dev.stockhold.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Slow clients (slowloris: headers sent, body trickling or never finished) are held by the event loop, not by worker
 * threads, and are cut off by {@code quarkus.http.read-timeout}: they cannot exhaust the pool that serves others.
 */
@QuarkusTest
class SlowClientTest {

    @ConfigProperty(name = "quarkus.http.test-port")
    int port;

    @Test
    void shouldServeOthersWhileManyClientsHangMidBody() throws Exception {
        Api api = Api.newTenant();
        api.setStock("SLOW-1", 10);
        String token = Tokens.allRoles(api.tenant());
        List<Socket> hanging = new ArrayList<>();
        try {
            for (int i = 0; i < 200; i++) {
                Socket socket = new Socket("localhost", port);
                OutputStream out = socket.getOutputStream();
                out.write(("POST /v1/reservations HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer " + token
                        + "\r\nContent-Type: application/json\r\nIdempotency-Key: slow-" + i
                        + "\r\nContent-Length: 1000\r\n\r\n{\"lines\":[").getBytes(StandardCharsets.US_ASCII));
                out.flush();
                hanging.add(socket);
            }

            for (int i = 0; i < 5; i++) {
                api.reserve(Api.key(), "SLOW-1", 1).then().statusCode(201);
            }
        } finally {
            for (Socket socket : hanging) {
                socket.close();
            }
        }
        api.request().get("/v1/items/SLOW-1").then().statusCode(200);
        assertThat(hanging).hasSize(200);
    }
}
