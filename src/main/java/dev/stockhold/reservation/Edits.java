package dev.stockhold.reservation;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.stockhold.OutcomeLog;
import dev.stockhold.idempotency.IdempotencyKey;
import dev.stockhold.idempotency.OncePerKey;
import dev.stockhold.idempotency.Refusal;
import dev.stockhold.idempotency.StoredResponse;
import dev.stockhold.inventory.Allocation;
import dev.stockhold.inventory.Candidate;
import dev.stockhold.inventory.Channel;
import dev.stockhold.inventory.Channels;
import dev.stockhold.inventory.IfMatch;
import dev.stockhold.inventory.Kit;
import dev.stockhold.inventory.KitAllocation;
import dev.stockhold.inventory.Kits;
import dev.stockhold.inventory.Move;
import dev.stockhold.inventory.Source;
import dev.stockhold.inventory.StockKey;
import dev.stockhold.inventory.StockMoves;
import dev.stockhold.inventory.StockRecord;
import dev.stockhold.outbox.OutboxWriter;
import dev.stockhold.settings.Settings;
import dev.stockhold.settings.TenantSettings;
import dev.stockhold.web.Problem;
import dev.stockhold.web.ProblemType;

/**
 * PATCH of a HELD reservation, once per Idempotency-Key and only on the version the client read (If-Match): its lines
 * are replaced, the differences held or released per stock record in one conditional statement (a rise only where
 * the record has the units, I1; all or nothing), expiresAt unchanged, one reservation.updated event. Under the
 * reservation's row lock, so an edit and a confirm, cancel or expiry are applied one after the other; the version
 * check makes an edit based on a stale read a 412. Outcomes 200, 409 and 412 are stored with the key and replayed.
 */
@ApplicationScoped
public class Edits {

    @Inject
    ReservationRepository reservations;
    @Inject
    StockMoves stock;
    @Inject
    Channels channels;
    @Inject
    Kits kits;
    @Inject
    HeldViews views;
    @Inject
    dev.stockhold.StockholdConfig config;
    @Inject
    OutboxWriter outbox;
    @Inject
    OncePerKey once;
    @Inject
    ObjectMapper mapper;
    @Inject
    Settings settings;
    @Inject
    java.time.Clock clock;

    public OncePerKey.Reply edit(String tenantId, IdempotencyKey key, UUID id, IfMatch ifMatch, ReservationEdit edit) {
        OncePerKey.Reply reply = once.run(tenantId, key, edit.fingerprint(id, ifMatch), id, () -> apply(tenantId, id, ifMatch, edit));
        OutcomeLog.reservation(reply.replayed() ? "updated-replayed" : reply.response().status() == 200 ? "updated" : "update-refused",
                tenantId, key.value(), id, null);
        return reply;
    }

    private StoredResponse apply(String tenantId, UUID id, IfMatch ifMatch, ReservationEdit edit) {
        // not found: the exception rolls the key back with everything else, so a 404 is not stored
        Reservation r = reservations.lock(tenantId, id).orElseThrow(() -> new ReservationNotFoundException(id.toString()));
        if (!ifMatch.matches(r.etag())) {
            throw refusal(Problem.of(ProblemType.PRECONDITION_FAILED, "If-Match does not match the current version of reservation " + id
                    + " (now " + r.etag() + "); nothing was changed"));
        }
        Instant now = dev.stockhold.Clocks.now(clock);
        if (!ReservationStatus.Action.EDIT.allows(r.status) || r.isPastExpiry(now)) {
            throw refusal(Problem.of(ProblemType.INVALID_RESERVATION_STATE, ReservationStatus.Action.EDIT.allows(r.status)
                    ? "Reservation expired at " + r.expiresAt + "; it cannot be changed"
                    : ReservationStatus.Action.EDIT.refusal(r.status)));
        }
        if (r.backorders != null) {
            throw refusal(Problem.of(ProblemType.INVALID_RESERVATION_STATE,
                    "Reservation has backordered units; it can be changed once they arrive, or cancelled"));
        }
        TenantSettings caps = settings.of(tenantId);
        List<String> overLine = Caps.overLine(caps, edit.lines());
        if (!overLine.isEmpty()) {
            throw refusal(Caps.lineRefusal(caps, overLine, "nothing was changed"));
        }
        List<ReservationView.Line> before = ReservationView.of(r).rows();
        SortedMap<StockKey, Long> held = r.quantities();
        List<ReservationView.Line> plain = place(tenantId, r, edit, held);
        // kit lines are found as unknown skus on the plain placement, as on create: an edit without kits reads no kit
        ReservationView kitted = plain == null ? placeKits(tenantId, r, edit, held, now) : null;
        List<ReservationView.Line> after = plain != null ? plain : kitted.rows();

        // what each record's held moves by: the new quantities minus the old
        SortedMap<StockKey, Long> shift = new TreeMap<>();
        held.forEach((k, q) -> shift.merge(k, -q, Long::sum));
        after.forEach(l -> shift.merge(new StockKey(l.sku(), l.location()), (long) l.quantity(), Long::sum));
        shift.values().removeIf(q -> q == 0);
        List<StockRecord> moved = stock.move(Move.SHIFT, tenantId, shift, Source.reservation(null, r.id, null), null, now);
        if (moved.size() != shift.size()) {
            throw refusal(Refusals.of(List.of(), shortSkus(shift, moved), "nothing was changed"));
        }
        reservations.replaceLines(r.id, after);
        // the edit's lines are placed whole: a split or partial reservation is shown as it is held from now on, a
        // reservation with kit lines by those lines
        r.allocation = null;
        r.requestedLines = kitted == null ? null : kitted.requestedJson();
        r.touch(now);
        ReservationView view = ReservationView.of(r, r.status, after);
        outbox.write(tenantId, List.of(ReservationEvents.updated(view, before)), now);
        return StoredResponse.ok(mapper, view, id, r.etag());
    }

