package dev.cairn.bench;

import dev.cairn.log.EventLog;
import dev.cairn.log.chronicle.ChronicleLog;
import dev.cairn.projector.Projector;
import dev.cairn.store.Database;
import dev.cairn.store.ProjectionWriter;
import dev.cairn.store.WatermarkTracker;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;

/**
 * A stored data set for the HTTP benchmarks: a log of the first {@code size} corpus statements (100 to an event, as
 * an importer's batches leave it, appended straight to the log) and a database of one dialect projected from it by
 * a {@link Projector} before any server starts (so the sequencer finds nothing unprojected to hold in memory). Both
 * are kept under a base directory (and on the PostgreSQL server) with a marker file, so later runs reuse them.
 */
final class Dataset {
    static final int PER_EVENT = 100;
    static final int PROJECTOR_BATCH = 5000;

    private final Path base;
    private final String dialect;
    private final StatementCorpus corpus;
    private final long size;

    Dataset(Path base, String dialect, double refShare, long size) {
        this.base = base;
        this.dialect = dialect;
        this.corpus = new StatementCorpus(refShare);
        this.size = size;
    }

    String dialect() {
        return dialect;
    }

    StatementCorpus corpus() {
        return corpus;
    }

    long size() {
        return size;
    }

    /** Short name, e.g. {@code r10-100000}: 10% StatementRefs, 100,000 statements. */
    String name() {
        return "r" + Math.round(corpus.refShare() * 100) + "-" + size;
    }

    Path logDir() {
        return base.resolve("log-" + name());
    }

    BenchDatabase database(boolean fresh) {
        return BenchDatabase.persistent(dialect, base, dialect + "_" + name().replace('-', '_'), fresh);
    }

    /** Builds what is missing: the log, then the projected database; prints how long each took. */
    void ensure() throws IOException {
        Files.createDirectories(base);
        Path logReady = base.resolve(name() + ".log.ready");
        if (!Files.exists(logReady)) {
            if (Files.exists(logDir())) {
                ProjectionBench.deleteTree(logDir());
            }
            long t0 = System.nanoTime();
            try (EventLog log = ChronicleLog.open(logDir())) {
                LogLoader.append(log, corpus, 0, size, PER_EVENT);
            }
            double s = ProjectionBench.seconds(t0);
            Files.writeString(logReady, String.format("%d statements appended in %.1f s%n", size, s));
            System.err.printf("data set %s: log of %,d statements written in %.1f s (%,.0f/s)%n", name(), size, s, size / s);
        }
        Path dbReady = base.resolve(dialect + "-" + name() + ".db.ready");
        if (!Files.exists(dbReady)) {
            long t0 = System.nanoTime();
            BenchDatabase bench = database(true);
            try (EventLog log = ChronicleLog.open(logDir()); Database db = Database.open(bench.url());
                 Projector projector = new Projector(log, new ProjectionWriter(db),
                         new WatermarkTracker(db.watermark(), Clock.systemUTC()),
                         PROJECTOR_BATCH)) {
                while (projector.doWork() > 0) {
                    Thread.onSpinWait();
                }
            }
            double s = ProjectionBench.seconds(t0);
            String line = String.format("%s %s: %,d statements projected (batch %d) in %.1f s = %,.0f statements/s%n",
                    dialect, name(), size, PROJECTOR_BATCH, s, size / s);
            Files.writeString(dbReady, line);
            System.err.print("data set " + line);
        }
    }
}
