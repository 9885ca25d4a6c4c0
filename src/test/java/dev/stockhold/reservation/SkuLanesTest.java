package dev.stockhold.reservation;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import org.junit.jupiter.api.Test;

import dev.stockhold.support.Eventually;

/** The lanes alone: who leads, who waits, what a group holds, and that every request gets its own outcome once. */
class SkuLanesTest {

    @Test
    void shouldGroupEveryRequestOfTheSkuThatQueuedBehindTheLeaderAndNoOtherSku() throws Exception {
        SkuLanes<String, String> lanes = new SkuLanes<>(1, 32); // one stripe: both skus share it
        List<List<String>> groups = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch firstCommitting = new CountDownLatch(1);
        CountDownLatch releaseFirst = new CountDownLatch(1);
        Consumer<List<SkuLanes.Ticket<String, String>>> commit = group -> {
            groups.add(group.stream().map(t -> t.request).toList());
            if (group.get(0).request.equals("a1")) {
                firstCommitting.countDown();
                await(releaseFirst);
            }
            group.forEach(t -> t.complete(new SkuLanes.Answered<>("done " + t.request)));
        };
        ExecutorService pool = Executors.newFixedThreadPool(5);
        try {
            Future<String> a1 = pool.submit(() -> answer(lanes.submit(new SkuLanes.Ticket<>("t", "A", "a1"), commit)));
            assertThat(firstCommitting.await(10, TimeUnit.SECONDS)).isTrue();
            List<Future<String>> queued = new ArrayList<>();
            for (String r : List.of("a2", "a3", "b1", "a4")) {
                String sku = r.substring(0, 1).toUpperCase();
                queued.add(pool.submit(() -> answer(lanes.submit(new SkuLanes.Ticket<>("t", sku, r), commit))));
            }
            awaitQueued(lanes, 4);
            releaseFirst.countDown();

            assertThat(a1.get(10, TimeUnit.SECONDS)).isEqualTo("done a1");
            List<Object> outcomes = new ArrayList<>();
            for (Future<String> f : queued) {
                outcomes.add(f.get(10, TimeUnit.SECONDS));
            }
            assertThat(outcomes).containsExactly("done a2", "done a3", "done b1", "done a4");
            assertThat(groups).hasSize(3);
            assertThat(groups.get(0)).containsExactly("a1");
            // the next leader takes every queued request of its sku and none of the other sku
            List<Set<String>> next = groups.subList(1, 3).stream().map(Set::copyOf).toList();
            assertThat(next).containsExactlyInAnyOrder(Set.of("a2", "a3", "a4"), Set.of("b1"));
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void shouldSendEveryRequestItsGroupDidNotCompleteBackToRunAlone() {
        SkuLanes<String, String> lanes = new SkuLanes<>(4, 32);
        SkuLanes.Outcome<String> outcome = lanes.submit(new SkuLanes.Ticket<>("t", "A", "a1"), group -> {
            // a group that rolled back completes nobody
        });
        assertThat(outcome).isInstanceOf(SkuLanes.Alone.class);
        assertThat(outcome.resolve(() -> "ran alone")).isEqualTo("ran alone");
    }

    @Test
    void shouldCapAGroupAtItsMaximumSize() throws Exception {
        SkuLanes<String, String> lanes = new SkuLanes<>(1, 3);
        List<Integer> sizes = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch firstCommitting = new CountDownLatch(1);
        CountDownLatch releaseFirst = new CountDownLatch(1);
        Consumer<List<SkuLanes.Ticket<String, String>>> commit = group -> {
            sizes.add(group.size());
            if (group.get(0).request.equals("leader")) {
                firstCommitting.countDown();
                await(releaseFirst);
            }
            group.forEach(t -> t.complete(new SkuLanes.Answered<>(t.request)));
        };
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            Future<String> leader = pool.submit(() -> answer(lanes.submit(new SkuLanes.Ticket<>("t", "A", "leader"), commit)));
            assertThat(firstCommitting.await(10, TimeUnit.SECONDS)).isTrue();
            List<Future<String>> queued = new ArrayList<>();
            for (int i = 0; i < 7; i++) {
                String r = "r" + i;
                queued.add(pool.submit(() -> answer(lanes.submit(new SkuLanes.Ticket<>("t", "A", r), commit))));
            }
            awaitQueued(lanes, 7);
            releaseFirst.countDown();
            leader.get(10, TimeUnit.SECONDS);
            List<Object> outcomes = new ArrayList<>();
            for (Future<String> f : queued) {
                outcomes.add(f.get(10, TimeUnit.SECONDS));
            }
            assertThat(outcomes).containsExactly("r0", "r1", "r2", "r3", "r4", "r5", "r6");
            assertThat(sizes.get(0)).isEqualTo(1);
            assertThat(sizes.subList(1, sizes.size())).allSatisfy(size -> assertThat(size).isBetween(1, 3));
            assertThat(sizes.stream().mapToInt(Integer::intValue).sum()).isEqualTo(8);
        } finally {
            pool.shutdownNow();
        }
    }

    /** What the request answers; "alone" when its group sent it back to run on its own. */
    private static String answer(SkuLanes.Outcome<String> outcome) {
        return outcome.resolve(() -> "alone");
    }

    private static void awaitQueued(SkuLanes lanes, int n) {
        Eventually.await(Duration.ofSeconds(10), n + " requests queued", () -> lanes.queued() >= n);
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
