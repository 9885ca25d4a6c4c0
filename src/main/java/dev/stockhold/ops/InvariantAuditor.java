package dev.stockhold.ops;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

import dev.stockhold.DatabaseFailures;
import dev.stockhold.Jdbc;
import dev.stockhold.StockholdConfig;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.logging.Log;
import io.quarkus.runtime.Startup;
import io.quarkus.scheduler.Scheduled;

/**
 * Audits conservation (I2) per stock record: held must equal the quantities of HELD lines at the record, and on hand
 * what admins put in (received) minus what confirms sold ({@code sold}, which the database adds up from the lines of
 * each reservation that turns CONFIRMED, migration V8); in transit what the record's open transfers still carry, and
 * incoming what its open purchase orders still expect. Each run checks a rotating sample in one read-only REPEATABLE
 * READ snapshot (records and lines seen at the same instant), plus every record that failed before, and exports
 * {@code stockhold_invariant_violations}: 0 when healthy. Read-only, so any number of replicas may run it.
 *
 * <p>
 * Held is checked for every record at once ({@link AuditStatements#HELD_SWEEP}) every {@link #HELD_SWEEP_EVERY}th run, the first
 * included, and in the run that ends a rotation of the sample: summing HELD lines walks every active hold however few
 * records are compared, so a walk for each sample of 200 cost PostgreSQL most of a second of one core every run at
 * 100,000 holds. The sample's runs between sweeps check the rest; a record the sweep finds wrong is rechecked in full
 * with the known violators, in the same snapshot.
 *
 * <p>
 * Its cost is bounded by the sample, the records, and the active holds, never by history: the held sums walk the
 * partial index of HELD reservations (and the committed sums that of open deferred commitments, V11) and look their
 * lines up by reservation id. The planner is told to take that path
 * ({@link #PLAN}, local to the audit's transaction), because statistics taken while the tables were small (autovacuum
 * off, a new tenant) made it walk every reservation of the tenant for every record: 17 s for 100 records at 60,000
 * lines. AuditorPlanTest holds it to a budget of buffers at 1,000,000 lines with statistics from empty tables.
 */
@ApplicationScoped
@Startup
public class InvariantAuditor {

    /** How many of a record's newest entries the first audit of it in this process follows back. */
    static final int FIRST_VISIT = 100;
    /** Records whose chain this process has followed, and the last seq it checked; bounded, then it starts over. */
    private static final int MAX_WATERMARKS = 100_000;

    /** Every how many runs the held sweep runs (and in the run that ends a rotation): 5 minutes at the default 30 s. */
    static final int HELD_SWEEP_EVERY = 10;

    private final Jdbc jdbc;
    private final StockholdConfig config;
    private final Map<String, Finding> violations = new ConcurrentHashMap<>();
    private final Map<String, Long> chainChecked = new ConcurrentHashMap<>();
    private final AtomicInteger violationCount = new AtomicInteger();
    private final AtomicLong runs = new AtomicLong();
    private volatile String cursorTenant = "";
    private volatile String cursorSku = "";
    private volatile String cursorLocation = "";

    InvariantAuditor(Jdbc jdbc, StockholdConfig config, MeterRegistry registry) {
        this.jdbc = jdbc;
        this.config = config;
        registry.gauge("stockhold.invariant.violations", violationCount);
    }

    /** One stock record's figures and its lines'; a violation when they disagree. */
    public record Finding(String tenantId, String sku, String location, long onHand, long held, long received, long sold,
            long heldLines, long committed, long committedLines, long movements, long lastSeq, long ledgerOnHand, long ledgerCommitted,
            long supplyMismatches, long chainBreaks) {
        boolean violated() {
            return held != heldLines || onHand != received - sold || committed != committedLines || !ledgerAgrees() || chainBreaks > 0
                    || supplyMismatches > 0;
        }

        /** The record equals its last ledger entry (a record without entries has on hand and committed 0). */
        boolean ledgerAgrees() {
            return movements == lastSeq && onHand == ledgerOnHand && committed == ledgerCommitted;
        }

        Finding withChainBreaks(long breaks) {
            return new Finding(tenantId, sku, location, onHand, held, received, sold, heldLines, committed, committedLines, movements,
                    lastSeq, ledgerOnHand, ledgerCommitted, supplyMismatches, breaks);
        }

        String key() {
            return record().key();
        }

        RecordKey record() {
            return new RecordKey(tenantId, sku, location);
        }
    }

    /** A stock record's identity. */
    record RecordKey(String tenantId, String sku, String location) {
        String key() {
            return tenantId + "/" + sku + "/" + location;
        }
    }

