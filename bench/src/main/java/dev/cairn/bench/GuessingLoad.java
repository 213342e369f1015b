package dev.cairn.bench;

import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;

/**
 * Password-guessing clients sending a given number of GETs, each with credentials of its own: one keep-alive
 * connection from one address with one guess after another, or many connections at once, each from an address of
 * its own. What came back is counted as it comes ({@link Tally}), so that others can act while the load runs.
 */
final class GuessingLoad {
    /** The GET every client of the harness sends: one statement. */
    static final String ORDINARY = "/xapi/statements?limit=1";
    /** However the server answers, a load ends within this. */
    private static final long MAX_MINUTES = 5;

    /** Statuses counted (-1 for a request that got no answer), and refusals that did not say when to retry. */
    static final class Tally {
        private final Map<Integer, Integer> statuses = new TreeMap<>();
        private int withoutRetryAfter;

        synchronized void add(LoopbackClient.Response r) {
            statuses.merge(r.status(), 1, Integer::sum);
            if ((r.status() == 429 || r.status() == 503) && r.header("Retry-After") == null) {
                withoutRetryAfter++;
            }
        }

        synchronized void lost() {
            statuses.merge(-1, 1, Integer::sum);
        }

        synchronized int count(int status) {
            return statuses.getOrDefault(status, 0);
        }

        synchronized int total() {
            return statuses.values().stream().mapToInt(Integer::intValue).sum();
        }

        /** Answers other than these statuses. */
        synchronized int other(int... expected) {
            int n = total();
            for (int s : expected) {
                n -= count(s);
            }
            return n;
        }

        synchronized int withoutRetryAfter() {
            return withoutRetryAfter;
        }

        @Override
        public synchronized String toString() {
            List<String> parts = new ArrayList<>();
            statuses.forEach((status, n) -> parts.add(n + " × " + (status < 0 ? "no answer" : status)));
            return String.join(", ", parts);
        }
    }

    private final ExecutorService pool;
    private final List<Future<?>> clients = new ArrayList<>();
    private final Tally tally = new Tally();

    private GuessingLoad(int threads) {
        pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "guesser");
            t.setDaemon(true);
            return t;
        });
    }

    /** {@code requests} GETs in a row on one connection from {@code from}, the i-th with {@code credential(i)}. */
    static GuessingLoad sequential(int port, InetAddress from, int requests, IntFunction<String> credential) {
        GuessingLoad load = new GuessingLoad(1);
        AtomicInteger next = new AtomicInteger();
        load.clients.add(load.pool.submit(() -> load.guess(port, from, requests, next, credential)));
        return load;
    }

    /**
     * {@code requests} GETs from {@code connections} connections at once, connection c from 127.2.c/250.c%250+1,
     * each sending its next request as soon as the last one was answered.
     */
    static GuessingLoad parallel(int port, int connections, int requests, IntFunction<String> credential) {
        GuessingLoad load = new GuessingLoad(connections);
        AtomicInteger next = new AtomicInteger();
        for (int c = 0; c < connections; c++) {
            InetAddress from = loopback(2, c / 250, c % 250 + 1);
            load.clients.add(load.pool.submit(() -> load.guess(port, from, requests, next, credential)));
        }
        return load;
    }

    /** 127.{second}.{third}.{fourth}: Linux routes all of 127/8 to the loopback interface. */
    static InetAddress loopback(int second, int third, int fourth) {
        try {
            return InetAddress.getByAddress(new byte[] {127, (byte) second, (byte) third, (byte) fourth});
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(e);
        }
    }

    private Void guess(int port, InetAddress from, int requests, AtomicInteger next, IntFunction<String> credential) {
        try (LoopbackClient client = new LoopbackClient(from, port, "unused:unused")) {
            for (int i; (i = next.getAndIncrement()) < requests; ) {
                try {
                    tally.add(client.getAs(credential.apply(i), ORDINARY));
                } catch (UncheckedIOException e) {
                    tally.lost(); // the client connects again for the next guess
                }
            }
        }
        return null;
    }

    /** What came back so far. */
    Tally tally() {
        return tally;
    }

    /** Whether every client is done. */
    boolean done() {
        return clients.stream().allMatch(Future::isDone);
    }

    /** Waits until every request was answered (or lost), and returns the counts. */
    Tally await() throws Exception {
        try {
            for (Future<?> f : clients) {
                f.get(MAX_MINUTES, TimeUnit.MINUTES);
            }
            return tally;
        } finally {
            pool.shutdownNow();
        }
    }
}
