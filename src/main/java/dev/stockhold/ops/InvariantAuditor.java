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

import dev.stockhold.StockholdConfig;
import io.agroal.api.AgroalDataSource;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.logging.Log;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.runtime.Startup;

/**
 * Audits conservation (I2): for each sku, available + quantities HELD or CONFIRMED must equal the total admins put in.
 * Each run checks a rotating sample in one read-only REPEATABLE READ snapshot (counters and lines seen at the same
 * instant), plus every sku that failed before, and exports {@code stockhold_invariant_violations}: 0 when healthy.
 * Read-only, so any number of replicas may run it.
 */
@ApplicationScoped
@Startup
public class InvariantAuditor {

    private static final String SAMPLE = """
            WITH batch AS (
                SELECT tenant_id, sku, available, total FROM stock_items
                 WHERE total IS NOT NULL AND (tenant_id, sku) > (?, ?)
                 ORDER BY tenant_id, sku LIMIT ?)
            SELECT b.tenant_id, b.sku, b.available, b.total,
                   coalesce((SELECT sum(l.quantity) FROM reservation_lines l JOIN reservations r ON r.id = l.reservation_id
                              WHERE l.sku = b.sku AND r.tenant_id = b.tenant_id AND r.status IN ('HELD', 'CONFIRMED')), 0)
              FROM batch b ORDER BY b.tenant_id, b.sku
            """;
    private static final String ONE = """
            SELECT s.tenant_id, s.sku, s.available, s.total,
                   coalesce((SELECT sum(l.quantity) FROM reservation_lines l JOIN reservations r ON r.id = l.reservation_id
                              WHERE l.sku = s.sku AND r.tenant_id = s.tenant_id AND r.status IN ('HELD', 'CONFIRMED')), 0)
              FROM stock_items s WHERE s.tenant_id = ? AND s.sku = ? AND s.total IS NOT NULL
            """;

    private final AgroalDataSource dataSource;
    private final StockholdConfig config;
    private final Map<String, Finding> violations = new ConcurrentHashMap<>();
    private final AtomicInteger violationCount = new AtomicInteger();
    private volatile String cursorTenant = "";
    private volatile String cursorSku = "";

    InvariantAuditor(AgroalDataSource dataSource, StockholdConfig config, MeterRegistry registry) {
        this.dataSource = dataSource;
        this.config = config;
        registry.gauge("stockhold.invariant.violations", violationCount);
    }

    /** One sku's figures; a violation when available + held != total. */
    public record Finding(String tenantId, String sku, long available, long total, long held) {
        boolean violated() {
            return available + held != total;
        }

        String key() {
            return tenantId + "/" + sku;
        }
    }

    @Scheduled(every = "${stockhold.audit.interval:30s}", delayed = "15s", concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    void scheduled() {
        if (config.audit().enabled()) {
            audit();
        }
    }

    /** Audits the next sample and every known violator. @return the violations currently known */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public int audit() {
        try (Connection c = dataSource.getConnection()) {
            try (Statement s = c.createStatement()) {
                s.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY");
            }
            List<Finding> checked = new ArrayList<>(sample(c));
            for (Finding known : List.copyOf(violations.values())) {
                recheck(c, known).ifPresentOrElse(checked::add, () -> violations.remove(known.key()));
            }
            for (Finding finding : checked) {
                if (finding.violated()) {
                    if (violations.put(finding.key(), finding) == null) {
                        Log.errorf("Invariant I2 violated: tenant=%s sku=%s available=%d + held/confirmed=%d != total=%d",
                                finding.tenantId(), finding.sku(), finding.available(), finding.held(), finding.total());
                    }
                } else if (violations.remove(finding.key()) != null) {
                    Log.infof("Invariant I2 holds again: tenant=%s sku=%s", finding.tenantId(), finding.sku());
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
            ps.setInt(3, config.audit().sampleSize());
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    found.add(read(rs));
                }
            }
        }
        if (found.size() < config.audit().sampleSize()) {
            cursorTenant = "";
            cursorSku = "";
        } else {
            Finding last = found.get(found.size() - 1);
            cursorTenant = last.tenantId();
            cursorSku = last.sku();
        }
        return found;
    }

    private java.util.Optional<Finding> recheck(Connection c, Finding known) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(ONE)) {
            ps.setString(1, known.tenantId());
            ps.setString(2, known.sku());
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? java.util.Optional.of(read(rs)) : java.util.Optional.empty();
            }
        }
    }

    private static Finding read(ResultSet rs) throws SQLException {
        return new Finding(rs.getString(1), rs.getString(2), rs.getLong(3), rs.getLong(4), rs.getLong(5));
    }
}
