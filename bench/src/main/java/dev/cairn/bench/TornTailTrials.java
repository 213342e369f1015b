package dev.cairn.bench;

import dev.cairn.bench.BatchLoad.Batch;
import dev.cairn.bench.TornLogTail.Cut;
import dev.cairn.bench.TornLogTail.Where;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Torn log tails (issue 19; README "Full disks and torn entries"): {@code cairn serve} under load (batches of 1 and
 * 100 and statements with attachments, ack=durable) is killed with {@code kill -9} at a random moment, and before it
 * restarts its last cycle file is cut at a random byte after the last synced entry ({@link TornLogTail}), as a power
 * loss can leave it. The restart must void the torn entry, or refuse a log whose end it cannot read, in which case
 * {@code cairn log check --truncate-torn-tail} repairs it and the next start serves. Then every acknowledged batch
 * must be there whole and no other batch in part ({@link BatchAudit}), {@code cairn log check} must find the log
 * whole, and after the last trial the tables must equal a fresh replay of the log ({@link ReplayComparison}).
 */
final class TornTailTrials {
    private static final int WRITERS = 4;
    /** How long a trial waits for its load's first acknowledged batch. */
    private static final long FIRST_ACK_NANOS = 60_000_000_000L;
    /** What a server that refuses a log it cannot read to its end says (ChronicleLog's UnreadableEndException). */
    private static final String UNREADABLE_END = "cannot be read past index";
    private static final Pattern VOIDED = Pattern.compile("([0-9,]+) voided torn entries");

    private final Path data;
    private final String db;
    private final String dialect;
    private final String authorization = DurabilityTrials.basic(Invariants.CREDENTIAL);
    private final Map<String, String> settings;
    private final Map<Where, Integer> cuts = new EnumMap<>(Where.class);
    private int leftUnsynced;
    private int startedAtOnce;
    private int startedAfterRepair;
    private int checkedClean;
    private String voided = "0";
    private String failure;

    static List<InvariantRow> check(String dialect, Path dir, Options o) throws Exception {
        try (BenchDatabase db = BenchDatabase.create(dialect, Files.createDirectories(dir), "torn_tail")) {
            return new TornTailTrials(dir.resolve("data"), db.url(), dialect).run(o.intValue("trials"),
                    o.longValue("seed"));
        }
    }

    private TornTailTrials(Path data, String db, String dialect) {
        this.data = data;
        this.db = db;
        this.dialect = dialect;
        this.settings = Map.of("CAIRN_DB", db, "CAIRN_ACK", "durable");
        for (Where w : Where.values()) {
            cuts.put(w, 0);
        }
    }

    /** {@code trials} kills, cuts and restarts; the server restarted after one trial carries the next one's load. */
    private List<InvariantRow> run(int trials, long seed) throws Exception {
        SplittableRandom random = new SplittableRandom(seed);
        BatchAudit audit = new BatchAudit(authorization);
        CairnProcess server = CairnProcess.serve(data, Invariants.CREDENTIAL, settings);
        try {
            for (int t = 0; t < trials && failure == null; t++) {
                // Attachments make entries of megabytes: a kill finds more unsynced bytes to cut into.
                long started = System.nanoTime();
                BatchLoad load = new BatchLoad(server.url(), authorization, WRITERS, random.nextLong(), true, true);
                // The kill comes a random time after the first acknowledged batch, so that there is always a synced
                // entry to cut after, however slowly a loaded machine starts the load.
                if (load.acknowledgedAfter(started, started + FIRST_ACK_NANOS) < 0) {
                    load.stop();
                    failure = "trial " + (t + 1) + ": no batch acknowledged within "
                            + FIRST_ACK_NANOS / 1_000_000_000 + " s";
                    break;
                }
                Thread.sleep(300 + random.nextInt(1200));
                server.close(); // kill -9
                List<Batch> batches = load.stop();
                Cut cut = TornLogTail.cut(data.resolve("log"), random);
                cuts.merge(cut.where(), 1, Integer::sum);
                leftUnsynced += cut.unsynced() > 0 ? 1 : 0;
                server = restart();
                if (server == null) {
                    break;
                }
                try {
                    audit.audit(server.url(), batches);
                } catch (IllegalStateException e) { // the restarted server never applies the whole log
                    failure = "after restart " + (t + 1) + ": " + InvariantRow.excerpt(e.getMessage());
                    break;
                }
                logCheck();
            }
        } finally {
            if (server != null) {
                server.stop();
            }
        }
        return List.of(audit.row(dialect, "torn tail, ack=durable, " + trials + " trials of kill -9 under load (batches"
                        + " of 1 and 100, statements with a 0.5-4 MiB attachment), the log's last cycle file then cut at a"
                        + " random byte after the last synced entry"),
                restarts(trials), ReplayComparison.row(dialect, data, db, "after the torn-tail trials"));
    }

