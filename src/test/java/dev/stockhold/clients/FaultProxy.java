package dev.stockhold.clients;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An HTTP/1.1 proxy in front of the service that loses answers on purpose. Per request it draws a fault: it passes
 * the answer on, drops the connection after the service answered (so after its commit), holds the answer past the
 * client's timeout and then drops it, or answers 503 itself, before or after forwarding. One request per connection
 * ({@code Connection: close} both ways), so a fault never leaks into the next request. {@link #blackHole} forwards
 * every request and returns no answer at all, for calls whose deadline must pass.
 */
final class FaultProxy implements AutoCloseable {

    enum Fault {
        NONE,
        DROP_AFTER_COMMIT,
        DELAY_PAST_TIMEOUT,
        ANSWER_503_BEFORE,
        ANSWER_503_AFTER
    }

    private static final String PROBLEM = "{\"type\":\"/problems/service-unavailable\",\"title\":\"Unavailable\",\"status\":503,"
            + "\"detail\":\"injected by FaultProxy\"}";
    private static final byte[] UNAVAILABLE = ("HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/problem+json\r\nRetry-After: 0\r\n"
            + "Connection: close\r\nContent-Length: " + PROBLEM.length() + "\r\n\r\n" + PROBLEM).getBytes(StandardCharsets.US_ASCII);

    private final ServerSocket server;
    private final int upstream;
    private final double faultRate;
    private final Duration delay;
    private final Random random;
    private final ExecutorService workers = Executors.newCachedThreadPool();
    private final Map<Fault, AtomicLong> counts = new EnumMap<>(Fault.class);
    private volatile boolean blackHole;

    FaultProxy(int upstream, double faultRate, Duration delay, long seed) throws IOException {
        this.upstream = upstream;
        this.faultRate = faultRate;
        this.delay = delay;
        this.random = new Random(seed);
        for (Fault fault : Fault.values()) {
            counts.put(fault, new AtomicLong());
        }
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        workers.submit(this::accept);
    }

    int port() {
        return server.getLocalPort();
    }

    String url() {
        return "http://127.0.0.1:" + port();
    }

    /** While on, every request reaches the service and no answer comes back (each is held, then dropped). */
    void blackHole(boolean on) {
        blackHole = on;
    }

    long count(Fault fault) {
        return counts.get(fault).get();
    }

    long faults() {
        return counts.entrySet().stream().filter(e -> e.getKey() != Fault.NONE).mapToLong(e -> e.getValue().get()).sum();
    }

    String summary() {
        return "requests=" + (faults() + count(Fault.NONE)) + " faults=" + faults() + " (dropped after commit "
                + count(Fault.DROP_AFTER_COMMIT)
                + ", delayed past timeout " + count(Fault.DELAY_PAST_TIMEOUT) + ", 503 before " + count(Fault.ANSWER_503_BEFORE)
                + ", 503 after "
                + count(Fault.ANSWER_503_AFTER) + ")";
    }

    private synchronized Fault draw() {
        if (blackHole) {
            return Fault.DELAY_PAST_TIMEOUT;
        }
        if (random.nextDouble() >= faultRate) {
            return Fault.NONE;
        }
        return Fault.values()[1 + random.nextInt(Fault.values().length - 1)];
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                workers.submit(() -> serve(client));
            } catch (IOException closed) {
                return;
            }
        }
    }

    private void serve(Socket client) {
        try (client) {
            byte[] request = readRequest(client.getInputStream());
            if (request == null) {
                return;
            }
            Fault fault = draw();
            counts.get(fault).incrementAndGet();
            if (fault == Fault.ANSWER_503_BEFORE) {
                client.getOutputStream().write(UNAVAILABLE);
                return;
            }
            byte[] response = forward(request);
            switch (fault) {
                case NONE -> client.getOutputStream().write(response);
                case ANSWER_503_AFTER -> client.getOutputStream().write(UNAVAILABLE);
                case DELAY_PAST_TIMEOUT -> Thread.sleep(delay.toMillis());
                default -> client.setSoLinger(true, 0); // DROP_AFTER_COMMIT: a reset, no answer
            }
        } catch (IOException | InterruptedException e) {
            // the client went away first: nothing to answer
        }
    }

    private byte[] forward(byte[] request) throws IOException {
        try (Socket service = new Socket(InetAddress.getLoopbackAddress(), upstream)) {
            OutputStream out = service.getOutputStream();
            out.write(request);
            out.flush();
            return withConnectionClose(service.getInputStream().readAllBytes());
        }
    }

    /** One request: its head with {@code Connection: close} (and no upgrade), then its Content-Length body. */
    private static byte[] readRequest(InputStream in) throws IOException {
        String head = readHead(in);
        if (head == null) {
            return null;
        }
        StringBuilder rewritten = new StringBuilder();
        int length = 0;
        for (String line : head.split("\r\n")) {
            String name = line.contains(":") ? line.substring(0, line.indexOf(':')).trim().toLowerCase(Locale.ROOT) : "";
            if (name.equals("content-length")) {
                length = Integer.parseInt(line.substring(line.indexOf(':') + 1).trim());
            }
            if (!name.equals("connection") && !name.equals("upgrade") && !name.equals("http2-settings") && !name.equals("keep-alive")) {
                rewritten.append(line).append("\r\n");
            }
        }
        rewritten.append("Connection: close\r\n\r\n");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(rewritten.toString().getBytes(StandardCharsets.ISO_8859_1));
        out.write(in.readNBytes(length));
        return out.toByteArray();
    }

    private static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        int b;
        while ((b = in.read()) != -1) {
            head.write(b);
            matched = (b == '\r' && (matched == 0 || matched == 2)) || (b == '\n' && (matched == 1 || matched == 3)) ? matched + 1 : 0;
            if (matched == 4) {
                String text = head.toString(StandardCharsets.ISO_8859_1);
                return text.substring(0, text.length() - 4);
            }
        }
        return null;
    }

    /** The service's answer with {@code Connection: close}, so the client opens a new connection for its next request. */
    private static byte[] withConnectionClose(byte[] response) {
        String text = new String(response, StandardCharsets.ISO_8859_1);
        int end = text.indexOf("\r\n\r\n");
        if (end < 0) {
            return response;
        }
        StringBuilder head = new StringBuilder();
        for (String line : text.substring(0, end).split("\r\n")) {
            if (!line.toLowerCase(Locale.ROOT).startsWith("connection:")) {
                head.append(line).append("\r\n");
            }
        }
        head.append("Connection: close");
        return (head + text.substring(end)).getBytes(StandardCharsets.ISO_8859_1);
    }

    @Override
    public void close() throws IOException {
        server.close();
        workers.shutdownNow();
    }
}
