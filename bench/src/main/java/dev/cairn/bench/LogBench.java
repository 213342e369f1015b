package dev.cairn.bench;

import dev.cairn.log.EventCodec;
import dev.cairn.log.EventLog;
import dev.cairn.log.LogAppender;
import dev.cairn.log.LogTailer;
import dev.cairn.log.StatementsStored;
import dev.cairn.log.StoredStatement;
import dev.cairn.log.chronicle.ChronicleLog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import net.openhft.chronicle.wire.DocumentContext;

/**
 * The log's append and recovery rates, in the rows Akka.Persistence reports its journals in (its JournalPerfSpec):
 * one event at a time, each durable before the next ({@code Persist}); a batch of events made durable together
 * ({@code PersistAll}; also what 100 writers sharing one sync get, {@code PersistGroup100}); and reading every event
 * back from the start ({@code Recovering}). Events are corpus statements of about 1 KB, appended through the log's
 * interface ({@link EventLog}) as the sequencer appends them. The disk's own synchronous-write latency is measured in
 * the same directory in the same run ({@link DiskProbe}), for a write of a round's bytes: a durable append can be no
 * faster.
 *
 * <pre>
 * java @jvm.options -Xmx2g -cp bench/target/benchmarks.jar dev.cairn.bench.LogBench [--dir /tmp/cairn-logbench]
 *     [--single 2000] [--batches 200] [--recovery 200000] [--runs 3]
 * </pre>
 */
public final class LogBench {
    /** Akka.Persistence.Sql's published journal figures (msg/s; 2024-08-29, AMD Ryzen 9 3900X, databases in Docker). */
    private static final String PG = "PostgreSQL 15";
    private static final String MSSQL = "SQL Server 2022";

    private LogBench() {
    }

    public static void main(String[] args) throws Exception {
        Options o = Options.parse(args, "dir", "/tmp/cairn-logbench", "single", "2000", "batches", "200",
                "recovery", "200000", "runs", "3");
        Path dir = Path.of(o.value("dir"));
        if (Files.exists(dir)) {
            ProjectionBench.deleteTree(dir);
        }
        StatementCorpus corpus = new StatementCorpus(0.1);
        DiskLimits disk = new DiskLimits(dir);
        System.out.println("| operation (Akka.Persistence's name) | events | events/s | p50 ms | p99 ms "
                + "| the disk's limit (one dsync write of a round's bytes each) | Akka.Persistence.Sql, " + PG + " | …, "
                + MSSQL + " |");
        System.out.println("|---|---:|---:|---:|---:|---:|---:|---:|");
        long next = 0;
        try (ChronicleLog log = ChronicleLog.open(dir.resolve("log")); LogAppender appender = log.appender()) {
            next = appendRows(appender, corpus, next, o.intValue("single"), 1, 1, disk, "1 event, synced before the next"
                    + " (Persist)", "368", "233");
            next = appendRows(appender, corpus, next, o.intValue("batches"), 100, 1, disk, "100 events, one sync "
                    + "(PersistAll; PersistGroup100)", "1,909; 3,698", "6,438; 6,050");
            next = appendRows(appender, corpus, next, o.intValue("batches"), 1, 100, disk, "1 event of 100 statements, "
                    + "synced (a POST of 100)", "", "");
            appendRows(appender, corpus, next, o.intValue("single") * 10, 1, 1, null, "1 event, no sync (append "
                    + "alone)", "", "");
        }
        Path recoveryLog = dir.resolve("recovery");
        long events = o.longValue("recovery");
        try (ChronicleLog log = ChronicleLog.open(recoveryLog)) {
            LogLoader.append(log, corpus, 0, events, 1);
            recovery(log, events, o.intValue("runs"));
        }
        for (DiskProbe probe : disk.probes.values()) {
            System.out.println();
            System.out.println(probe.line());
        }
        ProjectionBench.deleteTree(dir);
    }

    /**
     * The disk's limit for a round that syncs {@code bytes} of entries: one synchronous write of that many bytes
     * (at least a 4 KiB page), each size probed once, in the log's directory, beside the rounds it bounds. A sync of the
     * log can be no faster; how far a row is from it is what the memory-mapped log costs over the disk.
     */
    private static final class DiskLimits {
        private final Path dir;
        private final Map<Integer, DiskProbe> probes = new TreeMap<>();

