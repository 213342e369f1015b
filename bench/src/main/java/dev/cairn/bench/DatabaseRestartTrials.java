package dev.cairn.bench;

import dev.cairn.bench.BatchLoad.Batch;
import dev.cairn.store.PostgresServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * The PostgreSQL server under {@code cairn serve} restarts while writers post batches (issue 19): each write is
 * answered 200 or 503 (not stored), {@code /health/ready} says not ready while the database is down and ready again
 * after without a restart of Cairn, and every acknowledged batch is stored whole, none in part. Then the database
 * stays down for longer than {@code --visible-timeout}: {@code ack=visible} writes get a bounded answer, a success
 * marked {@code X-Cairn-Ack: durable}, and are readable once it is back. The tables must equal a replay after.
 *
 * <p>The PostgreSQL server is the check's own ({@link PostgresServer}), never the shared one. SQLite has no server to
 * restart (the database is a file the process opens itself; a killed process is the durability check), so the
 * group gives no rows there rather than a row that could not fail.
 */
final class DatabaseRestartTrials {
    private static final int WRITERS = 4;
    private static final long DOWN_MILLIS = 3_000;
    /** Cairn's default: a restart shorter than it lets visible writes wait it out, the long outage does not. */
    private static final long VISIBLE_TIMEOUT_MILLIS = 5_000;
    /**
     * What a bounded answer may take past the visible timeout: the ring, the append, the answer; a credential due for
     * its check against the database waits for the connection (3 s) instead, and gets 503.
     */
    private static final long ANSWER_SLACK_MILLIS = 3_000;
    private static final long LONG_DOWN_MILLIS = VISIBLE_TIMEOUT_MILLIS + 3_000;
    private static final long LOAD_MILLIS = 1_000;
    private static final long READY_MILLIS = 30_000;
    private static final long SETTLE_NANOS = 1_000_000_000;
    private static final String UNREACHABLE = "projector: database unreachable";

    private final PostgresServer postgres;
    private final String dialect;
    private final String authorization = DurabilityTrials.basic(Invariants.CREDENTIAL);
    private final BatchAudit audit = new BatchAudit(authorization);
    private final List<Integer> statuses = new ArrayList<>();
    private final List<Long> readyAgain = new ArrayList<>();
    /** Per outage, the first reason /health/ready gave for the unreachable database, or null. */
    private final List<String> downReasons = new ArrayList<>();
    private long unanswered;

    private DatabaseRestartTrials(PostgresServer postgres, String dialect) {
        this.postgres = postgres;
        this.dialect = dialect;
    }

    /** {@code --trials} restarts of the database under load, then one long outage; no rows on SQLite. */
    static List<InvariantRow> check(String dialect, Path dir, Options o) throws Exception {
        if (!dialect.equals("postgresql")) {
            return List.of();
        }
        try (PostgresServer postgres = PostgresServer.start()) {
            return new DatabaseRestartTrials(postgres, dialect).run(dir.resolve("data"), o.intValue("trials"),
                    o.longValue("seed"));
        }
    }

    private List<InvariantRow> run(Path data, int trials, long seed) throws Exception {
        SplittableRandom random = new SplittableRandom(seed);
        Map<String, String> settings = Map.of("CAIRN_DB", postgres.url(), "CAIRN_VISIBLE_TIMEOUT",
                String.valueOf(VISIBLE_TIMEOUT_MILLIS));
        InvariantRow longOutage;
        try (CairnProcess server = CairnProcess.serve(data, Invariants.CREDENTIAL, settings)) {
            for (int t = 0; t < trials; t++) {
                outage(server, random.nextLong(), DOWN_MILLIS);
            }
            longOutage = bounded(outage(server, random.nextLong(), LONG_DOWN_MILLIS));
            server.stop();
        }
        String what = trials + " restarts (down " + DOWN_MILLIS / 1000 + " s) and one outage of "
                + LONG_DOWN_MILLIS / 1000 + " s of the PostgreSQL server under load";
        return List.of(answers(what), readiness(trials + 1),
                audit.row(dialect, "database restart, " + what + ": every batch read back"), longOutage,
                ReplayComparison.row(dialect, data, postgres.url(), "after the database restarts"));
    }

    /** The batches sent around one outage, and when ({@link System#nanoTime}) the database was down and back. */
    private record Outage(List<Batch> batches, long down, long up) {
    }

