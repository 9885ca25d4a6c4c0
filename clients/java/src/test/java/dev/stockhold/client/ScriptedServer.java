package dev.stockhold.client;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * An HTTP/1.1 server that answers each request with the next scripted {@link Reply} (one request per connection) and
 * records what it was sent, for the client's tests without a service.
 */
final class ScriptedServer implements AutoCloseable {

    /** One answer: a status with headers and body, or (status 0) a dropped connection after {@code delayMillis}. */
    record Reply(int status, Map<String, String> headers, String body, long delayMillis) {

        static Reply json(int status, String body, Map<String, String> headers) {
            return new Reply(status, headers, body, 0);
        }

        static Reply problem(int status, String slug, Map<String, String> headers) {
            return new Reply(status, withType(headers), "{\"type\":\"/problems/" + slug + "\",\"title\":\"" + slug + "\",\"status\":" + status
                    + ",\"detail\":\"scripted\",\"skus\":[\"A-1\"]}", 0);
        }

        static Reply drop() {
            return new Reply(0, Map.of(), "", 0);
        }

        Reply after(long millis) {
            return new Reply(status, headers, body, millis);
        }

        private static Map<String, String> withType(Map<String, String> headers) {
            java.util.HashMap<String, String> all = new java.util.HashMap<>(headers);
            all.put("Content-Type", "application/problem+json");
            return all;
        }
    }

    /** What one request carried. */
    record Seen(String requestLine, Map<String, String> headers, String body, long atNanos) {
    }

    private final ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    private final BlockingQueue<Reply> script = new LinkedBlockingQueue<>();
    final List<Seen> seen = new CopyOnWriteArrayList<>();

    ScriptedServer(Reply... replies) throws IOException {
        script.addAll(List.of(replies));
        Thread accept = new Thread(this::accept, "scripted-server");
        accept.setDaemon(true);
        accept.start();
    }

    java.net.URI uri() {
        return java.net.URI.create("http://127.0.0.1:" + server.getLocalPort());
    }

    private void accept() {
        while (!server.isClosed()) {
            try (Socket socket = server.accept()) {
                serve(socket);
            } catch (IOException | InterruptedException e) {
                // closed, or the client went away
            }
        }
    }

    private void serve(Socket socket) throws IOException, InterruptedException {
        InputStream in = socket.getInputStream();
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                return;
            }
            head.write(b);
        }
        String[] lines = head.toString(StandardCharsets.ISO_8859_1).split("\r\n");
        Map<String, String> headers = new java.util.HashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            headers.put(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).trim());
        }
        int length = Integer.parseInt(headers.getOrDefault("content-length", "0"));
        seen.add(new Seen(lines[0], headers, new String(in.readNBytes(length), StandardCharsets.UTF_8), System.nanoTime()));
        Reply reply = script.poll();
        if (reply == null) {
            reply = Reply.problem(500, "internal-error", Map.of());
        }
        Thread.sleep(reply.delayMillis());
        if (reply.status() == 0) {
            socket.setSoLinger(true, 0);
            return;
        }
        StringBuilder answer = new StringBuilder("HTTP/1.1 ").append(reply.status()).append(" X\r\nConnection: close\r\n");
        reply.headers().forEach((name, value) -> answer.append(name).append(": ").append(value).append("\r\n"));
        byte[] body = reply.body().getBytes(StandardCharsets.UTF_8);
        answer.append("Content-Length: ").append(body.length).append("\r\n\r\n");
        socket.getOutputStream().write(answer.toString().getBytes(StandardCharsets.ISO_8859_1));
        socket.getOutputStream().write(body);
    }

    @Override
    public void close() throws IOException {
        server.close();
    }
}
