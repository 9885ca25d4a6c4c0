package dev.stockhold.chaos;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Passes bytes between a listening address on a partition's link and a service that listens on loopback only (the
 * machine's PostgreSQL and RabbitMQ). It adds no timeout of its own: while the link is down, the far side's packets do
 * not arrive and both connections stay open, as a half-open connection through a failed switch does. When either side
 * closes or resets, both are closed.
 */
final class TcpForwarder implements AutoCloseable {

    private final ServerSocket server;
    private final InetSocketAddress target;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();

    TcpForwarder(InetSocketAddress listen, InetSocketAddress target) throws IOException {
        this.target = target;
        this.server = new ServerSocket();
        server.setReuseAddress(true);
        server.bind(listen, 256);
        Thread acceptor = new Thread(this::accept, "forward-" + server.getLocalPort());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** The port it listens on (the one asked for, or the one the system gave for port 0). */
    int port() {
        return server.getLocalPort();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket in = server.accept();
                Socket out = new Socket();
                try {
                    out.connect(target, 5_000);
                } catch (IOException e) {
                    in.close();
                    continue;
                }
                in.setTcpNoDelay(true);
                out.setTcpNoDelay(true);
                open.add(in);
                open.add(out);
                pipe(in, out);
                pipe(out, in);
            } catch (IOException e) {
                // the listener closed, or one accept failed: go on while open
            }
        }
    }

    private void pipe(Socket from, Socket to) {
        Thread t = new Thread(() -> {
            byte[] buffer = new byte[16 * 1024];
            try (InputStream input = from.getInputStream(); OutputStream output = to.getOutputStream()) {
                int n;
                while ((n = input.read(buffer)) >= 0) {
                    output.write(buffer, 0, n);
                }
            } catch (IOException e) {
                // reset or closed: close both below
            } finally {
                closeQuietly(from);
                closeQuietly(to);
            }
        }, "forward-pipe");
        t.setDaemon(true);
        t.start();
    }

    private void closeQuietly(Socket socket) {
        open.remove(socket);
        try {
            socket.close();
        } catch (IOException ignored) {
            // already closed
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        open.forEach(this::closeQuietly);
    }
}