    @Scheduled(every = "${stockhold.audit.interval}", delayed = "15s", concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    void scheduled() {
        if (config.audit().enabled()) {
            DatabaseFailures.skipTurnWhileAway("The invariant audit", this::audit);
        }
    }

    /**
     * Audits the next sample and every known violator, and every record's held every {@link #HELD_SWEEP_EVERY}th run and
     * when the sample ends a rotation. @return the violations currently known
     */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public int audit() {
        jdbc.withConnection(Jdbc.Mode.JOIN, c -> {
            try (Statement s = c.createStatement()) {
                s.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY");
                s.execute(AuditStatements.PLAN);
            }
            List<Finding> sampled = sample(c);
            boolean sweep = runs.getAndIncrement() % HELD_SWEEP_EVERY == 0 || cursorTenant.isEmpty(); // the rotation ended
            Map<String, RecordKey> recheck = new LinkedHashMap<>();
            List<Finding> known = List.copyOf(violations.values());
            known.forEach(f -> recheck.put(f.key(), f.record()));
            if (sweep) {
                heldSweep(c).forEach(k -> recheck.putIfAbsent(k.key(), k));
            }
            List<Finding> rechecked = recheck(c, recheck.values());
            Set<String> present = rechecked.stream().map(Finding::key).collect(Collectors.toSet());
            known.stream().map(Finding::key).filter(key -> !present.contains(key)).forEach(violations::remove); // record gone
            // a record rechecked in full is judged by the recheck, which sums its held lines; the sample left them out
            List<Finding> checked = new ArrayList<>(sampled.stream().filter(f -> !recheck.containsKey(f.key())).toList());
            checked.addAll(rechecked);
            checked = followChains(c, checked);
            for (Finding finding : checked) {
                if (finding.violated()) {
                    if (violations.put(finding.key(), finding) == null) {
                        Log.errorf("Invariant I2 violated: tenant=%s sku=%s location=%s held=%d vs HELD lines %d; onHand=%d vs "
                                + "received %d - sold %d; committed=%d vs open deferred lines %d; ledger: movements=%d vs last entry %d "
                                + "(onHand %d, committed %d), %d broken links, %d supply figures (in transit, incoming) off",
                                finding.tenantId(), finding.sku(), finding.location(),
                                finding.held(), finding.heldLines(), finding.onHand(), finding.received(), finding.sold(),
                                finding.committed(), finding.committedLines(), finding.movements(), finding.lastSeq(),
                                finding.ledgerOnHand(), finding.ledgerCommitted(), finding.chainBreaks(), finding.supplyMismatches());
                    }
                } else if (violations.remove(finding.key()) != null) {
                    Log.infof("Invariant I2 holds again: tenant=%s sku=%s location=%s", finding.tenantId(), finding.sku(),
                            finding.location());
                }
            }
            return null;
        });
        violationCount.set(violations.size());
        return violations.size();
    }

    private List<Finding> sample(Connection c) throws SQLException {
        List<Finding> found = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(AuditStatements.SAMPLE)) {
            ps.setString(1, cursorTenant);
            ps.setString(2, cursorSku);
            ps.setString(3, cursorLocation);
            ps.setInt(4, config.audit().sampleSize());
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    found.add(read(rs));
                }
            }
        }
        if (found.size() < config.audit().sampleSize()) {
            cursorTenant = "";
            cursorSku = "";
            cursorLocation = "";
        } else {
            Finding last = found.get(found.size() - 1);
            cursorTenant = last.tenantId();
            cursorSku = last.sku();
            cursorLocation = last.location();
        }
        return found;
    }

    /** Every record's held against the HELD quantities there. @return the records that disagree, to be rechecked in full */
    private static List<RecordKey> heldSweep(Connection c) throws SQLException {
        List<RecordKey> wrong = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(AuditStatements.HELD_SWEEP); ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                wrong.add(new RecordKey(rs.getString(1), rs.getString(2), rs.getString(3)));
            }
        }
        return wrong;
    }

    /** The given records as they are now, held summed (a record that no longer exists is not in the answer). */
    private List<Finding> recheck(Connection c, Collection<RecordKey> records) throws SQLException {
        if (records.isEmpty()) {
            return List.of();
        }
        List<Finding> found = new ArrayList<>(records.size());
        try (PreparedStatement ps = c.prepareStatement(AuditStatements.KNOWN)) {
            bindRecords(c, ps, records);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    found.add(read(rs));
                }
            }
        }
        return found;
    }

    /** Binds parameters 1-3, the arrays of tenants, skus and locations that the KNOWN and CHAIN statements unnest, to these records. */
    private static void bindRecords(Connection c, PreparedStatement ps, Collection<RecordKey> records) throws SQLException {
        ps.setArray(1, c.createArrayOf("varchar", records.stream().map(RecordKey::tenantId).toArray()));
        ps.setArray(2, c.createArrayOf("varchar", records.stream().map(RecordKey::sku).toArray()));
        ps.setArray(3, c.createArrayOf("varchar", records.stream().map(RecordKey::location).toArray()));
    }

    private static Finding read(ResultSet rs) throws SQLException {
        return new Finding(rs.getString(1), rs.getString(2), rs.getString(3), rs.getLong(4), rs.getLong(5), rs.getLong(6),
                rs.getLong(7), rs.getLong(8), rs.getLong(9), rs.getLong(10), rs.getLong(11), rs.getLong(12), rs.getLong(13),
                rs.getLong(14), rs.getLong(15), 0);
    }

    /**
     * Follows each checked record's ledger from where this process last checked it to its newest entry, in one
     * statement, and notes the broken links. A record with broken links is checked again from the same place next time.
     */
    private List<Finding> followChains(Connection c, List<Finding> checked) throws SQLException {
        List<Finding> withEntries = checked.stream().filter(f -> f.lastSeq() > 0).toList();
        if (withEntries.isEmpty()) {
            return checked;
        }
        if (chainChecked.size() > MAX_WATERMARKS) {
            chainChecked.clear();
        }
        Map<String, Long> breaks = new java.util.HashMap<>();
        try (PreparedStatement ps = c.prepareStatement(AuditStatements.CHAIN)) {
            bindRecords(c, ps, withEntries.stream().map(Finding::record).toList());
            ps.setArray(4, c.createArrayOf("bigint", withEntries.stream()
                    .map(f -> chainChecked.getOrDefault(f.key(), Math.max(1, f.lastSeq() - FIRST_VISIT))).toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String key = new RecordKey(rs.getString(1), rs.getString(2), rs.getString(3)).key();
                    long broken = rs.getLong(5);
                    breaks.put(key, broken);
                    if (broken == 0) {
                        chainChecked.put(key, rs.getLong(4));
                    }
                }
            }
        }
        return checked.stream().map(f -> f.withChainBreaks(breaks.getOrDefault(f.key(), 0L))).toList();
    }
}
