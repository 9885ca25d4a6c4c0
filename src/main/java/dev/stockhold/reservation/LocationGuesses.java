package dev.stockhold.reservation;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

import dev.stockhold.inventory.Allocation;
import dev.stockhold.inventory.Candidate;
import dev.stockhold.inventory.StockKey;

/**
 * Where a new reservation's lines are placed without the allocation read, so that its one statement
 * ({@link OneStatementReservation}) is its only round trip. A line that names its location is placed there: the
 * statement's conditional hold is what decides whether that record has it. A line without one is placed on a guess: its
 * sku's first record in allocation order when this replica last read the sku's records, or, for a sku it has not read,
 * the location that came first in the tenant's last read. The statement checks every guess against the records as they
 * are and writes nothing unless the guessed location is the sku's first record in allocation order: a wrong guess costs
 * a statement that wrote nothing and then the read, never a line placed against the allocation order. When that first
 * record does not have the units, the hold fails as it would after a read, and the transactional path allocates from a
 * fresh read.
 * <p>
 * After a wrong guess, the tenant's skus that this replica has not read are read again for {@link #DISTRUST_FOR}: a
 * tenant whose skus live at different locations pays at most one wrong guess per sku it reads, and one per
 * {@link #DISTRUST_FOR} for the tenant's location.
 */
@ApplicationScoped
class LocationGuesses {

    /** How long a tenant's location is not guessed for skus not yet read after a guess of it was wrong. */
    static final Duration DISTRUST_FOR = Duration.ofMinutes(5);

    private record SkuOf(String tenantId, String sku) {
    }

    private final Cache<SkuOf, String> bySku = Caffeine.newBuilder().maximumSize(50_000).build();
    private final Cache<String, String> byTenant = Caffeine.newBuilder().maximumSize(10_000).build();
    private final Cache<String, Boolean> distrusted = Caffeine.newBuilder().expireAfterWrite(DISTRUST_FOR).maximumSize(10_000).build();

    /** @return the lines placed without a read, in line order; null when a line without a location has no guess */
    Allocation.Placed placed(String tenantId, List<Allocation.Line> lines) {
        List<StockKey> keys = new ArrayList<>(lines.size());
        for (Allocation.Line line : lines) {
            String location = line.location() != null ? line.location() : guess(tenantId, line.sku());
            if (location == null) {
                return null;
            }
            keys.add(new StockKey(line.sku(), location));
        }
        return new Allocation.Placed(keys);
    }

    private String guess(String tenantId, String sku) {
        String known = bySku.getIfPresent(new SkuOf(tenantId, sku));
        if (known != null || distrusted.getIfPresent(tenantId) != null) {
            return known;
        }
        return byTenant.getIfPresent(tenantId);
    }

    /** Learns from a read: {@code candidates} are the records of some skus in allocation order. */
    void read(String tenantId, List<Candidate> candidates) {
        if (candidates.isEmpty()) {
            return;
        }
        byTenant.put(tenantId, candidates.get(0).key().location());
        for (int i = candidates.size() - 1; i >= 0; i--) {
            // backwards, so that each sku keeps its first record's location
            StockKey key = candidates.get(i).key();
            bySku.put(new SkuOf(tenantId, key.sku()), key.location());
        }
    }

    /** A statement placed by guess found a record before a guessed one: forget those guesses. */
    void wrong(String tenantId, List<Allocation.Line> lines) {
        distrusted.put(tenantId, Boolean.TRUE);
        lines.stream().filter(l -> l.location() == null).forEach(l -> bySku.invalidate(new SkuOf(tenantId, l.sku())));
    }
}