        DiskLimits(Path dir) throws IOException, InterruptedException {
            this.dir = dir;
            of(DiskProbe.PAGE);
        }

        DiskProbe of(long bytes) throws IOException, InterruptedException {
            int block = DiskProbe.block(bytes);
            DiskProbe probe = probes.get(block);
            if (probe == null) {
                probe = DiskProbe.measure(dir, block);
                probes.put(block, probe);
            }
            return probe;
        }
    }

    /**
     * Appends {@code rounds} times {@code perSync} events of {@code perEvent} statements each, then syncs (unless
     * {@code disk} is null: no sync at all), timing each round; prints the row, with the disk's limit for a round's
     * bytes, and returns the next statement number.
     */
    private static long appendRows(LogAppender appender, StatementCorpus corpus, long next, int rounds, int perSync,
                                   int perEvent, DiskLimits disk, String label, String pg, String mssql)
            throws IOException, InterruptedException {
        List<StatementsStored> events = new ArrayList<>();
        long bytes = 0;
        for (int i = 0; i < rounds * perSync; i++) {
            List<StoredStatement> batch = new ArrayList<>(perEvent);
            for (int j = 0; j < perEvent; j++) {
                batch.add(corpus.stored(next++, System.currentTimeMillis()));
            }
            StatementsStored event = new StatementsStored(batch);
            events.add(event);
            bytes += EventCodec.encodedLength(event);
        }
        // Measured before the rounds, so that the probe's writes are not in the page cache the rounds write back.
        String limit = disk == null ? "" : String.format("%,.0f",
                perSync * disk.of(bytes / rounds).syncsPerSecond());
        int warmup = rounds / 10;
        Latencies lat = new Latencies();
        long t0 = 0;
        for (int r = -warmup, e = 0; r < rounds; r++) {
            if (r == 0) {
                t0 = System.nanoTime();
            }
            long start = System.nanoTime();
            for (int k = 0; k < perSync; k++) {
                appender.append(events.get(Math.floorMod(e++, events.size())));
            }
            if (disk != null) {
                appender.sync();
            }
            if (r >= 0) {
                lat.add(System.nanoTime() - start);
            }
        }
        double seconds = ProjectionBench.seconds(t0);
        long appended = (long) rounds * perSync;
        System.out.printf("| %s | %,d | **%,.0f** | %.3f | %.3f | %s | %s | %s |%n", label, appended, appended / seconds,
                lat.percentileMillis(50), lat.percentileMillis(99), limit, pg, mssql);
        return next;
    }

    /** Reads every event from the start with a tailer, decoded, then raw Chronicle documents (no copy, no decode). */
    private static void recovery(ChronicleLog log, long events, int runs) {
        double best = 0;
        for (int run = 0; run < runs; run++) {
            long t0 = System.nanoTime();
            long read = 0;
            try (LogTailer tailer = log.tailer(EventLog.START)) {
                while (tailer.next() != null) {
                    read++;
                }
            }
            check(read, events);
            best = Math.max(best, read / ProjectionBench.seconds(t0));
        }
        double raw = 0;
        long bytes = 0;
        for (int run = 0; run < runs; run++) {
            long t0 = System.nanoTime();
            long read = 0;
            bytes = 0;
            try (ChronicleQueue q = SingleChronicleQueueBuilder.binary(log.dir()).readOnly(true).build();
                 ExcerptTailer tailer = q.createTailer()) {
                while (true) {
                    try (DocumentContext dc = tailer.readingDocument()) {
                        if (!dc.isPresent()) {
                            break;
                        }
                        bytes += dc.wire().bytes().readRemaining();
                        read++;
                    }
                }
            }
            check(read, events);
            raw = Math.max(raw, read / ProjectionBench.seconds(t0));
        }
        System.out.printf("| read every event from the start, decoded (Recovering; best of %d) | %,d | **%,.0f** | | | "
                + "| 78,549 | 94,935 |%n", runs, events, best);
        System.out.printf("| … Chronicle's documents alone, not decoded (%,d MB) | %,d | %,.0f | | | | | |%n", bytes >> 20,
                events, raw);
    }

    private static void check(long read, long expected) {
        if (read != expected) {
            throw new IllegalStateException("read " + read + " events back, appended " + expected);
        }
    }
}
