package dev.stockhold.settings;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

import io.agroal.api.AgroalDataSource;

/** Every statement on tenant_settings. */
@ApplicationScoped
class SettingsRepository {

    private static final String READ = "SELECT max_line_quantity, max_held_per_reference FROM tenant_settings WHERE tenant_id = ?";
    private static final String WRITE = """
            INSERT INTO tenant_settings AS t (tenant_id, max_line_quantity, max_held_per_reference) VALUES (?, ?, ?)
            ON CONFLICT (tenant_id) DO UPDATE SET max_line_quantity = EXCLUDED.max_line_quantity,
                   max_held_per_reference = EXCLUDED.max_held_per_reference, version = t.version + 1, updated_at = now()
            """;

    private final AgroalDataSource dataSource;

    SettingsRepository(AgroalDataSource dataSource) {
        this.dataSource = dataSource;
    }

    TenantSettings read(String tenantId) {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(READ)) {
            ps.setString(1, tenantId);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return TenantSettings.NONE;
                }
                return new TenantSettings(rs.getObject(1, Integer.class), rs.getObject(2, Integer.class));
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    @Transactional
    void write(String tenantId, TenantSettings settings) {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(WRITE)) {
            ps.setString(1, tenantId);
            ps.setObject(2, settings.maxLineQuantity(), Types.INTEGER);
            ps.setObject(3, settings.maxHeldPerReference(), Types.INTEGER);
            ps.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
