/**
 * Reservations: POST /v1/reservations made once per idempotency key ({@link dev.stockhold.reservation.ReservingService},
 * hot skus through {@link dev.stockhold.reservation.HotSkuGroups}, every new reservation written by
 * {@link dev.stockhold.reservation.NewReservations}), and what happens to a reservation afterwards: read, list, confirm,
 * cancel, extend, expire ({@link dev.stockhold.reservation.ReservationLifecycle}). The reservations and
 * reservation_lines tables are {@link dev.stockhold.reservation.ReservationRepository}.
 */
package dev.stockhold.reservation;
