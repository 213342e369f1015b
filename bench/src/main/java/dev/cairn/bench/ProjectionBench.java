package dev.cairn.bench;

import dev.cairn.log.EventLog;
import dev.cairn.log.chronicle.ChronicleLog;
import dev.cairn.projector.Projector;
import dev.cairn.projector.ProjectorRunner;
import dev.cairn.projector.ReplayProgress;
import dev.cairn.store.Database;
import dev.cairn.store.ProjectionWriter;
import dev.cairn.store.WatermarkTracker;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Issue 4's benchmarks in one run: a log of corpus statements (one statement per event, as single POSTs leave it)
 * is projected into a fresh database per dialect and projector batch size (projection throughput), rebuilt with {@link ProjectorRunner#rebuild} (full rebuild), and the verb query's
 * plan is shown on the projected database ({@link QueryPlans}).
 *
 * <pre>
 * java $CHRONICLE_FLAGS -Xmx2g -cp bench/target/benchmarks.jar dev.cairn.bench.ProjectionBench \
 *     [--statements 100000] [--ref-share 0.1] [--batches 100,1000,5000] [--dialects sqlite,postgresql]
 *     [--per-event 1] [--sqlite-params '|?jdbc.get_generated_keys=false'] [--warmup 0] [--details true]
 * </pre>
 *
 * <p>{@code --warmup N} first projects the log's first N statements into a scratch database of the same dialect, so
 * that the measured projection runs on compiled code, as a long-running projector does; without it the first
 * projection also pays the JIT compiler's start-up work (on two cores, C2 takes ~10% of the CPU of a 10 s run).
 *
 * <p>It prints one table (projection and rebuild rate per dialect and batch, with the design's targets) and the CPU
 * each thread used; {@code --details true} adds PostgreSQL's row operations per statement and the verb query's plans.
 */
public final class ProjectionBench {
    private ProjectionBench() {
    }

    public static void main(String[] args) throws Exception {
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        Options o = Options.parse(args, "statements", "100000", "ref-share", "0.1", "batches", "100,1000,5000",
                "dialects", "sqlite,postgresql", "per-event", "1", "sqlite-params", "", "warmup", "0", "details", "true");
        long n = o.longValue("statements");
        StatementCorpus corpus = new StatementCorpus(o.doubleValue("ref-share"));
        Path dir = Files.createTempDirectory("cairn-bench-projection");
        System.out.println(Machine.describe());
        System.out.printf("Corpus: %,d statements, %.0f%% StatementRefs, %d statement(s) per log event%n", n,
                corpus.refShare() * 100, o.intValue("per-event"));
        List<String> rows = new ArrayList<>();
        List<String> cpuNotes = new ArrayList<>();
        boolean details = Boolean.parseBoolean(o.value("details"));
        try (ChronicleLog log = ChronicleLog.open(dir.resolve("log"))) {
            long t0 = System.nanoTime();
            LogLoader.append(log, corpus, 0, n, o.intValue("per-event"));
            double appendSeconds = seconds(t0);
            System.out.printf("Log written: %,d statements in %.1f s (%,.0f/s, generation and encoding included)%n%n",
                    n, appendSeconds, n / appendSeconds);

            for (String dialect : o.list("dialects")) {
                // Each SQLite URL suffix is a variant measured in the same run, e.g. a driver setting to compare.
                List<String> variants = dialect.equals("sqlite") ? List.of(o.value("sqlite-params").split("\\|", -1))
                        : List.of("");
                if (o.longValue("warmup") > 0) {
                    warmUp(log, dir, dialect, Integer.parseInt(o.list("batches").get(0)), o.longValue("warmup"));
                }
                for (String params : variants) {
                    projectAndRebuild(log, dir, dialect, o.list("batches"), n, params, details, rows, cpuNotes);
                }
            }
        } finally {
            deleteTree(dir);
        }
        System.out.println("| dialect | what | projector batch | statements | seconds | statements/s | target |");
        System.out.println("|---|---|---:|---:|---:|---:|---|");
        rows.forEach(System.out::println);
        System.out.println();
        cpuNotes.forEach(c -> System.out.println("- " + c));
    }

    /** The design's projection rate for a dialect, statements per second. */
    private static int target(String dialect) {
        return dialect.equals("sqlite") ? 30_000 : 15_000;
    }

    private static String row(String dialect, String what, int batch, long statements, double s) {
        double rate = statements / s;
        return String.format("| %s | %s | %,d | %,d | %.1f | **%,.0f** | ≥ %,d %s |", dialect, what, batch, statements, s,
                rate, target(dialect), rate >= target(dialect) ? "✅" : "❌");
    }

    private static void projectAndRebuild(EventLog log, Path dir, String dialect, List<String> batches, long n,
                                          String sqliteParams, boolean details, List<String> rows, List<String> cpuNotes) {
        String label = sqliteParams.isEmpty() ? "" : " (URL suffix " + sqliteParams + ")";
        List<String> sorted = new ArrayList<>(batches);
        sorted.sort(Comparator.comparingInt(Integer::parseInt));
        for (int i = 0; i < sorted.size(); i++) {
            int batch = Integer.parseInt(sorted.get(i));
            boolean last = i == sorted.size() - 1;
            BenchDatabase bench = BenchDatabase.create(dialect, dir, "projection_" + dialect + "_" + batch);
            String url = dialect.equals("sqlite") ? bench.url() + sqliteParams : bench.url();
            try (Database db = Database.open(url)) {
                WatermarkTracker tracker = new WatermarkTracker(db.watermark(), Clock.systemUTC());
                try (Projector projector = new Projector(log, new ProjectionWriter(db), tracker, batch)) {
                    ThreadCpu cpu = ThreadCpu.start();
                    long t0 = System.nanoTime();
                    while (projector.doWork() > 0) {
                        Thread.onSpinWait();
                    }
                    double s = seconds(t0);
                    long statements = projector.watermark().seq();
                    rows.add(row(dialect, "projection, live (Projector)" + label, batch, statements, s));
                    cpuNotes.add(dialect + label + " projection, batch " + batch + ": " + cpu.perUnit(statements, 1000));
                    if (last) {
                        rebuild(projector, db, dialect, batch, rows, cpuNotes);
                        if (details) {
                            QueryPlans.show(db, n);
                        }
                    }
                }
                if (details && dialect.equals("postgresql") && !last) {
                    sqlCalls(db); // before the rebuild and the plans add their own work to the counters
                }
            } finally {
                bench.close();
            }
        }
    }

    /** Projects the log's first {@code statements} into a scratch database, then drops it (see the class comment). */
    private static void warmUp(EventLog log, Path dir, String dialect, int batch, long statements) {
        long t0 = System.nanoTime();
        try (BenchDatabase bench = BenchDatabase.create(dialect, dir, "warmup_" + dialect);
             Database db = Database.open(bench.url());
             Projector projector = new Projector(log, new ProjectionWriter(db),
                     new WatermarkTracker(db.watermark(), Clock.systemUTC()),
                     batch)) {
            while (projector.watermark().seq() < statements && projector.doWork() > 0) {
                Thread.onSpinWait();
            }
            System.out.printf("Warm-up: %,d statements projected into a scratch %s database in %.1f s (not measured)%n%n",
                    projector.watermark().seq(), dialect, seconds(t0));
        }
    }

    private static void rebuild(Projector projector, Database db, String dialect, int batch, List<String> rows,
                                List<String> cpuNotes) {
        ThreadCpu cpu = ThreadCpu.start();
        long t0 = System.nanoTime();
        long entries = ProjectorRunner.rebuild(projector, db, new ReplayProgress() {
            @Override
            public void update(long entries, long statements) {
            }

            @Override
            public void done(long entries, long statements) {
            }
        });
        double s = seconds(t0);
        long statements = projector.watermark().seq();
        rows.add(row(dialect, "rebuild: drop every table, replay " + String.format("%,d", entries)
                + " log entries (the work of `cairn replay`)", batch, statements, s));
        cpuNotes.add(dialect + " rebuild: " + cpu.perUnit(statements, 1000));
    }

    /**
     * What the projection asked of PostgreSQL per statement, from its table statistics (flushed when the writer's
     * session ended): rows inserted and updated, and index lookups. The projection writes row by row, so each is
     * about one round trip.
     */
    private static void sqlCalls(Database db) {
        try (Connection c = DriverManager.getConnection(db.url()); java.sql.Statement st = c.createStatement()) {
            Thread.sleep(1500);
            long statements = db.watermark().seq();
            try (ResultSet rs = st.executeQuery("SELECT relname, n_tup_ins, n_tup_upd + n_tup_del, coalesce(idx_scan, 0)"
                    + " FROM pg_stat_user_tables WHERE n_tup_ins + n_tup_upd + n_tup_del + coalesce(idx_scan, 0) > 0"
                    + " ORDER BY relname")) {
                StringBuilder b = new StringBuilder("PostgreSQL work per statement (pg_stat_user_tables / statements):");
                double total = 0;
                while (rs.next()) {
                    double ins = rs.getLong(2) / (double) statements;
                    double upd = rs.getLong(3) / (double) statements;
                    double idx = rs.getLong(4) / (double) statements;
                    total += ins + upd + idx;
                    b.append(String.format(" %s %.2f ins, %.2f upd/del, %.2f index lookups;", rs.getString(1), ins, upd, idx));
                }
                System.out.println(b.append(String.format(" total %.1f row operations per statement", total)));
                System.out.println();
            }
        } catch (SQLException | InterruptedException e) {
            System.out.println("(no PostgreSQL statistics: " + e.getMessage() + ")");
        }
    }

    static double seconds(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e9;
    }

    static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
