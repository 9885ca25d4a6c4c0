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
 * what it costs: the CPU time the service's process spent while it ran (/proc/PID/stat, it never exits), and that of
 * PostgreSQL (postmaster and every backend) and of the broker from their cgroup v1 cpuacct groups (PG_CPUACCT and
 * MQ_CPUACCT, directories under /sys/fs/cgroup/cpuacct that bench/lib.sh fills): cpuacct.usage keeps the CPU of
 * backends that exit during the window, which summing /proc of live processes loses; per request; and the latency
 * of the answers, from the time each request was due (no coordinated omission). Used by bench/run (CPU per reservation at 300/s, p99
 * at half of peak) and bench/ab (interleaved A/B pairs).
 *
 * <pre>
 *   java bench/FixedRate.java URL TOKEN SKUS RATE WARM_SECONDS MEASURED_SECONDS SERVICE_PID
 * </pre>
 *
 * The first WARM_SECONDS are sent but not counted (the client's own JIT, the pool). Prints one line: {@code RESULT
 * rate=... requests=... created=... non201=... failed=... jvm_ms=... jit_ms=... nojit_ms=... pg_ms=... mq_ms=... p50_ms=... p99_ms=... p999_ms=...},
 * where jvm_ms (the whole service process), jit_ms (its JIT compiler threads, part of jvm_ms), nojit_ms (the rest:
 * what serving costs once compiled), pg_ms and mq_ms (-1 without a cgroup) are CPU milliseconds per request created
 * in the measured window. On stderr, the seconds of the window whose slowest answer took over 100 ms (wall clock, by
 * due time), to set a stall beside PostgreSQL's checkpoints and the service's jobs.
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
        ConcurrentLinkedQueue<long[]> answers = new ConcurrentLinkedQueue<>();   // {status, micros, due (nanoTime)}
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
                cpuBefore = new long[] { ticks(servicePid), cgroupNanos("PG_CPUACCT"), compilerTicks(servicePid), cgroupNanos("MQ_CPUACCT") };
            }
            owed += rate / 1000.0;
            while (owed >= 1) {
                owed -= 1;
                send(http, url, token, skus, counted ? answers : null, outstanding, next);
                if (counted) {
                    sent++;
                }
            }
        }
        // the requests of the window finish inside it: the CPU they cost is read once they are answered
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (outstanding.get() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        long[] cpuAfter = { ticks(servicePid), cgroupNanos("PG_CPUACCT"), compilerTicks(servicePid), cgroupNanos("MQ_CPUACCT") };
        long[] micros = answers.stream().filter(a -> a[0] == 201).mapToLong(a -> a[1]).sorted().toArray();
        long created = micros.length;
        long failed = answers.stream().filter(a -> a[0] < 0).count();
        long non201 = answers.size() - created - failed + (sent - answers.size());
        double msPerTick = 1000.0 / hz;
        long per = Math.max(1, created);
        System.out.printf(Locale.ROOT,
                "RESULT rate=%.0f requests=%d created=%d non201=%d failed=%d jvm_ms=%.3f jit_ms=%.3f nojit_ms=%.3f pg_ms=%.3f mq_ms=%.3f p50_ms=%.2f p99_ms=%.2f p999_ms=%.2f%n",
                sent / (double) measured, sent, created, non201, failed, (cpuAfter[0] - cpuBefore[0]) * msPerTick / per,
                (cpuAfter[2] - cpuBefore[2]) * msPerTick / per,
                (cpuAfter[0] - cpuBefore[0] - cpuAfter[2] + cpuBefore[2]) * msPerTick / per,
                perRequest(cpuBefore[1], cpuAfter[1], per), perRequest(cpuBefore[3], cpuAfter[3], per), quantile(micros, 0.5),
                quantile(micros, 0.99), quantile(micros, 0.999));
        slowSeconds(answers, start, System.currentTimeMillis() - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
        System.exit(0);
    }

    /**
     * To stderr: the seconds of the window (wall clock, by due time) whose slowest answer took over 100 ms, so that a
     * stall can be set beside the database's log (checkpoints) and the service's (jobs).
     */
    private static void slowSeconds(ConcurrentLinkedQueue<long[]> answers, long startNanos, long startMillis) {
        java.util.TreeMap<Long, Long> worst = new java.util.TreeMap<>();
        for (long[] a : answers) {
            long second = (startMillis + TimeUnit.NANOSECONDS.toMillis(a[2] - startNanos)) / 1000;
            worst.merge(second, a[1], Math::max);
        }
        StringBuilder slow = new StringBuilder();
        worst.forEach((second, micros) -> {
            if (micros > 100_000) {
                slow.append(' ').append(java.time.Instant.ofEpochSecond(second).toString().substring(11, 19)).append('=')
                        .append(micros / 1000).append("ms");
            }
        });
        System.err.println("slow seconds (UTC, by due time, slowest answer over 100 ms):" + (slow.isEmpty() ? " none" : slow));
    }

    /** @param dueAt when the schedule wanted it sent: latency counts from there, so a late send is not hidden */
    private static void send(HttpClient http, String url, String token, int skus, ConcurrentLinkedQueue<long[]> answers,
            AtomicInteger outstanding, long dueAt) {
        String body = "{\"lines\":[{\"sku\":\"SKU-" + (1 + ThreadLocalRandom.current().nextInt(skus)) + "\",\"quantity\":1}]}";
        HttpRequest request = HttpRequest.newBuilder(URI.create(url + "/v1/reservations")).timeout(Duration.ofSeconds(10))
                .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                .header("Idempotency-Key", "fixed-" + UUID.randomUUID()).POST(HttpRequest.BodyPublishers.ofString(body)).build();
        outstanding.incrementAndGet();
        http.sendAsync(request, HttpResponse.BodyHandlers.discarding()).whenComplete((response, failure) -> {
            if (answers != null) {
                answers.add(new long[] { failure == null ? response.statusCode() : -1, (System.nanoTime() - dueAt) / 1000, dueAt });
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

    /** cpuacct.usage (ns) of the cgroup named by the environment variable, or -1 without one. */
    private static long cgroupNanos(String variable) {
        String dir = System.getenv(variable);
        if (dir == null || dir.isBlank()) {
            return -1;
        }
        try {
            return Long.parseLong(Files.readString(Path.of(dir, "cpuacct.usage")).trim());
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    private static double perRequest(long beforeNanos, long afterNanos, long requests) {
        return beforeNanos < 0 || afterNanos < 0 ? -1 : (afterNanos - beforeNanos) / 1e6 / requests;
    }

    private static double quantile(long[] sortedMicros, double q) {
        if (sortedMicros.length == 0) {
            return Double.NaN;
        }
        int rank = (int) Math.ceil(q * sortedMicros.length) - 1;
        return sortedMicros[Math.max(0, Math.min(sortedMicros.length - 1, rank))] / 1000.0;
    }
}