    /**
     * Starts the server on the cut log: at once, or after {@code cairn log check --truncate-torn-tail} when it refuses
     * a log whose end it cannot read. Null, with {@link #failure} set, when it does not start either way.
     */
    private CairnProcess restart() throws Exception {
        try {
            CairnProcess server = CairnProcess.serve(data, Invariants.CREDENTIAL, settings);
            startedAtOnce++;
            return server;
        } catch (IllegalStateException e) {
            if (!e.getMessage().contains(UNREADABLE_END)) {
                failure = "a restart failed: " + InvariantRow.excerpt(e.getMessage());
                return null;
            }
        }
        Path out = data.resolveSibling("truncate-torn-tail.out");
        int exit = CairnProcess.run(out, Map.of(), "log", "check", "--truncate-torn-tail", "--data", data.toString());
        if (exit != 0) {
            failure = "cairn log check --truncate-torn-tail exited " + exit + ": " + InvariantRow.excerpt(Files.readString(out));
            return null;
        }
        try {
            CairnProcess server = CairnProcess.serve(data, Invariants.CREDENTIAL, settings);
            startedAfterRepair++;
            return server;
        } catch (IllegalStateException e) {
            failure = "the start after --truncate-torn-tail failed: " + InvariantRow.excerpt(e.getMessage());
            return null;
        }
    }

    /** {@code cairn log check} of the log the idle server holds; counts a clean one, keeps the entries voided so far. */
    private void logCheck() throws Exception {
        Path out = data.resolveSibling("log-check.out");
        int exit = CairnProcess.run(out, Map.of(), "log", "check", "--data", data.toString());
        String said = Files.readString(out);
        if (exit == 0) {
            checkedClean++;
        } else if (failure == null) {
            failure = "cairn log check exited " + exit + ": " + InvariantRow.excerpt(said);
        }
        Matcher m = VOIDED.matcher(said);
        voided = m.find() ? m.group(1) : "0";
    }

    private InvariantRow restarts(int trials) {
        String observed = leftUnsynced + " kills left entries after the synced one; cuts: "
                + cuts.get(Where.INSIDE_AN_ENTRY) + " inside an entry, " + cuts.get(Where.BETWEEN_ENTRIES)
                + " between entries, " + cuts.get(Where.AFTER_THE_LAST_ENTRY) + " after the last entry, "
                + cuts.get(Where.NOTHING_SYNCED) + " with nothing synced; " + startedAtOnce + " restarted at once, "
                + startedAfterRepair + " after --truncate-torn-tail; log whole after " + checkedClean + " of " + trials
                + "; " + voided + " torn entries voided in all" + (failure == null ? "" : "; " + failure);
        return new InvariantRow(dialect, "torn tail: each restart on the cut log, then cairn log check",
                "every restart serves (at once, or after cairn log check --truncate-torn-tail when the log's end is "
                        + "unreadable), then cairn log check finds the log whole; every kill left a synced entry to "
                        + "cut after", observed,
                failure == null && checkedClean == trials && cuts.get(Where.NOTHING_SYNCED) == 0);
    }
}
