import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A load generator for bench/overload: POST /v1/reservations with a fresh Idempotency-Key each, on uniformly chosen
 * skus, either at fixed arrival rates (open loop: requests are sent on schedule whether or not earlier ones answered,
 * as real traffic arrives) or with N requests always in flight (closed loop, to find the peak).
 *
 * <pre>
 *   java bench/OverloadClient.java URL TOKEN SKUS rate SECONDS:RATE[,SECONDS:RATE...] OUT.csv
 *   java bench/OverloadClient.java URL TOKEN SKUS closed SECONDS CONCURRENCY OUT.csv
 * </pre>
 *
 * Writes one CSV line per second of sending: second, offered, answered 201, 409, 503, other statuses, failures
 * (timeouts, connection errors), p50 and p99 of the 201s in ms; prints a summary per phase.
 */
public class OverloadClient {

    record Answer(int second, int status, long micros) {
    }

    public static void main(String[] args) throws Exception {
        String url = args[0];
        String token = args[1];
        int skus = Integer.parseInt(args[2]);
        String mode = args[3];
        // HTTP/2 (h2c): every request reaches the service at once, multiplexed over a few connections, instead of waiting
        // in the client for one of thousands of HTTP/1.1 connections (which would measure the client, not the service)
        HttpClient[] clients = new HttpClient[8];
        for (int i = 0; i < clients.length; i++) {
            clients[i] = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).connectTimeout(Duration.ofSeconds(5))
                    .executor(Executors.newFixedThreadPool(2)).build();
        }
        ConcurrentLinkedQueue<Answer> answers = new ConcurrentLinkedQueue<>();
        long sentCount = 0;
        ConcurrentHashMap<Integer, AtomicLong> offered = new ConcurrentHashMap<>();
        long start = System.nanoTime();
        List<int[]> phases = new ArrayList<>();   // {fromSecond, toSecond, rate}
        int total;
        if (mode.equals("rate")) {
            int at = 0;
            for (String phase : args[4].split(",")) {
                String[] p = phase.split(":");
                int seconds = Integer.parseInt(p[0]);
                phases.add(new int[] { at, at + seconds, Integer.parseInt(p[1]) });
                at += seconds;
            }
            total = at;
            // open loop: one tick a millisecond, sending what the schedule owes by now
            double owed = 0;
            long tick = TimeUnit.MILLISECONDS.toNanos(1);
            for (long next = start; ; next += tick) {
                long now = System.nanoTime();
                if (next > now) {
                    TimeUnit.NANOSECONDS.sleep(next - now);
                }
                double elapsed = (next - start) / 1e9;
                if (elapsed >= total) {
                    break;
                }
                int rate = rateAt(phases, (int) elapsed);
                owed += rate / 1000.0;
                while (owed >= 1) {
                    owed -= 1;
                    send(clients[(int) (sentCount++ % clients.length)], url, token, skus, start, answers, offered, null);
                }
            }
        } else {
            total = Integer.parseInt(args[4]);
            int concurrency = Integer.parseInt(args[5]);
            phases.add(new int[] { 0, total, -concurrency });
            Semaphore inFlight = new Semaphore(concurrency);
            long end = start + TimeUnit.SECONDS.toNanos(total);
            while (System.nanoTime() < end) {
                inFlight.acquire();
                send(clients[(int) (sentCount++ % clients.length)], url, token, skus, start, answers, offered, inFlight);
            }
        }
        // the last requests answer or time out
        Thread.sleep(11_000);
        String out = args[mode.equals("rate") ? 5 : 6];
        report(answers, offered, total, phases, Path.of(out));
        System.exit(0);
    }

    private static int rateAt(List<int[]> phases, int second) {
        for (int[] p : phases) {
            if (second >= p[0] && second < p[1]) {
                return p[2];
            }
        }
        return 0;
    }

    private static void send(HttpClient http, String url, String token, int skus, long start, ConcurrentLinkedQueue<Answer> answers,
            ConcurrentHashMap<Integer, AtomicLong> offered, Semaphore inFlight) {
        long sent = System.nanoTime();
        int second = (int) ((sent - start) / 1_000_000_000L);
        offered.computeIfAbsent(second, s -> new AtomicLong()).incrementAndGet();
        String body = "{\"lines\":[{\"sku\":\"SKU-" + ThreadLocalRandom.current().nextInt(skus) + "\",\"quantity\":1}]}";
        HttpRequest request = HttpRequest.newBuilder(URI.create(url + "/v1/reservations")).timeout(Duration.ofSeconds(10))
                .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                .header("Idempotency-Key", UUID.randomUUID().toString())
                .POST(HttpRequest.BodyPublishers.ofString(body)).build();
        http.sendAsync(request, HttpResponse.BodyHandlers.discarding()).whenComplete((response, failure) -> {
            long micros = (System.nanoTime() - sent) / 1000;
            answers.add(new Answer(second, failure == null ? response.statusCode() : -1, micros));
            if (inFlight != null) {
                inFlight.release();
            }
        });
    }

    private static void report(ConcurrentLinkedQueue<Answer> answers, ConcurrentHashMap<Integer, AtomicLong> offered, int seconds,
            List<int[]> phases, Path out) throws IOException {
        try (PrintWriter csv = new PrintWriter(Files.newBufferedWriter(out))) {
            csv.println("second,offered,ok201,conflict409,shed503,other,failed,p50ms,p99ms");
            for (int s = 0; s < seconds; s++) {
                int second = s;
                List<Answer> in = answers.stream().filter(a -> a.second == second).toList();
                long[] ok = in.stream().filter(a -> a.status == 201).mapToLong(Answer::micros).sorted().toArray();
                csv.printf(Locale.ROOT, "%d,%d,%d,%d,%d,%d,%d,%.1f,%.1f%n", s, offered.getOrDefault(s, new AtomicLong()).get(), ok.length,
                        count(in, 409), count(in, 503), in.stream().filter(a -> a.status > 0 && a.status != 201 && a.status != 409
                                && a.status != 503).count(),
                        count(in, -1), quantile(ok, 0.5) / 1000.0, quantile(ok, 0.99) / 1000.0);
            }
        }
        System.out.println("| phase | offered/s | 201/s | 503/s | failed (timeouts, errors) | p50 / p99 of 201 (ms) |");
        System.out.println("|---|---|---|---|---|---|");
        for (int[] p : phases) {
            List<Answer> in = answers.stream().filter(a -> a.second >= p[0] && a.second < p[1]).toList();
            long[] ok = in.stream().filter(a -> a.status == 201).mapToLong(Answer::micros).sorted().toArray();
            double span = p[1] - p[0];
            long off = 0;
            for (int s = p[0]; s < p[1]; s++) {
                off += offered.getOrDefault(s, new AtomicLong()).get();
            }
            System.out.printf(Locale.ROOT, "| %s, %d-%d s | %.0f | %.0f | %.0f | %d | %.1f / %.1f |%n",
                    p[2] < 0 ? "closed loop " + -p[2] : "rate " + p[2], p[0], p[1], off / span, ok.length / span,
                    count(in, 503) / span, count(in, -1), quantile(ok, 0.5) / 1000.0, quantile(ok, 0.99) / 1000.0);
        }
    }

    private static long count(List<Answer> answers, int status) {
        return answers.stream().filter(a -> a.status == status).count();
    }

    private static double quantile(long[] sorted, double q) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int rank = (int) Math.ceil(q * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank))];
    }
}
