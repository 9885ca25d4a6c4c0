package dev.stockhold.reservation;

import java.util.List;
import java.util.Optional;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;

import io.quarkus.hibernate.orm.panache.PanacheRepositoryBase;

/** Reservations of one tenant; every lookup names the tenant (I5). */
@ApplicationScoped
public class ReservationRepository implements PanacheRepositoryBase<Reservation, UUID> {

    // The expiry claim: replicas skip rows another replica (or a confirm/cancel) holds, so each row has one owner.
    private static final String CLAIM_EXPIRED = """
            SELECT id FROM reservations
             WHERE status = 'HELD' AND expires_at <= now()
             ORDER BY expires_at
             LIMIT :limit
               FOR UPDATE SKIP LOCKED
            """;

    public Optional<Reservation> find(String tenantId, UUID id) {
        return find("id = ?1 and tenantId = ?2", id, tenantId).firstResultOptional();
    }

    /** Locks the reservation row: confirm, cancel and expiry serialize on it, so exactly one wins. */
    public Optional<Reservation> lock(String tenantId, UUID id) {
        return find("id = ?1 and tenantId = ?2", id, tenantId).withLock(LockModeType.PESSIMISTIC_WRITE).firstResultOptional();
    }

    /** Locks up to {@code limit} HELD reservations past their expiry that no one else holds. */
    @SuppressWarnings("unchecked")
    public List<Reservation> claimExpired(int limit) {
        List<UUID> ids = getEntityManager().createNativeQuery(CLAIM_EXPIRED, UUID.class)
                .setParameter("limit", limit)
                .getResultList();
        return ids.isEmpty() ? List.of() : list("id in ?1", ids);
    }
}
