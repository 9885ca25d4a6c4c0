package dev.stockhold.reservation;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.stockhold.idempotency.OncePerKey;
import dev.stockhold.inventory.Channel;
import dev.stockhold.inventory.Channels;
import dev.stockhold.settings.TenantSettings;
import dev.stockhold.web.Problem;
import dev.stockhold.web.ProblemType;

/**
 * What a request on a locked path meets first, in the transaction that claimed its key: its reference's cap, counted under
 * a lock of its own, and its channel. Each refusal is stored with the key.
 */
@ApplicationScoped
class RequestGate {

    @Inject
    OncePerKey once;
    @Inject
    ReservationRepository reservations;
    @Inject
    Channels channels;

    /** @return the request's channel, or null when it names none */
    Channel admit(ReservationAttempt a, TenantSettings caps) {
        ReservationRequest request = a.request();
        if (caps.maxHeldPerReference() != null && request.reference() != null
                && reservations.lockReference(a.tenantId(), request.reference()) >= caps.maxHeldPerReference()) {
            throw once.refusal(Caps.referenceRefusal(caps, request.reference()));
        }
        if (request.channel() == null) {
            return null;
        }
        Channel channel = channels.find(a.tenantId(), request.channel());
        if (channel == null) {
            throw once.refusal(Problem.of(ProblemType.UNKNOWN_CHANNEL, "No channel '" + request.channel() + "'; nothing was reserved"));
        }
        return channel;
    }
}
