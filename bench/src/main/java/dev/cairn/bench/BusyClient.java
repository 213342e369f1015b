package dev.cairn.bench;

import java.io.UncheckedIOException;

/**
 * A verified client going about its business: a GET every {@value #INTERVAL_MILLIS} ms on its own keep-alive
 * connection while a phase of a run is on, each latency counted in that phase. It is not a load generator: what it
 * measures is what another client does to it.
 */
final class BusyClient implements AutoCloseable {
    static final int INTERVAL_MILLIS = 2;

    /** What the client saw during one phase: latencies of its 200s, and requests that got anything else. */
    static final class Probed {
        private final Latencies latencies = new Latencies();
        private int failed;

        synchronized int count() {
            return latencies.count() + failed;
        }

        synchronized int failed() {
            return failed;
        }

        synchronized double p(double percentile) {
            return latencies.percentileMillis(percentile);
        }

        private synchronized void record(int status, long nanos) {
            if (status == 200) {
                latencies.add(nanos);
            } else {
                failed++;
            }
        }

        /** The latencies and failures of several phases together. */
        static Probed of(Iterable<Probed> phases) {
            Probed all = new Probed();
            for (Probed p : phases) {
                synchronized (p) {
                    all.latencies.addAll(p.latencies);
                    all.failed += p.failed;
                }
            }
            return all;
        }
    }

    private final LoopbackClient client;
    private final Thread thread;
    private volatile Probed current;
    private volatile boolean closed;

    BusyClient(int port, String credential) {
        this.client = new LoopbackClient(port, credential);
        this.thread = new Thread(this::loop, "busy-client");
        thread.setDaemon(true);
        thread.start();
    }

    /** Starts a phase: from now on the client's requests count in the returned record. */
    Probed start() {
        Probed p = new Probed();
        current = p;
        return p;
    }

    /** Ends the phase (a request under way may still be counted in it). */
    void stop() {
        current = null;
    }

    private void loop() {
        while (!closed) {
            Probed p = current;
            if (p != null) {
                long t0 = System.nanoTime();
                int status;
                try {
                    status = client.get(GuessingLoad.ORDINARY).status();
                } catch (UncheckedIOException e) {
                    status = -1;
                }
                p.record(status, System.nanoTime() - t0);
            }
            try {
                Thread.sleep(INTERVAL_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    @Override
    public void close() throws InterruptedException {
        closed = true;
        thread.interrupt();
        thread.join();
        client.close();
    }
}
