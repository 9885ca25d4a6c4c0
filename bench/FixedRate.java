import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;

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
 *   java -cp VERTX_CLASSPATH bench/FixedRate.java URL TOKEN SKUS RATE WARM_SECONDS MEASURED_SECONDS SERVICE_PID
 * </pre>
 *
 * An empty TOKEN sends no Authorization header. The client is Vert.x's (the service's own vertx-core and Netty jars; bench/lib.sh puts them on the class path): one
 * event loop that also keeps the schedule, pooled keep-alive connections, each answer read to its end. It shares the
 * two cores with what it measures, so what it costs is taken from the service, PostgreSQL and the broker: the JDK's
 * HttpClient, with a thread that woke every millisecond to send, cost about 1 ms of CPU per request, as much as the
 * service (docs/performance.md, "The load generator's own CPU"). bench/lib.sh runs it with C1 and the serial collector.
 * client_ms is the generator's own CPU per request created.
 *
 * The first WARM_SECONDS are sent but not counted (the client's own JIT, the pool). Prints one line: {@code RESULT
 * rate=... requests=... created=... non201=... failed=... jvm_ms=... jit_ms=... nojit_ms=... pg_ms=... mq_ms=... client_ms=... p50_ms=... p99_ms=... p999_ms=...},
 * where jvm_ms (the whole service process), jit_ms (its JIT compiler threads, part of jvm_ms; a lower bound, since a
 * compiler thread that the JVM stops inside the window takes its ticks with it), nojit_ms (the rest:
 * what serving costs once compiled), pg_ms and mq_ms (-1 without a cgroup) are CPU milliseconds per request created
 * in the measured window. On stderr, the seconds of the window whose slowest answer took over 100 ms (wall clock, by
 * due time), to set a stall beside PostgreSQL's checkpoints and the service's jobs.
 */
public class FixedRate {

    /** Where the reservations go: BENCH_PATH (bench/ablation's rows), POST /v1/reservations unless set. */
    private static final String PATH = System.getenv().getOrDefault("BENCH_PATH", "/v1/reservations");

