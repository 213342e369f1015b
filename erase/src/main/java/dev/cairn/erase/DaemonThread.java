package dev.cairn.erase;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/** The one background thread each of erasure's schedules runs on, named for thread dumps, and its orderly stop. */
final class DaemonThread {
    private DaemonThread() {
    }

    /** A scheduler of one daemon thread called {@code name}: it never holds the process up at exit. */
    static ScheduledExecutorService named(String name) {
        return Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        });
    }

    /** Interrupts what {@code thread} runs and waits up to 30 s for it to end. */
    static void stop(ScheduledExecutorService thread) {
        thread.shutdownNow();
        try {
            thread.awaitTermination(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
