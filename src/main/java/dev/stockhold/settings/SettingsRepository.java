package dev.stockhold.settings;

import java.sql.ResultSet;
import java.sql.Types;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

import dev.stockhold.Jdbc;

/** Every statement on tenant_settings. */
@ApplicationScoped
class SettingsRepository {

    private static final String READ = "SELECT max_line_quantity, max_held_per_reference FROM tenant_settings WHERE tenant_id = ?";
    private static final String WRITE = """
            INSERT INTO tenant_settings AS t (tenant_id, max_line_quantity, max_held_per_reference) VALUES (?, ?, ?)
            ON CONFLICT (tenant_id) DO UPDATE SET max_line_quantity = EXCLUDED.max_line_quantity,
                   max_held_per_reference = EXCLUDED.max_held_per_reference, version = t.version + 1, updated_at = now()
            """;

    @Inject
    Jdbc jdbc;

    TenantSettings read(String tenantId) {
        return jdbc.run(Jdbc.Mode.READ, READ, (c, ps) -> {
            ps.setString(1, tenantId);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return TenantSettings.NONE;
                }
                return new TenantSettings(rs.getObject(1, Integer.class), rs.getObject(2, Integer.class));
            }
        });
    }

    @Transactional
    void write(String tenantId, TenantSettings settings) {
        jdbc.run(Jdbc.Mode.JOIN, WRITE, (c, ps) -> {
            ps.setString(1, tenantId);
            ps.setObject(2, settings.maxLineQuantity(), Types.INTEGER);
            ps.setObject(3, settings.maxHeldPerReference(), Types.INTEGER);
            ps.executeUpdate();
            return null;
        });
    }
}