    public static void main(String[] args) throws Exception {
        String url = args[0];
        String token = args[1];
        int skus = Integer.parseInt(args[2]);
        int rate = Integer.parseInt(args[3]);
        int warm = Integer.parseInt(args[4]);
        int measured = Integer.parseInt(args[5]);
        long servicePid = Long.parseLong(args[6]);
        long hz = Long.parseLong(System.getenv().getOrDefault("CLK_TCK", "100"));

        Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1).setWorkerPoolSize(1).setInternalBlockingPoolSize(1));
        URI base = URI.create(url);
        HttpClient client = vertx.createHttpClient(new HttpClientOptions().setDefaultHost(base.getHost()).setDefaultPort(base.getPort())
                .setKeepAlive(true).setConnectTimeout(5_000), new PoolOptions().setHttp1MaxSize(512));
        ConcurrentLinkedQueue<long[]> answers = new ConcurrentLinkedQueue<>();   // {status, micros, due (nanoTime)}
        AtomicInteger outstanding = new AtomicInteger();
        long start = System.nanoTime();
        long sent = (long) measured * rate;
        Schedule schedule = new Schedule(vertx, start, rate, (long) warm * rate, sent,
                (due, counted) -> send(client, token, skus, counted ? answers : null, outstanding, due), () -> cpuNow(servicePid));
        vertx.runOnContext(nothing -> schedule.run());
        schedule.allSent.await();
        Counters cpuBefore = schedule.cpuBefore;
        // the requests of the window finish inside it: the CPU they cost is read once they are answered
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (outstanding.get() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        Counters cpuAfter = cpuNow(servicePid);
        long jitTicks = cpuAfter.compilerTicksSince(cpuBefore);
        long[] micros = answers.stream().filter(a -> a[0] == 201).mapToLong(a -> a[1]).sorted().toArray();
        long created = micros.length;
        long failed = answers.stream().filter(a -> a[0] < 0).count();
        long non201 = answers.size() - created - failed + (sent - answers.size());
        double msPerTick = 1000.0 / hz;
        long per = Math.max(1, created);
        System.out.printf(Locale.ROOT,
                "RESULT rate=%.0f requests=%d created=%d non201=%d failed=%d jvm_ms=%.3f jit_ms=%.3f nojit_ms=%.3f pg_ms=%.3f mq_ms=%.3f client_ms=%.3f p50_ms=%.2f p99_ms=%.2f p999_ms=%.2f%n",
                sent / (double) measured, sent, created, non201, failed, (cpuAfter.service() - cpuBefore.service()) * msPerTick / per,
                jitTicks * msPerTick / per, (cpuAfter.service() - cpuBefore.service() - jitTicks) * msPerTick / per,
                perRequest(cpuBefore.pg(), cpuAfter.pg(), per), perRequest(cpuBefore.mq(), cpuAfter.mq(), per),
                perRequest(cpuBefore.own(), cpuAfter.own(), per), quantile(micros, 0.5),
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

    /**
     * The arrivals, kept on the client's event loop as its requests are: the n-th request is due at start + n / rate and
     * sent by a timer at or after that time (late by up to a millisecond, which counts in its latency). The counters
     * are read when the first counted request is due.
     */
    static final class Schedule {
        private final Vertx vertx;
        private final long start;
        private final int rate;
        private final long warm;
        private final long total;
        private final Sender sender;
        private final Supplier<Counters> counters;
        final CountDownLatch allSent = new CountDownLatch(1);
        volatile Counters cpuBefore;
        private long next;

        Schedule(Vertx vertx, long start, int rate, long warm, long counted, Sender sender, Supplier<Counters> counters) {
            this.vertx = vertx;
            this.start = start;
            this.rate = rate;
            this.warm = warm;
            this.total = warm + counted;
            this.sender = sender;
            this.counters = counters;
        }

        private long due(long n) {
            return start + n * 1_000_000_000L / rate;
        }

        void run() {
            for (long now = System.nanoTime(); next < total && due(next) <= now; next++) {
                if (next == warm) {
                    cpuBefore = counters.get();
                }
                sender.send(due(next), next >= warm);
            }
            if (next < total) {
                long wait = due(next) - System.nanoTime();
                vertx.setTimer(Math.max(1, (wait + 999_999) / 1_000_000), id -> run());
            } else {
                allSent.countDown();
            }
        }
    }

    /** Sends the request due at {@code due}; {@code counted} when it falls in the measured window. */
    interface Sender {
        void send(long due, boolean counted);
    }

    /** @param dueAt when the schedule wanted it sent: latency counts from there, so a late send is not hidden */
    private static void send(HttpClient client, String token, int skus, ConcurrentLinkedQueue<long[]> answers,
            AtomicInteger outstanding, long dueAt) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        String body = "{\"lines\":[{\"sku\":\"SKU-" + (1 + random.nextInt(skus)) + "\",\"quantity\":1}]}";
        outstanding.incrementAndGet();
        RequestOptions options = new RequestOptions().setMethod(HttpMethod.POST).setURI(PATH).setIdleTimeout(10_000)
                .putHeader("Content-Type", "application/json")
                .putHeader("Idempotency-Key", "fixed-" + new UUID(random.nextLong(), random.nextLong()));
        if (!token.isEmpty()) {
            options.putHeader("Authorization", "Bearer " + token);
        }
        client.request(options)
                .compose(request -> request.send(Buffer.buffer(body)))
                .compose(response -> response.body().map(ignored -> response.statusCode()))
                .onComplete(answer -> {
                    if (answers != null) {
                        answers.add(new long[] { answer.succeeded() ? answer.result() : -1, (System.nanoTime() - dueAt) / 1000, dueAt });
                    }
                    outstanding.decrementAndGet();
                });
    }

    /** This generator's own CPU time (every thread), in nanoseconds. */
    private static long ownCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    /**
     * The counters a window is measured by: the service's ticks, PostgreSQL's nanoseconds, the ticks of each of the
     * service's JIT compiler threads (by thread id), the broker's nanoseconds, this generator's nanoseconds.
     */
    record Counters(long service, long pg, Map<String, Long> compilers, long mq, long own) {

        /**
         * Ticks the compiler threads alive now spent since {@code before}; a thread started since counts from zero. The
         * JVM starts and stops compiler threads as its queues grow and drain, and the ticks of one that ended inside the
         * window are gone with it: a lower bound, never the negative difference of two sums.
         */
        long compilerTicksSince(Counters before) {
            return compilers.entrySet().stream().mapToLong(e -> e.getValue() - before.compilers.getOrDefault(e.getKey(), 0L)).sum();
        }
    }

    private static Counters cpuNow(long servicePid) {
        try {
            return new Counters(ticks(servicePid), cgroupNanos("PG_CPUACCT"), compilerTicks(servicePid), cgroupNanos("MQ_CPUACCT"),
                    ownCpuNanos());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** utime + stime of one process, in clock ticks. */
    private static long ticks(long pid) {
        return taskTicks(Path.of("/proc/" + pid));
    }

    /** utime + stime of each JIT compiler thread of one process (already inside its total), by thread id. */
    private static Map<String, Long> compilerTicks(long pid) throws IOException {
        try (Stream<Path> threads = Files.list(Path.of("/proc/" + pid + "/task"))) {
            return threads.filter(t -> {
                try {
                    return Files.readString(t.resolve("comm")).contains("CompilerThre");
                } catch (IOException e) {
                    return false;
                }
            }).collect(Collectors.toMap(t -> t.getFileName().toString(), FixedRate::taskTicks));
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
