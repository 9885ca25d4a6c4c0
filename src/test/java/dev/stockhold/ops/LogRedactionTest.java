package dev.stockhold.ops;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.Statement;
import java.util.List;

import javax.sql.DataSource;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.stockhold.support.Api;
import dev.stockhold.support.ServerLog;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The logs never hold request values: an unexpected SQL error (a trigger refuses this tenant's reservation insert)
 * is logged with its SQLState and where it happened, not with the statement and its bind values.
 */
@QuarkusTest
class LogRedactionTest {

    @Inject
    DataSource dataSource;

    private ServerLog log;
    private Api api;

    @BeforeEach
    void setUp() throws Exception {
        api = Api.newTenant();
        log = ServerLog.open();
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE OR REPLACE FUNCTION test_refuse_reservation() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
                    + "IF NEW.tenant_id = '" + api.tenant() + "' THEN RAISE EXCEPTION 'refused by a test trigger'; END IF; "
                    + "RETURN NEW; END $$");
            s.execute("CREATE TRIGGER test_refuse_reservation_" + api.tenant().replace('-', '_')
                    + " BEFORE INSERT ON reservations FOR EACH ROW EXECUTE FUNCTION test_refuse_reservation()");
        }
    }

    @AfterEach
    void tearDown() throws Exception {
        log.close();
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
            s.execute("DROP TRIGGER IF EXISTS test_refuse_reservation_" + api.tenant().replace('-', '_') + " ON reservations");
        }
    }

    @Test
    void shouldLogTheSqlStateOfAnUnexpectedSqlErrorAndNoRequestValue() {
        String sku = Api.sku();
        api.setStock(sku, 5);
        String key = "log-secret-key-" + System.nanoTime();
        String body = "{\"lines\":[{\"sku\":\"" + sku + "\",\"quantity\":1}],\"reference\":\"ref-secret-4711\","
                + "\"metadata\":{\"card\":\"meta-secret-0815\"}}";

        api.reserve(key, body).then().statusCode(500);

        List<String> logged = log.records().stream().map(ServerLog::fullText).toList();
        assertThat(logged).as("the failure is logged").anyMatch(line -> line.contains("SQLState P0001"));
        assertThat(String.join("\n", logged)).doesNotContain("ref-secret-4711").doesNotContain("meta-secret-0815")
                .doesNotContain(key).doesNotContain("INSERT INTO");
    }
}