    /**
     * The new lines at their locations: a named location is kept; a bare line stays at the location the reservation
     * holds its sku at, else goes to the first location in allocation order that covers it (through the reservation's
     * channel: only the channel's locations, in its order). What the reservation holds
     * already counts as available to it.
     */
    private List<ReservationView.Line> place(String tenantId, Reservation r, ReservationEdit edit, SortedMap<StockKey, Long> held) {
        Map<String, String> heldAt = heldAt(held);
        List<Allocation.Line> lines = edit.lines().stream()
                .map(l -> new Allocation.Line(l.sku(), l.location() != null ? l.location() : heldAt.get(l.sku()), l.quantity())).toList();
        Map<StockKey, Long> taken = new HashMap<>();
        held.forEach((k, q) -> taken.put(k, -q));
        Allocation allocation = Allocation.of(lines,
                candidates(tenantId, r, new TreeSet<>(lines.stream().map(Allocation.Line::sku).toList())), taken);
        if (allocation instanceof Allocation.Refused refused) {
            if (!refused.unknown().isEmpty() && !kits.of(tenantId, refused.unknown()).isEmpty()) {
                return null; // some lines are kits: placed by their components
            }
            throw refusal(Refusals.of(refused.unknown(), refused.shortSkus(), "nothing was changed"));
        }
        List<StockKey> keys = ((Allocation.Placed) allocation).keys();
        List<ReservationView.Line> placed = new ArrayList<>();
        for (int i = 0; i < edit.lines().size(); i++) {
            placed.add(new ReservationView.Line(edit.lines().get(i).sku(), edit.lines().get(i).quantity(), keys.get(i).location()));
        }
        return placed;
    }

    /**
     * The new lines of an edit that names kits, placed whole as a new reservation's kit lines are (all or nothing per
     * kit unit, lines sharing a component summed): a bare kit line stays at the location the reservation holds that kit
     * at, when one; what the reservation holds counts as available to it.
     *
     * @return the reservation's new lines, kit lines with their components
     */
    private ReservationView placeKits(String tenantId, Reservation r, ReservationEdit edit, SortedMap<StockKey, Long> held, Instant now) {
        List<String> asked = edit.lines().stream().map(ReservationRequest.Line::sku).distinct().toList();
        Map<String, Kit> kitsAsked = kits.of(tenantId, asked);
        java.util.Set<String> skus = new java.util.LinkedHashSet<>();
        asked.forEach(sku -> {
            Kit kit = kitsAsked.get(sku);
            if (kit == null) {
                skus.add(sku);
            } else {
                kit.components().forEach(c -> skus.add(c.sku()));
            }
        });
        List<Candidate> candidates = candidates(tenantId, r, skus).stream()
                .map(c -> new Candidate(c.key(), c.available() + held.getOrDefault(c.key(), 0L))).toList();
        Map<String, String> heldAt = heldAt(held);
        if (r.requestedLines != null) {
            StoredLines.requestedOf(r.requestedLines).stream().filter(l -> l.units() != null && l.units().size() == 1)
                    .forEach(l -> heldAt.put(l.sku(), l.units().get(0).location()));
        }
        List<ReservationRequest.Line> lines = edit.lines().stream().map(l -> new ReservationRequest.Line(l.sku(), l.quantity(),
                l.location() != null ? l.location() : heldAt.get(l.sku()))).toList();
        Object placed = KitAllocation.place(lines.stream().map(l -> new Allocation.Line(l.sku(), l.location(), l.quantity())).toList(),
                kitsAsked, candidates, false, false, config.limits().locationsPerLine());
        if (placed instanceof Allocation.Refused refused) {
            throw refusal(Refusals.of(refused.unknown(), refused.shortSkus(), "nothing was changed"));
        }
        return views.held(r.id, new ReservationRequest(lines, null, null, null, null, null, null, null), (KitAllocation.Placed) placed,
                now);
    }

    /** The records an edit may place on, in allocation order; through the reservation's channel only its locations, in its order. */
    private List<Candidate> candidates(String tenantId, Reservation r, java.util.Collection<String> skus) {
        List<Candidate> found = stock.candidates(tenantId, skus, null);
        Channel channel = r.channel == null ? null : channels.find(tenantId, r.channel);
        return channel == null ? found : channel.order(found);
    }

    /** Per sku, a location the reservation holds it at: where a bare line of the edit stays. */
    private static Map<String, String> heldAt(SortedMap<StockKey, Long> held) {
        Map<String, String> at = new HashMap<>();
        held.keySet().forEach(k -> at.merge(k.sku(), k.location(), (a, b) -> a));
        return at;
    }

    private static List<String> shortSkus(SortedMap<StockKey, Long> shift, List<StockRecord> moved) {
        List<StockKey> done = moved.stream().map(StockRecord::key).toList();
        return shift.keySet().stream().filter(k -> !done.contains(k)).map(StockKey::sku).distinct().toList();
    }

    private Refusal refusal(Problem problem) {
        return once.refusal(problem);
    }

}
