package dev.stockhold.ops;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

import dev.stockhold.DatabaseFailures;
import dev.stockhold.StockholdConfig;
import io.agroal.api.AgroalDataSource;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.logging.Log;
import io.quarkus.runtime.Startup;
import io.quarkus.scheduler.Scheduled;

/**
 * Audits conservation (I2) per stock record: held must equal the quantities of HELD lines at the record, and on hand
 * what admins put in (received) minus what confirms sold ({@code sold}, which the database adds up from the lines of
 * each reservation that turns CONFIRMED, migration V8). Each run checks a rotating sample in one read-only REPEATABLE
 * READ snapshot (records and lines seen at the same instant), plus every record that failed before, and exports
 * {@code stockhold_invariant_violations}: 0 when healthy. Read-only, so any number of replicas may run it.
 *
 * <p>
 * Its cost is bounded by the sample and by the sampled tenants' active holds, never by history: the held sums walk the
 * partial index of HELD reservations and look their lines up by reservation id. The planner is told to take that path
 * ({@link #PLAN}, local to the audit's transaction), because statistics taken while the tables were small (autovacuum
 * off, a new tenant) made it walk every reservation of the tenant for every record: 17 s for 100 records at 60,000
 * lines. AuditorPlanTest holds it to a budget of buffers at 1,000,000 lines with statistics from empty tables.
 */
@ApplicationScoped
@Startup
public class InvariantAuditor {

    /**
     * Index paths and nested loops only, and no parallel workers (whose start cost a background sample more than its
     * reads), for this read-only transaction (SET LOCAL).
     */
    static final String PLAN = "SET LOCAL enable_seqscan = off; SET LOCAL enable_hashjoin = off; SET LOCAL enable_mergejoin = off;"
            + " SET LOCAL enable_bitmapscan = off; SET LOCAL max_parallel_workers_per_gather = 0";
    /**
     * HELD quantities per record of the batch's tenants, from active holds only; MATERIALIZED, so they are summed once
     * per run: expecting a batch of one row, the planner summed them again for every record of the batch.
     */
    private static final String HELD = """
            held AS MATERIALIZED (
                SELECT r.tenant_id, l.sku, coalesce(l.location, 'default') AS location, sum(l.quantity) AS quantity
                  FROM reservations r JOIN reservation_lines l ON l.reservation_id = r.id
                 WHERE r.status = 'HELD' AND r.tenant_id IN (SELECT DISTINCT tenant_id FROM batch)
                 GROUP BY 1, 2, 3)
            """;
    /** Records of the batch ({@code %s}: which ones) with their figures and the HELD quantities at each. */
    private static final String AUDIT = """
            WITH batch AS MATERIALIZED (
                SELECT tenant_id, sku, location, on_hand, held, received, sold FROM stock_records %s),
            """ + HELD + """
            SELECT b.tenant_id, b.sku, b.location, b.on_hand, b.held, b.received, b.sold, coalesce(h.quantity, 0)
              FROM batch b LEFT JOIN held h ON h.tenant_id = b.tenant_id AND h.sku = b.sku AND h.location = b.location
             ORDER BY b.tenant_id, b.sku, b.location
            """;
    /** The next sample after a position. */
    static final String SAMPLE = AUDIT.formatted("WHERE (tenant_id, sku, location) > (?, ?, ?) ORDER BY tenant_id, sku, location LIMIT ?");
    /** One record that failed before. */
    private static final String ONE = AUDIT.formatted("WHERE tenant_id = ? AND sku = ? AND location = ?");

    private final AgroalDataSource dataSource;
    private final StockholdConfig config;
    private final Map<String, Finding> violations = new ConcurrentHashMap<>();
    private final AtomicInteger violationCount = new AtomicInteger();
    private volatile String cursorTenant = "";
    private volatile String cursorSku = "";
    private volatile String cursorLocation = "";

    InvariantAuditor(AgroalDataSource dataSource, StockholdConfig config, MeterRegistry registry) {
        this.dataSource = dataSource;
        this.config = config;
        registry.gauge("stockhold.invariant.violations", violationCount);
    }

    /** One stock record's figures and its lines'; a violation when they disagree. */
    public record Finding(String tenantId, String sku, String location, long onHand, long held, long received, long sold,
            long heldLines) {
        boolean violated() {
            return held != heldLines || onHand != received - sold;
        }

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

    /** Audits the next sample and every known violator. @return the violations currently known */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public int audit() {
        try (Connection c = dataSource.getConnection()) {
            try (Statement s = c.createStatement()) {
                s.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY");
                s.execute(PLAN);
            }
            List<Finding> checked = new ArrayList<>(sample(c));
            for (Finding known : List.copyOf(violations.values())) {
                recheck(c, known).ifPresentOrElse(checked::add, () -> violations.remove(known.key()));
            }
            for (Finding finding : checked) {
                if (finding.violated()) {
                    if (violations.put(finding.key(), finding) == null) {
                        Log.errorf("Invariant I2 violated: tenant=%s sku=%s location=%s held=%d vs HELD lines %d; onHand=%d vs "
                                + "received %d - sold %d", finding.tenantId(), finding.sku(), finding.location(),
                                finding.held(), finding.heldLines(), finding.onHand(), finding.received(), finding.sold());
                    }
                } else if (violations.remove(finding.key()) != null) {
                    Log.infof("Invariant I2 holds again: tenant=%s sku=%s location=%s", finding.tenantId(), finding.sku(),
                            finding.location());
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        violationCount.set(violations.size());
        return violations.size();
    }

    private List<Finding> sample(Connection c) throws SQLException {
        List<Finding> found = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(SAMPLE)) {
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

    private java.util.Optional<Finding> recheck(Connection c, Finding known) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(ONE)) {
            ps.setString(1, known.tenantId());
            ps.setString(2, known.sku());
            ps.setString(3, known.location());
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? java.util.Optional.of(read(rs)) : java.util.Optional.empty();
            }
        }
    }

    private static Finding read(ResultSet rs) throws SQLException {
        return new Finding(rs.getString(1), rs.getString(2), rs.getString(3), rs.getLong(4), rs.getLong(5), rs.getLong(6),
                rs.getLong(7), rs.getLong(8));
    }
}
