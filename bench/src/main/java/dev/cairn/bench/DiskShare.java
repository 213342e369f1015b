package dev.cairn.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the disk costs the write rows that miss their goals ({@link WriteBench}): the same rows against two servers
 * side by side, one that keeps its files on the disk and one that keeps them in RAM (tmpfs, {@code /dev/shm}), where
 * a sync costs no I/O at all. On SQLite the database and the log move; on PostgreSQL the log does (the database stays
 * in its server). Whatever the RAM server still misses is not the disk's doing but the CPU's and the pipeline's; its
 * CPU per statement (server and load generator together) bounds what the machine's cores can carry at all.
 *
 * <p>Both servers take the same warm-up, then {@code rounds} rounds in alternating order; each cell is the median of
 * its rounds.
 *
 * <pre>java -cp bench/target/benchmarks.jar dev.cairn.bench.DiskShare --dir /tmp/cairn-bench-data/disk-share
 *     [--ram /dev/shm] [--dialects sqlite,postgresql] [--rounds 3] [--seconds 5] [--posts 400] [--batches 60]
 *     [--warmup-seconds 20]</pre>
 */
public final class DiskShare {
    private static final String VISIBLE = "X-Cairn-Ack: visible\r\n";

    private DiskShare() {
    }

    /** One measurement: a rate or a latency, and the CPU per statement of the server and of the load generator. */
    private record Cell(double value, double serverMicros, double clientMicros) {
    }

    /** A row: what it measures, its unit, and the goal it misses on the disk. */
    private enum Row {
        ONE_VISIBLE("POST one statement, visible: p50", "ms", "≤ 1 ms"),
        BATCH_VISIBLE("POST a batch of 100, visible: p50", "ms", "≤ 5 ms"),
        WRITERS_VISIBLE("64 concurrent writers of one statement, visible", "/s", "≥ 10,000/s"),
        WRITERS_DURABLE("64 concurrent writers of one statement, durable", "/s", "≥ 15,000/s");

        final String label;
        final String unit;
        final String goal;

        boolean isRate() {
            return unit.equals("/s");
        }

        Row(String label, String unit, String goal) {
            this.label = label;
            this.unit = unit;
            this.goal = goal;
        }
    }

    public static void main(String[] args) throws Exception {
        Options o = Options.parse(args, "dir", "/tmp/cairn-bench-data/disk-share", "ram", "/dev/shm",
                "dialects", "sqlite,postgresql", "rounds", "3", "seconds", "5", "posts", "400", "batches", "60",
                "warmup-seconds", "20");
        int cores = Runtime.getRuntime().availableProcessors();
        System.out.println("| dialect | row | files on the disk | in RAM (tmpfs) | RAM ÷ disk | CPU per statement in RAM "
                + "(server + load generator) | what " + cores + " cores carry at that CPU | goal |");
        System.out.println("|---|---|---:|---:|---:|---:|---:|---|");
        for (String dialect : o.value("dialects").split(",")) {
            measure(dialect.trim(), o, cores);
        }
    }

    private static void measure(String dialect, Options o, int cores) throws Exception {
        Path disk = Files.createDirectories(Path.of(o.value("dir")).resolve(dialect));
        Path ram = Files.createDirectories(Path.of(o.value("ram")).resolve("cairn-disk-share-" + dialect));
        int rounds = o.intValue("rounds");
        StatementCorpus corpus = new StatementCorpus(0.1);
        AtomicLong next = new AtomicLong();
        Map<Row, List<Cell>> onDisk = new LinkedHashMap<>();
        Map<Row, List<Cell>> inRam = new LinkedHashMap<>();
        try (BenchDatabase dbDisk = BenchDatabase.create(dialect, disk, "share_disk_" + dialect);
             BenchDatabase dbRam = BenchDatabase.create(dialect, ram, "share_ram_" + dialect);
             CairnProcess a = HttpBench.start(dbDisk.url(), disk.resolve("log"), disk.resolve("data"));
             CairnProcess b = HttpBench.start(dbRam.url(), ram.resolve("log"), ram.resolve("data"))) {
            for (CairnProcess c : List.of(a, b)) {
                ClosedLoopWriters.run(c.port(), c.pid(), HttpBench.CREDENTIAL, corpus, next, 64,
                        o.intValue("warmup-seconds"), "durable");
                ClosedLoopWriters.run(c.port(), c.pid(), HttpBench.CREDENTIAL, corpus, next, 1,
                        Math.max(1, o.intValue("warmup-seconds") / 5), "visible");
            }
            for (int r = 0; r < rounds; r++) {
                boolean diskFirst = r % 2 == 0; // neither server always goes first
                for (CairnProcess c : diskFirst ? List.of(a, b) : List.of(b, a)) {
                    Map<Row, List<Cell>> cells = c == a ? onDisk : inRam;
                    for (Row row : Row.values()) {
                        cells.computeIfAbsent(row, k -> new ArrayList<>()).add(cell(row, c, corpus, next, o));
                    }
                }
            }
        } finally {
            ProjectionBench.deleteTree(ram);
            ProjectionBench.deleteTree(disk);
        }
        for (Row row : Row.values()) {
            Cell d = median(onDisk.get(row));
            Cell m = median(inRam.get(row));
            boolean rate = row.isRate();
            double cpu = m.serverMicros() + m.clientMicros();
            System.out.printf("| %s | %s | %s | %s | %.2f× | %s | %s | %s |%n", dialect, row.label, format(d, row),
                    format(m, row), m.value() / d.value(), rate ? String.format("%.0f + %.0f µs", m.serverMicros(),
                            m.clientMicros()) : "", rate ? String.format("%,.0f/s", cores * 1e6 / cpu) : "", row.goal);
        }
    }

    private static Cell cell(Row row, CairnProcess c, StatementCorpus corpus, AtomicLong next, Options o)
            throws Exception {
        return switch (row) {
            case ONE_VISIBLE -> sequential(c, corpus, next, 1, o.intValue("posts"));
            case BATCH_VISIBLE -> sequential(c, corpus, next, 100, o.intValue("batches"));
            case WRITERS_VISIBLE, WRITERS_DURABLE -> {
                ClosedLoopWriters.Result r = ClosedLoopWriters.run(c.port(), c.pid(), HttpBench.CREDENTIAL, corpus,
                        next, 64, o.intValue("seconds"), row == Row.WRITERS_VISIBLE ? "visible" : "durable");
                yield new Cell(r.perSecond(), r.cpuMicrosPerStatement(), r.clientCpuMicrosPerStatement());
            }
        };
    }

    /** {@code posts} visible POSTs of {@code perRequest} statements one after another (a fifth more first, unmeasured). */
    private static Cell sequential(CairnProcess c, StatementCorpus corpus, AtomicLong next, int perRequest, int posts) {
        try (LoopbackClient client = new LoopbackClient(c.port(), HttpBench.CREDENTIAL)) {
            WriteBench.posts(client, corpus, next, perRequest, posts / 5, VISIBLE);
            return new Cell(WriteBench.posts(client, corpus, next, perRequest, posts, VISIBLE).percentileMillis(50), 0, 0);
        }
    }

    /** The cell whose value is the median of the rounds'. */
    private static Cell median(List<Cell> cells) {
        Cell[] sorted = cells.toArray(Cell[]::new);
        Arrays.sort(sorted, (x, y) -> Double.compare(x.value(), y.value()));
        return sorted[sorted.length / 2];
    }

    private static String format(Cell c, Row row) {
        return row.isRate() ? String.format("%,.0f/s", c.value()) : String.format("%.3f ms", c.value());
    }
}
