package dev.cairn.bench;

import dev.cairn.bench.GuessingLoad.Tally;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Authentication under attack (issue 19), against a {@code cairn serve} of its own: what password guessing costs
 * the server, in CPU time read from /proc, against what ordinary requests cost, and whether the clients it verified
 * before notice. The JIT compiler's CPU is counted apart ({@link ProcessCpu.Sample#withoutCompilerNanos}): a server
 * this young compiles each path it meets for the first time, the refusals' too, once. The bounds are the README's
 * ("Security notes"): a secret not remembered costs one key derivation (PBKDF2) on threads of their own, half the
 * cores; failed verifications are counted per client address and per key, past {@value #BURST} one more a second,
 * beyond that 429 with Retry-After without a derivation; with more than {@value #QUEUE} verifications waiting, 503
 * with Retry-After; a key and secret this process verified before are never limited, however long their client was
 * idle.
 */
final class PasswordGuessing {
    /** The README's bounds: failed verifications an address or a key may have at once, then one a second. */
    static final int BURST = 10;
    static final double REFILL_SECONDS = 1;
    /** Verifications that may wait for a thread before 503. */
    static final int QUEUE = 32;
    /** The threads that derive keys: half the cores (the server runs on this machine). */
    static final int VERIFIERS = Math.max(1, Runtime.getRuntime().availableProcessors() / 2);
    /** What a request refused without a derivation may cost, as a multiple of an ordinary request's CPU. */
    static final double REFUSAL_BOUND = 2;
    /** Slack on the derivations' CPU measured alone, for a loaded machine. */
    static final double DERIVATION_SLACK = 1.25;
    /**
     * The busy client's median during each attack may be this multiple of beside an ordinary client, plus the
     * margin, which a client that waits for derivations (or for an I/O thread a derivation blocks) exceeds. Its p99
     * is shown, not held: on a machine shared with other work (and a PostgreSQL server shared with it), the machine's
     * stalls set it.
     */
    static final double P50_FACTOR = 2;
    static final double P50_MARGIN_MILLIS = 1;
    /** A remembered verification is used for 5 s after it was last confirmed; an idle client waits past that. */
    private static final long IDLE_NANOS = TimeUnit.MILLISECONDS.toNanos(5_500);
    /** Unknown keys verified one after another to measure what one key derivation costs the server. */
    private static final int DERIVATIONS = 5;
    private static final String BUSY = "busy-client:busy-client-secret-1";
    private static final String IDLE = "idle-client:idle-client-secret-1";
    /** Idle as long as the others, back just before the attacks: the server's confirming path runs compiled then. */
    private static final String WARM = "warm-client:warm-client-secret-1";

    private final String dialect;
    private final CairnProcess server;
    private final ProcessCpu cpu;
    private final int attempts;
    private final int guessers;
    private final BusyClient busy;

    private PasswordGuessing(String dialect, CairnProcess server, int attempts, int guessers) {
        this.dialect = dialect;
        this.server = server;
        this.cpu = new ProcessCpu(server.pid(), "cairn-verify-");
        this.attempts = attempts;
        this.guessers = guessers;
        this.busy = new BusyClient(server.port(), BUSY);
    }

    /** The rows of the "authentication" group: {@code --attempts} requests in each attack. */
    static List<InvariantRow> check(String dialect, Path dir, Options o) throws Exception {
        int guessers = o.intValue("guessers");
        if (guessers <= QUEUE + VERIFIERS) { // fewer could all wait for a verification: no 503 would be due
            throw new IllegalArgumentException("--guessers must be more than " + (QUEUE + VERIFIERS));
        }
        try (BenchDatabase db = BenchDatabase.create(dialect, Files.createDirectories(dir), "authentication");
             CairnProcess server = CairnProcess.serve(dir.resolve("data"), Invariants.CREDENTIAL,
                     Map.of("CAIRN_DB", db.url()))) {
            for (String credential : List.of(BUSY, IDLE, WARM)) {
                String[] ks = credential.split(":", 2);
                CairnProcess.credentials(dir, db.url(), "create", "--key", ks[0], "--secret", ks[1], "--scope",
                        "statements/read");
            }
            PasswordGuessing g = new PasswordGuessing(dialect, server, o.intValue("attempts"), guessers);
            try {
                return g.run();
            } finally {
                g.busy.close();
            }
        }
    }

    private List<InvariantRow> run() throws Exception {
        // Two clients verify, then stay idle past the recheck: the owner of the key the wrong secrets are for, and
        // another who comes back while the verification queue is full.
        try (LoopbackClient owner = new LoopbackClient(server.port(), Invariants.CREDENTIAL);
             LoopbackClient idle = new LoopbackClient(server.port(), IDLE);
             LoopbackClient warm = new LoopbackClient(server.port(), WARM);
             LoopbackClient ordinary = new LoopbackClient(GuessingLoad.loopback(0, 0, 4), server.port(), BUSY)) {
            ok(owner.get(GuessingLoad.ORDINARY));
            ok(idle.get(GuessingLoad.ORDINARY));
            ok(warm.get(GuessingLoad.ORDINARY));
            long idleSince = System.nanoTime();
            busy.start(); // verified now, so that no phase measures its derivation
            for (int i = 0; i < attempts; i++) { // the JIT compiles the request path before anything is measured
                ok(ordinary.get(GuessingLoad.ORDINARY));
            }
            busy.stop();
            double derivation = derivationNanos(5);
            // Twice the attempts, so that the busy client's latencies beside it are as many as during an attack.
            int ordinaryRequests = 2 * attempts;
            Phase base = phase(() -> {
                for (int i = 0; i < ordinaryRequests; i++) {
                    ok(ordinary.get(GuessingLoad.ORDINARY));
                }
                return null;
            });
            double perOrdinary = base.cpu.withoutCompilerNanos() / (double) (ordinaryRequests + base.probed.count());
            awaitIdle(idleSince);
            for (int i = 0; i < 50; i++) { // its first request is confirmed, the rest remembered again
                ok(warm.get(GuessingLoad.ORDINARY));
            }
            IdleReturn[] returns = new IdleReturn[2];
            String ownerKey = Invariants.CREDENTIAL.substring(0, Invariants.CREDENTIAL.indexOf(':'));
            Phase wrong = phase(() -> {
                GuessingLoad load = GuessingLoad.sequential(server.port(), GuessingLoad.loopback(0, 0, 2), attempts,
                        i -> ownerKey + ":wrong-secret-" + i);
                returns[0] = IdleReturn.during(load, 429, owner);
                return load.await();
            });
            double afterWrong = derivationNanos(6);
            Phase unknown = phase(() -> GuessingLoad.sequential(server.port(), GuessingLoad.loopback(0, 0, 3), attempts,
                    i -> "no-such-key-" + i + ":secret-" + i).await());
            double afterUnknown = derivationNanos(7);
            Phase many = phase(() -> {
                GuessingLoad load = GuessingLoad.parallel(server.port(), guessers, attempts,
                        i -> "no-such-key-" + (attempts + i) + ":secret-" + i);
                returns[1] = IdleReturn.during(load, 503, idle);
                return load.await();
            });
            Costs costs = new Costs(attempts, perOrdinary, derivation);
            return List.of(
                    oneAddress(String.format("%,d GETs in a row from 1 address with wrong secrets for a known key",
                            attempts), wrong, costs.derivingAlso(afterWrong)),
                    oneAddress(String.format("%,d GETs in a row from 1 address with unknown keys", attempts), unknown,
                            costs.derivingAlso(afterUnknown)),
                    manyAddresses(String.format("%,d GETs with unknown keys from %d addresses at once", attempts,
                            guessers), many, costs),
                    busyClient(base, wrong, unknown, many),
                    idleReturns(returns[0], returns[1], derivation));
        }
    }

    /** What the server spends on an ordinary request and on one key derivation, in CPU nanoseconds. */
    private record Costs(int attempts, double ordinary, double derivation) {
        /**
         * These costs with a derivation measured alone again, right after a phase: the larger of the two counts. A
         * shared machine's slow spell (the derivations of one phase took 1.9× the CPU of the probe before it) then
         * shows in the probe beside the phase too, while a derivation that costs more than one alone still does not.
         */
        Costs derivingAlso(double derivationAfter) {
            return new Costs(attempts, ordinary, Math.max(derivation, derivationAfter));
        }

        /** The CPU a phase's attack may cost besides its derivations: the refusals, and the busy client's requests. */
        double refusals(Phase p) {
            return attempts * REFUSAL_BOUND * ordinary + p.probed.count() * ordinary + 2 * ProcessCpu.TICK_NANOS;
        }

        String perRequest(Phase p) {
            double each = p.cpu.withoutCompilerNanos() / (double) attempts;
            return millis(each) + " per request = " + fmt(each / ordinary) + "× an ordinary request's "
                    + millis(ordinary);
        }
    }

    /**
     * One address guessing in a row: per address and per key, {@value #BURST} failures and one a second are
     * verified (401, a key derivation each), the rest refused with 429 and Retry-After without a derivation.
     */
    private InvariantRow oneAddress(String check, Phase p, Costs c) {
        int verified = p.tally.count(401);
        int allowed = BURST + (int) Math.ceil(p.wallNanos / 1e9 / REFILL_SECONDS);
        double bound = DERIVATION_SLACK * verified * c.derivation + c.refusals(p);
        boolean holds = p.tally.other(401, 429) == 0 && p.tally.withoutRetryAfter() == 0 && verified <= allowed
                && p.cpu.withoutCompilerNanos() <= bound;
        return new InvariantRow(dialect, check, "only 401 and 429 with Retry-After; ≤ " + BURST
                + " + 1 a second 401s (a key derivation each), the rest refused without one: server CPU (the JIT "
                + "compiler's apart) ≤ those derivations + " + fmt(REFUSAL_BOUND) + "× an ordinary request's per request",
                p.tally + " in " + seconds(p.wallNanos) + " (" + allowed + " 401s allowed), " + retryAfter(p.tally)
                        + "; server CPU " + cpu(p) + " (bound " + seconds(bound) + ") = "
                        + c.perRequest(p) + "; " + verified + " derivations took " + seconds(p.cpu.threadsNanos())
                        + " (one alone " + millis(c.derivation) + ")", holds);
    }

    /**
     * Guesses from many addresses at once, each within its address's and key's allowance: what bounds them is the
     * verification threads (half the cores) and their queue ({@value #QUEUE} waiting, then 503 with Retry-After),
     * so the server's CPU stays under those threads' share of the attack's time plus cheap refusals.
     */
    private InvariantRow manyAddresses(String check, Phase p, Costs c) {
        double derivations = p.cpu.threadsNanos();
        double bound = VERIFIERS * (double) p.wallNanos + c.refusals(p);
        boolean holds = p.tally.other(401, 429, 503) == 0 && p.tally.withoutRetryAfter() == 0
                && p.tally.count(503) > 0 && p.cpu.threads() <= VERIFIERS
                && derivations <= VERIFIERS * (double) p.wallNanos + 2 * ProcessCpu.TICK_NANOS
                && p.cpu.withoutCompilerNanos() <= bound;
        return new InvariantRow(dialect, check, "401, and 503 with Retry-After past " + QUEUE
                + " waiting; key derivations on at most half the cores (" + VERIFIERS + " of "
                + Runtime.getRuntime().availableProcessors() + ") for the attack's time: server CPU (the JIT "
                + "compiler's apart) ≤ that + " + fmt(REFUSAL_BOUND) + "× an ordinary request's per request",
                p.tally + " in " + seconds(p.wallNanos) + ", " + retryAfter(p.tally) + "; derivations took "
                        + seconds(derivations) + " on " + p.cpu.threads() + " thread(s) = " + fmt(derivations
                        / p.wallNanos) + " cores; server CPU " + cpu(p) + " (bound "
                        + seconds(bound) + ") = " + c.perRequest(p), holds);
    }

    /** The busy client's latency during each attack against beside an ordinary client; a refusal shows as not 200. */
    private InvariantRow busyClient(Phase base, Phase... attacks) {
        double p50 = base.probed.p(50);
        double p99 = base.probed.p(99);
        boolean holds = base.probed.failed() == 0 && base.probed.count() > 0;
        List<String> each = new ArrayList<>();
        int requests = 0;
        int failed = 0;
        for (Phase a : attacks) {
            BusyClient.Probed d = a.probed;
            holds &= d.count() > 0 && d.failed() == 0 && d.p(50) <= P50_FACTOR * p50 + P50_MARGIN_MILLIS;
            each.add(fmt(d.p(50)) + " / " + fmt(d.p(99)));
            requests += d.count();
            failed += d.failed();
        }
        return new InvariantRow(dialect, "a verified client's GET every " + BusyClient.INTERVAL_MILLIS
                + " ms during each attack, against beside an ordinary client",
                "all 200; p50 ≤ " + fmt(P50_FACTOR) + "× + " + fmt(P50_MARGIN_MILLIS) + " ms of that beside the "
                        + "ordinary client (p99 shown: this machine's stalls set it)",
                "beside the ordinary client p50 / p99 " + fmt(p50) + " / " + fmt(p99) + " ms (" + base.probed.count()
                        + " GETs); during each attack " + String.join(", ", each) + " ms (" + requests + " GETs, "
                        + failed + " not 200)", holds);
    }

    /**
     * Clients verified before and idle past the recheck, back while the attacks go on: confirming derives nothing and
     * does not queue behind the derivations. A client that queued would wait for the derivations ahead of it (the
     * queue holds 32: over a second) or get 503; three derivations' time leaves room for the scheduling of a machine
     * the attack keeps busy (AuthenticationEdgeTest counts the derivations themselves, in process).
     */
    private InvariantRow idleReturns(IdleReturn owner, IdleReturn other, double derivation) {
        double bound = 3 * derivation;
        boolean holds = owner.fine(bound) && other.fine(bound);
        return new InvariantRow(dialect, "clients verified before, idle past the 5 s recheck, back mid-attack: the "
                + "owner of the key the wrong secrets are for, once they get 429; another, once guesses get 503",
                "200, without queueing behind key derivations (< 3 derivations, " + millis(bound) + ")",
                "the owner: " + owner + "; the other: " + other, holds);
    }

    /** What a client verified before and then idle got when it came back during an attack. */
    record IdleReturn(int status, String answer, long nanos) {
        /** Waits until {@code load} got a {@code status}, then sends {@code client}'s GET. */
        static IdleReturn during(GuessingLoad load, int status, LoopbackClient client) throws InterruptedException {
            while (load.tally().count(status) == 0) {
                if (load.done()) {
                    return new IdleReturn(-1, "never sent: the attack got no " + status, 0);
                }
                Thread.sleep(1);
            }
            long t0 = System.nanoTime();
            LoopbackClient.Response r = client.get(GuessingLoad.ORDINARY);
            long nanos = System.nanoTime() - t0;
            return new IdleReturn(r.status(), r.status() == 200 ? "" : r.text(), nanos);
        }

        boolean fine(double derivationNanos) {
            return status == 200 && nanos < derivationNanos;
        }

        @Override
        public String toString() {
            return status < 0 ? answer : status + " in " + millis(nanos) + (answer.isEmpty() ? "" : " " + answer);
        }
    }

    /** The server's CPU in a phase, apart from the JIT compiler's, which is shown beside it. */
    private static String cpu(Phase p) {
        return seconds(p.cpu.withoutCompilerNanos()) + " + the JIT compiler's " + seconds(p.cpu.compilerNanos());
    }

    private static String retryAfter(Tally t) {
        return t.withoutRetryAfter() == 0 ? "every refusal with Retry-After"
                : t.withoutRetryAfter() + " refusals without Retry-After";
    }

    static String fmt(double v) {
        return String.format(v >= 10 ? "%.0f" : "%.2f", v);
    }

    static String millis(double nanos) {
        return fmt(nanos / 1e6) + " ms";
    }

    static String seconds(double nanos) {
        return String.format("%.2f s", nanos / 1e9);
    }

    /** One phase of the run: what the server's CPU and the busy client saw while {@code load} ran. */
    record Phase(Tally tally, long wallNanos, ProcessCpu.Sample cpu, BusyClient.Probed probed) {
    }

    private interface Load {
        Tally run() throws Exception;
    }

    private Phase phase(Load load) throws Exception {
        BusyClient.Probed probed = busy.start();
        ProcessCpu.Sample before = cpu.sample();
        long t0 = System.nanoTime();
        Tally tally = load.run();
        long wall = System.nanoTime() - t0;
        ProcessCpu.Sample used = cpu.sample().minus(before);
        busy.stop();
        return new Phase(tally, wall, used, probed);
    }

    /**
     * The server CPU of one key derivation: unknown keys from an address of their own (127.0.0.{@code fourth}, each
     * probe its own, so that none meets the address's limit), one after another.
     */
    private double derivationNanos(int fourth) throws Exception {
        Phase p = phase(() -> GuessingLoad.sequential(server.port(), GuessingLoad.loopback(0, 0, fourth), DERIVATIONS,
                i -> "derivation-" + fourth + "-" + i + ":secret-" + i).await());
        if (p.tally.count(401) != DERIVATIONS) {
            throw new IllegalStateException("the derivation probe expected " + DERIVATIONS + " × 401: " + p.tally);
        }
        return p.cpu.threadsNanos() / (double) DERIVATIONS;
    }

    private static void awaitIdle(long since) throws InterruptedException {
        long left;
        while ((left = since + IDLE_NANOS - System.nanoTime()) > 0) {
            Thread.sleep(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
        }
    }

    private static void ok(LoopbackClient.Response r) {
        if (r.status() != 200) {
            throw new IllegalStateException("a verified client's GET got " + r.status() + ": " + r.text());
        }
    }
}
