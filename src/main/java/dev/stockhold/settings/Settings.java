package dev.stockhold.settings;

import java.time.Duration;

import jakarta.enterprise.context.ApplicationScoped;

import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.LoadingCache;

/**
 * Each tenant's settings as the reservation path reads them: from a cache (Caffeine) that keeps an entry for at most
 * {@link #FRESH_FOR}, so a tenant's requests cost no read of their own. A PUT drops the entry on the replica that takes
 * it, so its next request sees the change; the other replicas see it within {@link #FRESH_FOR}.
 */
@ApplicationScoped
public class Settings {

    /** How long a replica may answer from settings it read earlier. */
    public static final Duration FRESH_FOR = Duration.ofSeconds(1);

    private final SettingsRepository repository;
    private final LoadingCache<String, TenantSettings> cache;

    Settings(SettingsRepository repository) {
        this.repository = repository;
        this.cache = Caffeine.newBuilder().expireAfterWrite(FRESH_FOR).maximumSize(100_000).build(repository::read);
    }

    /** The tenant's settings, at most {@link #FRESH_FOR} old. */
    public TenantSettings of(String tenantId) {
        return cache.get(tenantId);
    }

    /** The tenant's settings as stored now. */
    public TenantSettings current(String tenantId) {
        return repository.read(tenantId);
    }

    /** Replaces the tenant's settings. */
    public TenantSettings put(String tenantId, TenantSettings settings) {
        repository.write(tenantId, settings);
        cache.invalidate(tenantId);
        return settings;
    }
}
