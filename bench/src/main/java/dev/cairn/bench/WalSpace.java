package dev.cairn.bench;

import dev.cairn.store.SmallFilesystem;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Space Cairn holds and could give back (issue 19, found by the full-disk trials): SQLite's write-ahead log keeps the
 * size of its largest backlog until it is emptied, which happens after a commit (past 256 MB, or after a failed
 * transaction) or when the database is closed. When that space is what puts the disk under {@code --disk-reserve},
 * writes are refused with 507, nothing commits, and the log is never emptied: the process stays refusing until it
 * is restarted, although the README promises that once there is room a running process carries on by itself.
 *
 * <p>The check grows the log under load on a small tmpfs, leaves the disk just under the reserve with a file of its
 * own, and expects the same process ready again within {@link #READY_MILLIS}; then it restarts the server to show
 * that the shortfall was the log's (closing the database empties it). SQLite only: PostgreSQL's write-ahead log is
 * on its own server's disk, and the group gives no rows there.
 */
final class WalSpace {
    private static final int MEGABYTES = 256;
    private static final long RESERVE = 16L << 20;
    /** A log this large holds far more than the shortfall the check makes. */
    private static final long WAL_BYTES = 32L << 20;
    private static final long SHORT_BY = 1L << 20;
    private static final long LOAD_MILLIS = 30_000;
    private static final long READY_MILLIS = 10_000;

    private WalSpace() {
    }

    static List<InvariantRow> check(String dialect, Path dir, Options o) throws Exception {
        if (!dialect.equals("sqlite")) {
            return List.of();
        }
        String authorization = DurabilityTrials.basic(Invariants.CREDENTIAL);
        try (SmallFilesystem fs = SmallFilesystem.mount(dir.resolve("data"), MEGABYTES);
             BenchDatabase db = BenchDatabase.create(dialect, fs.dir(), "wal_space")) {
            Map<String, String> settings = Map.of("CAIRN_DB", db.url(), "CAIRN_DISK_RESERVE", String.valueOf(RESERVE));
            Path data = fs.dir();
            long wal;
            long free;
            long ready;
            String reason;
            try (CairnProcess server = CairnProcess.serve(data, Invariants.CREDENTIAL, settings)) {
                try (BatchLoad load = new BatchLoad(server.url(), authorization, 4, o.longValue("seed"), false)) {
                    long deadline = System.nanoTime() + LOAD_MILLIS * 1_000_000;
                    while (walBytes(data) < WAL_BYTES && System.nanoTime() - deadline < 0) {
                        Thread.sleep(50);
                    }
                }
                new BatchAudit(authorization).awaitProjected(server.url());
                wal = walBytes(data);
                fill(data.resolve("filler"), fs.usable() - (RESERVE - SHORT_BY));
                free = fs.usable();
                try (HealthWatch health = new HealthWatch(server)) {
                    ready = health.readyAfter(System.nanoTime(), READY_MILLIS);
                    List<HealthWatch.Sample> seen = health.between(0, System.nanoTime());
                    reason = seen.isEmpty() ? "no answer" : seen.get(seen.size() - 1).reason().split(":")[0];
                }
                server.stop();
            }
            long freeAfterClose = fs.usable();
            long readyAfterRestart;
            try (CairnProcess server = CairnProcess.serve(data, Invariants.CREDENTIAL, settings);
                 HealthWatch health = new HealthWatch(server)) {
                readyAfterRestart = health.readyAfter(System.nanoTime(), READY_MILLIS);
                server.stop();
            }
            return List.of(new InvariantRow(dialect, "disk under the reserve (" + (RESERVE >> 20) + " MB) by less "
                    + "than the SQLite write-ahead log holds, with writes refused and nothing left to project",
                    "the same process ready again within " + READY_MILLIS / 1000 + " s, by emptying the log (no "
                            + "restart)",
                    "log " + (wal >> 20) + " MB, " + (free >> 20) + " MB free: " + (ready >= 0 ? "ready after "
                            + ready + " ms" : "not ready after " + READY_MILLIS / 1000 + " s ('" + reason + "')")
                            + "; stopped (which empties the log): " + (freeAfterClose >> 20) + " MB free, restarted: "
                            + (readyAfterRestart >= 0 ? "ready" : "not ready"),
                    ready >= 0));
        }
    }

    /** The size of the SQLite database's write-ahead log file in {@code data} (0 without one). */
    private static long walBytes(Path data) throws IOException {
        try (Stream<Path> files = Files.list(data)) {
            Optional<Path> wal = files.filter(f -> f.getFileName().toString().endsWith(".db-wal")).findFirst();
            return wal.isPresent() ? Files.size(wal.get()) : 0;
        }
    }

    /** Writes {@code bytes} zeros to {@code file} (really written: a tmpfs keeps no blocks for a sparse file). */
    private static void fill(Path file, long bytes) throws IOException {
        byte[] zeros = new byte[1 << 20];
        try (RandomAccessFile out = new RandomAccessFile(file.toFile(), "rw")) {
            for (long left = bytes; left > 0; left -= zeros.length) {
                out.write(zeros, 0, (int) Math.min(zeros.length, left));
            }
        }
    }
}
