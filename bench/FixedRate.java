import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * A fixed arrival rate of POST /v1/reservations (open loop, HTTP/1.1, a fresh Idempotency-Key each, uniform skus) and
 * what it costs: the CPU time the service's process and every PostgreSQL process spent while it ran, from
 * /proc/PID/stat, per request; and the latency of the answers. Used by bench/run (CPU per reservation at 300/s, p99
 * at half of peak) and bench/ab (interleaved A/B pairs).
 *
 * <pre>
 *   java bench/FixedRate.java URL TOKEN SKUS RATE WARM_SECONDS MEASURED_SECONDS SERVICE_PID
 * </pre>
 *
 * The first WARM_SECONDS are sent but not counted (the client's own JIT, the pool). Prints one line: {@code RESULT
 * rate=... requests=... created=... non201=... failed=... jvm_ms=... jit_ms=... nojit_ms=... pg_ms=... p50_ms=... p99_ms=... p999_ms=...},
 * where jvm_ms (the whole service process), jit_ms (its JIT compiler threads, part of jvm_ms), nojit_ms (the rest:
 * what serving costs once compiled) and pg_ms are CPU milliseconds per request sent in the measured window.
 */
public class FixedRate {

    private static final long TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    public static void main(String[] args) throws Exception {
        String url = args[0];
        String token = args[1];
        int skus = Integer.parseInt(args[2]);
        int rate = Integer.parseInt(args[3]);
        int warm = Integer.parseInt(args[4]);
        int measured = Integer.parseInt(args[5]);
        long servicePid = Long.parseLong(args[6]);
        long hz = Long.parseLong(System.getenv().getOrDefault("CLK_TCK", "100"));

        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5))
                .executor(Executors.newFixedThreadPool(2)).build();
        ConcurrentLinkedQueue<long[]> answers = new ConcurrentLinkedQueue<>();   // {status, micros}
        AtomicInteger outstanding = new AtomicInteger();
        long start = System.nanoTime();
        long measureFrom = start + TimeUnit.SECONDS.toNanos(warm);
        long end = measureFrom + TimeUnit.SECONDS.toNanos(measured);
        long[] cpuBefore = null;
        long sent = 0;
        double owed = 0;
        for (long next = start; next < end; next += TICK_NANOS) {
            long now = System.nanoTime();
            if (next > now) {
                TimeUnit.NANOSECONDS.sleep(next - now);
            }
            boolean counted = next >= measureFrom;
            if (counted && cpuBefore == null) {
                cpuBefore = new long[] { ticks(servicePid), postgresTicks(), compilerTicks(servicePid) };
            }
            owed += rate / 1000.0;
            while (owed >= 1) {
                owed -= 1;
                send(http, url, token, skus, counted ? answers : null, outstanding);
                if (counted) {
                    sent++;
                }
            }
        }
        long[] cpuAfter = { ticks(servicePid), postgresTicks(), compilerTicks(servicePid) };
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (outstanding.get() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        long[] micros = answers.stream().filter(a -> a[0] == 201).mapToLong(a -> a[1]).sorted().toArray();
        long created = micros.length;
        long failed = answers.stream().filter(a -> a[0] < 0).count();
        long non201 = answers.size() - created - failed + (sent - answers.size());
        double msPerTick = 1000.0 / hz;
        System.out.printf(Locale.ROOT,
                "RESULT rate=%.0f requests=%d created=%d non201=%d failed=%d jvm_ms=%.3f jit_ms=%.3f nojit_ms=%.3f pg_ms=%.3f p50_ms=%.2f p99_ms=%.2f p999_ms=%.2f%n",
                sent / (double) measured, sent, created, non201, failed, (cpuAfter[0] - cpuBefore[0]) * msPerTick / sent,
                (cpuAfter[2] - cpuBefore[2]) * msPerTick / sent,
                (cpuAfter[0] - cpuBefore[0] - cpuAfter[2] + cpuBefore[2]) * msPerTick / sent,
                (cpuAfter[1] - cpuBefore[1]) * msPerTick / sent, quantile(micros, 0.5), quantile(micros, 0.99),
                quantile(micros, 0.999));
        System.exit(0);
    }

    private static void send(HttpClient http, String url, String token, int skus, ConcurrentLinkedQueue<long[]> answers,
            AtomicInteger outstanding) {
        long sentAt = System.nanoTime();
        String body = "{\"lines\":[{\"sku\":\"SKU-" + (1 + ThreadLocalRandom.current().nextInt(skus)) + "\",\"quantity\":1}]}";
        HttpRequest request = HttpRequest.newBuilder(URI.create(url + "/v1/reservations")).timeout(Duration.ofSeconds(10))
                .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                .header("Idempotency-Key", "fixed-" + UUID.randomUUID()).POST(HttpRequest.BodyPublishers.ofString(body)).build();
        outstanding.incrementAndGet();
        http.sendAsync(request, HttpResponse.BodyHandlers.discarding()).whenComplete((response, failure) -> {
            if (answers != null) {
                answers.add(new long[] { failure == null ? response.statusCode() : -1, (System.nanoTime() - sentAt) / 1000 });
            }
            outstanding.decrementAndGet();
        });
    }

    /** utime + stime of one process, in clock ticks. */
    private static long ticks(long pid) {
        return taskTicks(Path.of("/proc/" + pid));
    }

    /** utime + stime of the JIT compiler threads of one process (already inside its total). */
    private static long compilerTicks(long pid) throws IOException {
        try (Stream<Path> threads = Files.list(Path.of("/proc/" + pid + "/task"))) {
            return threads.filter(t -> {
                try {
                    return Files.readString(t.resolve("comm")).contains("CompilerThre");
                } catch (IOException e) {
                    return false;
                }
            }).mapToLong(FixedRate::taskTicks).sum();
        }
    }

    /** utime + stime from a /proc/PID or /proc/PID/task/TID directory; 0 once the process is gone. */
    private static long taskTicks(Path task) {
        try {
            String stat = Files.readString(task.resolve("stat"));
            // the command name, in parentheses, may hold spaces: fields are counted after its closing parenthesis
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    /** utime + stime of every process named postgres (the server and its backends). */
    private static long postgresTicks() throws IOException {
        try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
            return procs.filter(p -> p.getFileName().toString().chars().allMatch(Character::isDigit)).filter(FixedRate::isPostgres)
                    .mapToLong(p -> ticks(Long.parseLong(p.getFileName().toString()))).sum();
        }
    }

    private static boolean isPostgres(Path proc) {
        try {
            return Files.readString(proc.resolve("comm")).trim().equals("postgres");
        } catch (IOException e) {
            return false;
        }
    }

    private static double quantile(long[] sortedMicros, double q) {
        if (sortedMicros.length == 0) {
            return Double.NaN;
        }
        int rank = (int) Math.ceil(q * sortedMicros.length) - 1;
        return sortedMicros[Math.max(0, Math.min(sortedMicros.length - 1, rank))] / 1000.0;
    }
}
