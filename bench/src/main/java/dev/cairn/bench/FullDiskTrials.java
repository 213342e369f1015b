package dev.cairn.bench;

import dev.cairn.bench.BatchLoad.Batch;
import dev.cairn.store.SmallFilesystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * The data directory's filesystem fills up under load (issue 19): {@code cairn serve} has its data directory (the log,
 * and the SQLite database on SQLite) on a small tmpfs, which another file fills while writers post batches
 * ({@link BatchLoad}); while it is full every write must be refused with 507 (never a 500 or no answer), and once the
 * file is deleted the same process must take writes again. Then every batch is read back ({@link BatchAudit}),
 * {@code cairn log check} must find the log whole, and after the last trial a replay must give the live tables
 * ({@link ReplayComparison}).
 */
final class FullDiskTrials {
    private static final int WRITERS = 4;
    private static final long LOAD_MILLIS = 1_000;
    private static final long HOLD_MILLIS = 2_000;
    private static final long RESUME_MILLIS = 30_000;
    /**
     * How long after the disk is full a write may still be taken: the sequencer reads the free space every 5 ms, and a
     * write it decided just before is appended into blocks the log reserved ahead (that is no torn entry).
     */
    private static final long GRACE_NANOS = 100_000_000;

    /**
     * The tmpfs and the disk-reserve, as the README sizes the reserve: above what the projector still writes on the
     * disk once the log stops growing. With SQLite that includes its write-ahead log, which grows up to 256 MB
     * between checkpoints; with PostgreSQL only the log is on this disk. On SQLite the tmpfs also leaves room for
     * the second database the replay builds at the end (20 trials leave ~100,000 statements: ~140 MB of log and
     * ~300 MB of database, twice); each fill takes whatever is free, so a larger tmpfs only makes it longer.
     */
    private record Sizing(int megabytes, long reserve) {
        static Sizing of(String dialect) {
            return dialect.equals("sqlite") ? new Sizing(2048, 320L << 20) : new Sizing(256, 16L << 20);
        }
    }

    private final SmallFilesystem fs;
    private final Sizing sizing;
    private final String db;
    private final String dialect;
    private final String authorization = DurabilityTrials.basic(Invariants.CREDENTIAL);

    private FullDiskTrials(SmallFilesystem fs, Sizing sizing, String db, String dialect) {
        this.fs = fs;
        this.sizing = sizing;
        this.db = db;
        this.dialect = dialect;
    }

    /** {@code --trials} fills of the data directory's filesystem under load. */
    static List<InvariantRow> check(String dialect, Path dir, Options o) throws Exception {
        Sizing sizing = Sizing.of(dialect);
        try (SmallFilesystem fs = SmallFilesystem.mount(dir.resolve("data"), sizing.megabytes());
             BenchDatabase db = BenchDatabase.create(dialect, fs.dir(), "full_disk")) {
            return new FullDiskTrials(fs, sizing, db.url(), dialect).run(o.intValue("trials"), o.longValue("seed"));
        }
    }

