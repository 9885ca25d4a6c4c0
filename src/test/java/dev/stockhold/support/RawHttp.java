package dev.stockhold.support;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** HTTP/1.1 byte for byte over a socket, so no client normalises a path or a header on the way. */
public final class RawHttp {

    private RawHttp() {
    }

    /** A request of this tenant (all roles) with a JSON body and its Content-Length. */
    public static String request(String method, String path, String tenant, String body, Map<String, String> headers) {
        StringBuilder request = new StringBuilder(method + " " + path + " HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer "
                + Tokens.allRoles(tenant) + "\r\nContent-Type: application/json\r\n");
        headers.forEach((name, value) -> request.append(name).append(": ").append(value).append("\r\n"));
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        return request.append("Content-Length: ").append(bytes.length).append("\r\n\r\n").append(body).toString();
    }

    /**
     * Sends the bytes, then a last request that asks the server to close, and reads until it does (or 10 s pass): every
     * answer the connection gave.
     */
    public static String exchange(int port, String request) throws IOException {
        try (Socket socket = new Socket("localhost", port)) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(request.getBytes(StandardCharsets.UTF_8));
            out.write("GET /v1/settings HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            return readAll(socket.getInputStream()).toString(StandardCharsets.UTF_8);
        }
    }

    /** Everything until the server closes the connection; a reset or a silence after the answer ends it too. */
    public static ByteArrayOutputStream readAll(InputStream in) {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        try {
            for (int n; (n = in.read(buffer)) >= 0;) {
                all.write(buffer, 0, n);
            }
        } catch (IOException e) {
            // reset or silent after the answer: what was read is the answer
        }
        return all;
    }
}
