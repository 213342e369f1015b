package dev.cairn.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Every writer waiting for visibility is released once the projector passes its entry, whatever the interleaving. */
class WatermarkTrackerTest {

    @Test
    void aWaiterForAnAppliedEntryIsReleasedAtOnce() {
        WatermarkTracker t = new WatermarkTracker(new Watermark(10, 5, 3), Clock.systemUTC());
        assertTrue(t.awaitVisible(7).isDone());
    }

    @Test
    void aWaiterIsReleasedWhenTheWatermarkPassesItsEntry() {
        WatermarkTracker t = new WatermarkTracker(Watermark.EMPTY, Clock.systemUTC());
        CompletableFuture<Watermark> f = t.awaitVisible(5);
        t.advanced(new Watermark(4, 1, 1));
        assertTrue(!f.isDone());
        t.advanced(new Watermark(5, 2, 2));
        assertEquals(5, f.join().logIndex());
    }

    @Test
    void noWaiterIsLostWhileTheProjectorAdvancesConcurrently() throws Exception {
        WatermarkTracker t = new WatermarkTracker(Watermark.EMPTY, Clock.systemUTC());
        int entries = 300_000;
        Thread projector = new Thread(() -> {
            for (long i = 1; i <= entries; i++) {
                t.advanced(new Watermark(i, i, i));
            }
        });
        // Writers register right at the frontier the projector is passing, where a lost waiter would hide.
        java.util.List<CompletableFuture<Watermark>> waits = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        Thread[] writers = new Thread[2];
        for (int w = 0; w < writers.length; w++) {
            writers[w] = new Thread(() -> {
                long index;
                while ((index = t.current().logIndex() + 1) <= entries) {
                    waits.add(t.awaitVisible(index));
                }
            });
        }
        projector.start();
        for (Thread w : writers) {
            w.start();
        }
        projector.join();
        for (Thread w : writers) {
            w.join();
        }
        CompletableFuture.allOf(waits.toArray(new CompletableFuture<?>[0])).get(10, TimeUnit.SECONDS);
    }

    @Test
    void aWaitPastTheBoundEndsAsNotVisibleYetAndLeavesYoungerWaitsWaiting() throws Exception {
        WatermarkTracker t = new WatermarkTracker(Watermark.EMPTY, Clock.systemUTC());
        CompletableFuture<Watermark> old = t.awaitVisible(5);
        Thread.sleep(50);
        CompletableFuture<Watermark> young = t.awaitVisible(6);
        t.expireWaits(TimeUnit.MILLISECONDS.toNanos(40));
        ExecutionException e = assertThrows(ExecutionException.class, old::get);
        assertTrue(e.getCause() instanceof WatermarkTracker.NotVisibleYet, e.toString());
        assertFalse(young.isDone());
        assertTrue(t.awaited(), "the younger wait is still registered");
        t.advanced(new Watermark(6, 1, 1));
        assertEquals(6, young.join().logIndex());
        assertFalse(t.awaited());
    }
}
