package dev.stockhold.reservation;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.sql.DataSource;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.stockhold.reservation.ReservationStatus.Action;
import dev.stockhold.support.Repository;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The database enforces and indexes the lifecycle too: the status constraint, the trigger that counts sold units on
 * confirm, and the partial indexes over holding and committing reservations. Each must name exactly the statuses the
 * table in {@link ReservationStatus} names, as the database itself prints its definitions.
 */
@QuarkusTest
class ReservationRulesTest {

    private static final Pattern LITERAL = Pattern.compile("'([A-Z_]+)'");

    @Inject
    DataSource dataSource;

    @Test
    void theStatusConstraintKnowsEveryStatusAndNoOther() throws Exception {
        assertThat(statuses(definition("SELECT pg_get_constraintdef(oid) FROM pg_constraint WHERE conname = ?",
                "reservations_status_known"))).isEqualTo(EnumSet.allOf(ReservationStatus.class));
    }

    @Test
    void soldUnitsAreCountedOnTheConfirmTransitionOfTheTable() throws Exception {
        String trigger = definition("SELECT pg_get_triggerdef(oid) FROM pg_trigger WHERE tgname = ?", "reservations_count_sold");
        Matcher when = Pattern.compile("old\\.status\\)::text = '([A-Z_]+)'.*new\\.status\\)::text = '([A-Z_]+)'").matcher(trigger);
        assertThat(when.find()).as(trigger).isTrue();
        assertThat(Set.of(ReservationStatus.valueOf(when.group(1)))).isEqualTo(Action.CONFIRM.from());
        assertThat(ReservationStatus.valueOf(when.group(2))).isEqualTo(Action.CONFIRM.to());
    }

    @Test
    void thePartialIndexesCoverTheStatusesTheQueriesAskFor() throws Exception {
        String index = "SELECT indexdef FROM pg_indexes WHERE indexname = ?";
        assertThat(statuses(definition(index, "reservations_held_expiry_idx"))).isEqualTo(Action.EXPIRE.from());
        assertThat(statuses(definition(index, "reservations_held_tenant_idx"))).isEqualTo(ReservationStatus.holding());
        assertThat(statuses(definition(index, "reservations_committed_tenant_idx"))).isEqualTo(ReservationStatus.committing());
        // and the queries the indexes serve say the same as the index predicates, in the same words
        assertThat(ReservationStatus.sqlIn("status", ReservationStatus.committing()))
                .isEqualTo("status IN ('CONFIRMED', 'PARTIALLY_FULFILLED')");
        assertThat(ReservationStatus.sqlIn("status", Action.EXPIRE.from())).isEqualTo("status = 'HELD'");
    }

    @Test
    void everyStatusIsReachableAndOnlyHeldIsWhereANewReservationStarts() {
        EnumSet<ReservationStatus> reached = EnumSet.of(ReservationStatus.HELD);
        for (Action action : Action.values()) {
            if (action.to() != null) {
                reached.add(action.to());
            }
        }
        // fulfilments and releases lead by the units left: to PARTIALLY_FULFILLED or FULFILLED
        reached.addAll(EnumSet.of(ReservationStatus.PARTIALLY_FULFILLED, ReservationStatus.FULFILLED));
        assertThat(reached).isEqualTo(EnumSet.allOf(ReservationStatus.class));
        for (Action action : Action.values()) {
            assertThat(action.from().stream().filter(action::done).toList()).as("%s starts from a status it is already done in", action)
                    .isEmpty();
        }
    }

    @Test
    void theGuideShowsTheTable() throws Exception {
        StringBuilder table = new StringBuilder("| action | allowed from | leads to | already done in |\n|---|---|---|---|\n");
        for (Action action : Action.values()) {
            List<String> cells = List.of(action.name().toLowerCase(), names(action.from()),
                    action.to() == null ? "by the units left committed" : action.to().name(),
                    names(EnumSet.allOf(ReservationStatus.class).stream().filter(action::done).toList()));
            table.append(("| " + String.join(" | ", cells) + " |").replace("  |", " |")).append("\n");
        }
        assertThat(Files.readString(Repository.path("docs/api.md"))).as("docs/api.md's lifecycle table").contains(table);
    }

    private static String names(java.util.Collection<ReservationStatus> statuses) {
        return statuses.stream().sorted().map(Enum::name).collect(java.util.stream.Collectors.joining(", "));
    }

    private String definition(String sql, String name) throws Exception {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, name);
            try (ResultSet rs = ps.executeQuery()) {
                assertThat(rs.next()).as("%s exists", name).isTrue();
                return rs.getString(1);
            }
        }
    }

    private static Set<ReservationStatus> statuses(String definition) {
        List<ReservationStatus> found = new ArrayList<>();
        Matcher m = LITERAL.matcher(definition);
        while (m.find()) {
            found.add(ReservationStatus.valueOf(m.group(1)));
        }
        assertThat(found).as(definition).isNotEmpty();
        return EnumSet.copyOf(found);
    }
}
