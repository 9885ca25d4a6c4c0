import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Summarises async-profiler's collapsed stacks (one line per stack: frames joined by ';', then the sample count): the
 * share of samples by thread kind, in the kernel, by library (innermost frame), and Stockhold's own methods by the
 * samples under them (inclusive). Usage: java bench/Profile.java cpu.collapsed [regex of frames to report inclusively]
 */
public class Profile {

    private static final Map<String, String> THREADS = new LinkedHashMap<>();
    static {
        THREADS.put("relay (outbox-relay)", "OutboxRelay.loop");
        THREADS.put("request workers", "EnhancedQueueExecutor");
        THREADS.put("event loops (HTTP, security, admission)", "NioEventLoop");
        THREADS.put("broker client", "rabbitmq");
        THREADS.put("JIT compiler", "CompileBroker");
    }
    private static final Map<String, Pattern> LIBRARIES = new LinkedHashMap<>();
    static {
        LIBRARIES.put("Stockhold", Pattern.compile("dev/stockhold/"));
        LIBRARIES.put("PostgreSQL driver", Pattern.compile("org/postgresql/"));
        LIBRARIES.put("Agroal", Pattern.compile("io/agroal/"));
        LIBRARIES.put("Vert.x / Netty", Pattern.compile("io/vertx/|io/netty/"));
        LIBRARIES.put("RESTEasy / ArC / Mutiny", Pattern.compile("org/jboss/resteasy/|io/quarkus/arc/|io/smallrye/mutiny/"));
        LIBRARIES.put("Jackson", Pattern.compile("com/fasterxml/"));
        LIBRARIES.put("logging", Pattern.compile("org/jboss/logmanager/|org/jboss/logging/"));
        LIBRARIES.put("smallrye-jwt / jose4j", Pattern.compile("io/smallrye/jwt/|org/jose4j/"));
        LIBRARIES.put("OpenTelemetry", Pattern.compile("opentelemetry"));
        LIBRARIES.put("Micrometer", Pattern.compile("io/micrometer/"));
        LIBRARIES.put("Hibernate Validator", Pattern.compile("org/hibernate/validator/"));
        LIBRARIES.put("other Quarkus", Pattern.compile("io/quarkus/"));
        LIBRARIES.put("JDK", Pattern.compile("^java/|^javax/|^jdk/|^sun/|^com/sun/"));
    }

    public static void main(String[] args) throws Exception {
        List<String> lines = Files.readAllLines(Path.of(args[0]));
        Pattern match = args.length > 1 && !args[1].isBlank() ? Pattern.compile(args[1]) : null;
        long total = 0;
        long kernel = 0;
        Map<String, Long> threads = new LinkedHashMap<>();
        Map<String, Long> libraries = new LinkedHashMap<>();
        Map<String, Long> own = new TreeMap<>();
        Map<String, Long> matched = new TreeMap<>();
        for (String line : lines) {
            int space = line.lastIndexOf(' ');
            long n = Long.parseLong(line.substring(space + 1).trim());
            String[] frames = line.substring(0, space).split(";");
            total += n;
            String stack = line.substring(0, space);
            threads.merge(THREADS.entrySet().stream().filter(t -> stack.contains(t.getValue())).map(Map.Entry::getKey)
                    .findFirst().orElse("other (GC, timers, VM)"), n, Long::sum);
            String innermost = frames[frames.length - 1];
            if (innermost.endsWith("_[k]")) {
                kernel += n;
            }
            libraries.merge(library(frames), n, Long::sum);
            java.util.Set<String> seen = new java.util.HashSet<>();
            for (String frame : frames) {
                String method = frame.replaceAll("_\\[[a-z]\\]$", "");
                if (!seen.add(method)) {
                    continue;
                }
                if (method.startsWith("dev/stockhold/") && !method.contains("_ClientProxy") && !method.contains("_Subclass")
                        && !method.contains("$$Lambda")) {
                    own.merge(method, n, Long::sum);
                }
                if (match != null && match.matcher(method).find()) {
                    matched.merge(method, n, Long::sum);
                }
            }
        }
        System.out.printf("samples: %d (1 ms of CPU each)%n%n", total);
        print("by thread", threads, total, 20);
        System.out.printf("%6.1f%%  in the kernel (system calls: socket reads and writes, futex wake-ups, epoll)%n%n", 100.0 * kernel / total);
        print("by library (the innermost frame that is not the JDK's; JDK: none other on the stack)", libraries, total, 20);
        print("Stockhold's own methods, inclusive (top 25)", own, total, 25);
        if (match != null) {
            print("frames matching " + match, matched, total, 40);
        }
    }

    /** The library of the innermost frame that belongs to one, the JDK only when nothing else is on the stack. */
    private static String library(String[] frames) {
        for (int i = frames.length - 1; i >= 0; i--) {
            for (Map.Entry<String, Pattern> library : LIBRARIES.entrySet()) {
                if (!library.getKey().equals("JDK") && library.getValue().matcher(frames[i]).find()) {
                    return library.getKey();
                }
            }
        }
        return "JDK, VM and kernel";
    }

    private static void print(String title, Map<String, Long> counts, long total, int limit) {
        System.out.println(title);
        counts.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(limit)
                .forEach(e -> System.out.printf("%6.1f%%  %s%n", 100.0 * e.getValue() / total, e.getKey()));
        System.out.println();
    }
}
