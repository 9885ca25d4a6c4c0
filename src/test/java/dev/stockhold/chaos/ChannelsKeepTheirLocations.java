package dev.stockhold.chaos;

import java.util.List;

import dev.stockhold.chaos.Findings.Rule;

/**
 * I9: a reservation made through a channel holds stock only at that channel's locations, whatever edits it went through,
 * and its created event names the channel it went through.
 */
final class ChannelsKeepTheirLocations extends Invariant {

    @Override
    void check() {
        Catalogue catalogue = db.catalogue();
        catalogue.channelOf().forEach((id, channel) -> {
            List<String> locations = catalogue.channels().get(channel);
            Snapshot.Reservation r = db.reservations().get(id);
            if (locations == null || r == null) {
                violation(Rule.I9, "reservation " + id + " went through channel " + channel + ", which has no row (or it has none)");
                return;
            }
            r.at().forEach((at, quantity) -> {
                if (quantity > 0 && !locations.contains(at.substring(at.indexOf('@') + 1))) {
                    violation(Rule.I9,
                            "reservation " + id + " of channel " + channel + " " + locations + " holds " + quantity + " at " + at);
                }
            });
        });
        db.events().stream().filter(e -> !e.stock() && e.kind().equals("created") && e.data() != null && e.data().hasNonNull("channel"))
                .forEach(e -> {
                    if (!e.data().path("channel").asText().equals(catalogue.channelOf().get(e.aggregateId()))) {
                        violation(Rule.I9, "reservation " + e.aggregateId() + " created through channel " + e.data().path("channel")
                                + " but its row names " + catalogue.channelOf().get(e.aggregateId()));
                    }
                });
    }
}
