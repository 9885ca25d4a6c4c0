package dev.stockhold.outbox;

import java.util.Map;

/**
 * The in-process relay is off: tests play the relays themselves (several at once, a dying one, a failing broker) and
 * move the relay's time by moving the rows' times ({@code Db.expireOutboxLeases}, {@code Db.makeOutboxRetriesDue}).
 */
public class ManualRelayProfile extends ShortRetryScheduleProfile {

    @Override
    protected Map<String, String> more() {
        return Map.of("stockhold.relay.enabled", "false", "stockhold.relay.lease", "2s");
    }
}