    /** Takes the database down for {@code millis} under load, then reads back every batch once it is ready again. */
    private Outage outage(CairnProcess server, long seed, long millis) throws Exception {
        List<Batch> batches;
        long down;
        long up;
        try (HealthWatch health = new HealthWatch(server);
             BatchLoad load = new BatchLoad(server.url(), authorization, WRITERS, seed, false)) {
            Thread.sleep(LOAD_MILLIS);
            postgres.stop();
            down = System.nanoTime();
            Thread.sleep(millis);
            up = System.nanoTime();
            postgres.startAgain();
            readyAgain.add(health.readyAfter(System.nanoTime(), READY_MILLIS));
            Thread.sleep(LOAD_MILLIS / 2);
            batches = load.stop();
            List<HealthWatch.Sample> whileDown = health.between(down, up);
            unanswered += whileDown.stream().filter(s -> s.status() < 0).count();
            downReasons.add(whileDown.stream().filter(s -> s.status() == 503 && s.reason().startsWith(UNREACHABLE))
                    .map(HealthWatch.Sample::reason).findFirst().orElse(null));
        }
        batches.forEach(b -> statuses.add(b.status()));
        audit.audit(server.url(), batches);
        return new Outage(batches, down, up);
    }

    private InvariantRow answers(String what) {
        StatusCounts counts = StatusCounts.of(statuses);
        return new InvariantRow(dialect, "database restart, " + what + ": answers to writes",
                "200, or 503 (not stored); never a 500 or no answer", counts.toString(),
                counts.of(200) > 0 && counts.only(Set.of(200, 503)));
    }

    private InvariantRow readiness(int outages) {
        long told = downReasons.stream().filter(r -> r != null).count();
        boolean ready = readyAgain.size() == outages && !readyAgain.contains(-1L);
        String example = downReasons.stream().filter(r -> r != null).findFirst().map(r -> " ('" + r.substring(0,
                Math.min(60, r.length())) + "...')").orElse("");
        return new InvariantRow(dialect, "database restart: /health/ready of the same cairn serve, in each of "
                + outages + " outages", "answered while down, 503 '" + UNREACHABLE + "'; 200 within "
                + READY_MILLIS / 1000 + " s of the database's return, no restart of Cairn",
                "503 '" + UNREACHABLE + "' while down in " + told + " of " + outages + example + ", " + unanswered
                        + " unanswered; ready again after " + (ready ? "at most " + readyAgain.stream()
                        .mapToLong(Long::longValue).max().orElse(-1) + " ms" : readyAgain + " ms (-1: not in time)"),
                told == outages && unanswered == 0 && ready);
    }

    /**
     * The long outage: every answer bounded, and a success answered while the database was down marked durable. A
     * write the projector applied just before the stop may be answered (visible) a moment after it, so "while down"
     * starts {@link #SETTLE_NANOS} after the stop.
     */
    private InvariantRow bounded(Outage o) {
        long slowest = o.batches().stream().mapToLong(Batch::millis).max().orElse(-1);
        List<Batch> whileDown = o.batches().stream().filter(b -> b.answeredNanos() - o.down() > SETTLE_NANOS
                && o.up() - b.answeredNanos() > 0).toList();
        long durable = whileDown.stream().filter(b -> b.acknowledged() && "durable".equals(b.ack())).count();
        long unmarked = whileDown.stream().filter(b -> b.acknowledged() && !"durable".equals(b.ack())).count();
        StatusCounts counts = StatusCounts.of(whileDown.stream().map(Batch::status).toList());
        long bound = VISIBLE_TIMEOUT_MILLIS + ANSWER_SLACK_MILLIS;
        return new InvariantRow(dialect, "database down " + LONG_DOWN_MILLIS / 1000 + " s (visible-timeout "
                + VISIBLE_TIMEOUT_MILLIS / 1000 + " s), ack=visible writers",
                "every answer within " + bound + " ms; answered while down: 200 with X-Cairn-Ack: durable (at "
                        + "least one) or 503 (not stored); all acknowledged readable after (row above)",
                "slowest answer " + slowest + " ms; answered while down: " + counts + "; " + durable
                        + " × X-Cairn-Ack: durable, " + unmarked + " 200 without it",
                slowest >= 0 && slowest <= bound && durable > 0 && unmarked == 0 && counts.only(Set.of(200, 503)));
    }
}