    private List<InvariantRow> run(int trials, long seed) throws Exception {
        SplittableRandom random = new SplittableRandom(seed);
        BatchAudit audit = new BatchAudit(authorization);
        // The data directory is the mount itself, so the server's output and the replay's land beside it, not on it.
        Path data = fs.dir();
        Map<String, String> settings = Map.of("CAIRN_DB", db, "CAIRN_DISK_RESERVE", String.valueOf(sizing.reserve()));
        List<Integer> statuses = new ArrayList<>();
        List<Integer> whileFull = new ArrayList<>();
        List<HealthWatch.Sample> healthWhileFull = new ArrayList<>();
        List<Long> resumed = new ArrayList<>();
        List<Long> ready = new ArrayList<>();
        List<Integer> logChecks = new ArrayList<>();
        long freeWhileFull = 0;
        for (int t = 0; t < trials; t++) {
            try (CairnProcess server = CairnProcess.serve(data, Invariants.CREDENTIAL, settings)) {
                List<Batch> batches;
                try (HealthWatch health = new HealthWatch(server);
                     BatchLoad load = new BatchLoad(server.url(), authorization, WRITERS, random.nextLong(), false)) {
                    Thread.sleep(LOAD_MILLIS);
                    Path filler = fs.fill("filler");
                    long full = System.nanoTime() + GRACE_NANOS;
                    freeWhileFull = Math.max(freeWhileFull, fs.usable());
                    Thread.sleep(HOLD_MILLIS);
                    long freed = System.nanoTime();
                    Files.delete(filler);
                    long resumedNanos = load.acknowledgedAfter(freed, freed + RESUME_MILLIS * 1_000_000);
                    resumed.add(resumedNanos < 0 ? -1 : resumedNanos / 1_000_000);
                    ready.add(health.readyAfter(freed, RESUME_MILLIS));
                    Thread.sleep(LOAD_MILLIS / 2);
                    batches = load.stop();
                    healthWhileFull.addAll(health.between(full, freed));
                    for (Batch b : batches) {
                        statuses.add(b.status());
                        if (b.within(full, freed)) {
                            whileFull.add(b.status());
                        }
                    }
                }
                audit.audit(server.url(), batches);
                server.stop();
            }
            logChecks.add(CairnProcess.run(data.resolveSibling("log-check-" + t + ".out"), Map.of(), "log", "check",
                    "--data", data.toString()));
        }
        String what = trials + " trials of filling the data directory's filesystem (" + sizing.megabytes()
                + " MB tmpfs, disk-reserve " + (sizing.reserve() >> 20) + " MB) under load, held full " + HOLD_MILLIS / 1000 + " s";
        return List.of(refusals(what, freeWhileFull, StatusCounts.of(statuses), StatusCounts.of(whileFull),
                        healthWhileFull),
                resumption(resumed, ready),
                audit.row(dialect, "full disk, " + what + ": every batch read back"),
                logCheck(logChecks),
                ReplayComparison.row(dialect, data, db, "after the full-disk trials"));
    }

    /** @param free the most bytes left free by a fill */
    private InvariantRow refusals(String what, long free, StatusCounts all, StatusCounts whileFull,
                                  List<HealthWatch.Sample> health) {
        long diskReasons = health.stream().filter(s -> s.status() == 503 && s.reason().startsWith("disk below reserve"))
                .count();
        return new InvariantRow(dialect, "full disk, " + what + ": answers to writes",
                "writes sent while full: only 507 (never a 500 or no answer); all others 200 or 507; /health/ready "
                        + "503 'disk below reserve' while full",
                "while full (at most " + free / 1024 + " KB free): " + whileFull + "; in all: " + all
                        + "; /health/ready while full: " + diskReasons + " of " + health.size()
                        + " answers 503 'disk below reserve'",
                whileFull.total() > 0 && whileFull.only(Set.of(507)) && all.only(Set.of(200, 507))
                        && !health.isEmpty() && diskReasons == health.size());
    }

    private InvariantRow resumption(List<Long> resumed, List<Long> ready) {
        boolean all = !resumed.contains(-1L) && !ready.contains(-1L);
        return new InvariantRow(dialect, "full disk: the filling file deleted, the same process goes on (no restart)",
                "writes acknowledged again and /health/ready 200 within " + RESUME_MILLIS / 1000 + " s, every trial",
                all ? "writes acknowledged again after at most " + max(resumed) + " ms, ready after at most "
                        + max(ready) + " ms (" + resumed.size() + " trials)"
                        : "acknowledged again after " + resumed + " ms, ready after " + ready + " ms (-1: not within "
                        + RESUME_MILLIS / 1000 + " s)", all && !resumed.isEmpty());
    }

    private InvariantRow logCheck(List<Integer> exits) {
        long whole = exits.stream().filter(e -> e == 0).count();
        return new InvariantRow(dialect, "full disk: cairn log check after each trial, the server stopped",
                "exit 0 (the log is whole) every time", "exit 0 after " + whole + " of " + exits.size() + " trials"
                + (whole == exits.size() ? "" : "; exit codes " + exits), !exits.isEmpty() && whole == exits.size());
    }

    private static long max(List<Long> values) {
        return values.stream().mapToLong(Long::longValue).max().orElse(-1);
    }
}
