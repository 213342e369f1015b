package dev.cairn.bench;

import java.io.UncheckedIOException;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The write rows of the HTTP benchmarks ({@link HttpBench} {@code --parts writes}): a {@code cairn serve} of its own
 * on an empty database and log per dialect; POST one statement, POST a batch of 100, and closed-loop writers of single
 * statements ({@link ClosedLoopWriters}), with {@code ack=visible} and {@code ack=durable}; the server's CPU per
 * statement and the disk's own synchronous-write latency ({@link DiskProbe}) in the same run. Every row is measured
 * on a warm server: first {@code warmupSeconds} of 64 durable writers and a fifth of that of one visible writer, whose
 * figures are not kept, so that the JIT compiler's work on a fresh JVM (a third of the server's CPU in the first
 * minute) is not counted as the cost of a request.
 */
final class WriteBench {
    private static final String DURABLE = "X-Cairn-Ack: durable\r\n";

    private WriteBench() {
    }

    /** The published .NET LRS figures (issue 5: SQLite on an Apple M1 Pro) for the rows that have one. */
    private static String anchor(String row) {
        return switch (row) {
            case "visible 1" -> "2.3 ms";
            case "visible 100" -> "31 ms";
            case "visible writers 8" -> "640/s";
            default -> "";
        };
    }

    /** The design's target for a write row, marked met or not, or "" where it sets none. */
    private static String target(String row, double p50Millis, double perSecond, double cpuMicros) {
        String t = switch (row) {
            case "visible 1" -> p50Millis <= 1 ? "p50 ≤ 1 ms ✅" : "p50 ≤ 1 ms ❌";
            case "visible 100", "durable 100" -> p50Millis <= 5 ? "p50 ≤ 5 ms ✅" : "p50 ≤ 5 ms ❌";
            case "durable writers 8" -> perSecond >= 8_000 ? "≥ 8,000/s ✅" : "≥ 8,000/s ❌";
            case "durable writers 64" -> perSecond >= 15_000 ? "≥ 15,000/s ✅" : "≥ 15,000/s ❌";
            case "visible writers 64" -> perSecond >= 10_000 ? "≥ 10,000/s ✅" : "≥ 10,000/s ❌";
            default -> "";
        };
        if (row.endsWith("writers 64")) {
            t += cpuMicros <= 100 ? "; CPU ≤ 100 µs ✅" : "; CPU ≤ 100 µs ❌";
        }
        return t;
    }

    static void writes(Path base, String dialect, int warmupSeconds, int posts, int batches, int writerSeconds,
                       int[] writerCounts) throws Exception {
        Path dir = base.resolve("writes-" + dialect);
        if (Files.exists(dir)) {
            ProjectionBench.deleteTree(dir);
        }
        StatementCorpus corpus = new StatementCorpus(0.1);
        AtomicLong next = new AtomicLong();
        try (BenchDatabase db = BenchDatabase.create(dialect, Files.createDirectories(dir), "writes_" + dialect);
             CairnProcess cairn = HttpBench.start(db.url(), dir.resolve("log"), dir.resolve("data"))) {
            DiskProbe disk = DiskProbe.measure(dir);
            ClosedLoopWriters.run(cairn.port(), cairn.pid(), HttpBench.CREDENTIAL, corpus, next, 64, warmupSeconds,
                    "durable");
            ClosedLoopWriters.run(cairn.port(), cairn.pid(), HttpBench.CREDENTIAL, corpus, next, 1,
                    Math.max(1, warmupSeconds / 5), "visible");
            System.out.printf("%n### writes, %s: a database and log that the warm-up (%d s of writes) left; statements "
                    + "of the corpus (10%% StatementRefs), ids assigned by the client%n%n", dialect,
                    warmupSeconds + Math.max(1, warmupSeconds / 5));
            System.out.println("| operation | ack | requests | statements/s | p50 ms | p99 ms | mean ms "
                    + "| server CPU per statement | target | published .NET LRS |");
            System.out.println("|---|---|---:|---:|---:|---:|---:|---:|---|---:|");
            try (LoopbackClient client = new LoopbackClient(cairn.port(), HttpBench.CREDENTIAL)) {
                for (String ack : new String[] {"", DURABLE}) {
                    drain(client, corpus, next);
                    sequential(cairn, client, corpus, next, 1, posts / 4, posts, ack);
                    drain(client, corpus, next);
                    sequential(cairn, client, corpus, next, 100, batches / 5, batches, ack);
                }
                for (String ack : new String[] {"", DURABLE}) {
                    for (int writers : writerCounts) {
                        drain(client, corpus, next);
                        concurrent(cairn, corpus, next, writers, writerSeconds, ack);
                    }
                }
            }
            System.out.println();
            System.out.println(disk.line());
        } finally {
            ProjectionBench.deleteTree(dir);
        }
    }

    /**
     * Waits until the projector has applied everything written so far (an {@code ack=visible} POST answers only then),
     * so that one row's backlog of durable writes does not slow the next row down.
     */
    private static void drain(LoopbackClient client, StatementCorpus corpus, AtomicLong next) {
        for (int attempt = 1; ; attempt++) {
            try {
                HttpBench.ok(client.post("/xapi/statements", HttpBench.body(corpus, next, 1), ""), "drain");
                return;
            } catch (UncheckedIOException e) {
                if (!(e.getCause() instanceof SocketTimeoutException) || attempt == 3) {
                    throw e;
                }
                System.err.println("(a visible POST got no answer within " + LoopbackClient.TIMEOUT_MILLIS + " ms)");
            }
        }
    }

    private static void sequential(CairnProcess cairn, LoopbackClient client, StatementCorpus corpus, AtomicLong next,
                                   int perRequest, int warmup, int measured, String ack) {
        posts(client, corpus, next, perRequest, warmup, ack);
        long t0 = System.nanoTime();
        long cpu0 = ProcessCpu.nanos(cairn.pid());
        Latencies lat = posts(client, corpus, next, perRequest, measured, ack);
        double s = ProjectionBench.seconds(t0);
        long statements = (long) measured * perRequest;
        String mode = ack.isEmpty() ? "visible" : "durable";
        long cpu = ProcessCpu.nanos(cairn.pid()) - cpu0;
        System.out.printf("| POST %s | %s | %,d | %,.0f | %.3f | %.3f | %.3f | %s | %s | %s |%n",
                perRequest == 1 ? "one statement" : "a batch of " + perRequest, mode, measured, statements / s,
                lat.percentileMillis(50), lat.percentileMillis(99), lat.meanMillis(), micros(cpu, statements),
                target(mode + " " + perRequest, lat.percentileMillis(50), statements / s, cpu / 1e3 / statements),
                anchor(mode + " " + perRequest));
    }

    /** {@code count} POSTs of {@code perRequest} statements one after another, each with {@code ack}: their latencies. */
    static Latencies posts(LoopbackClient client, StatementCorpus corpus, AtomicLong next, int perRequest, int count,
                           String ack) {
        Latencies lat = new Latencies();
        for (int i = 0; i < count; i++) {
            byte[] body = HttpBench.body(corpus, next, perRequest);
            long start = System.nanoTime();
            LoopbackClient.Response r = client.post("/xapi/statements", body, ack);
            lat.add(System.nanoTime() - start);
            HttpBench.ok(r, "POST of " + perRequest);
        }
        return lat;
    }

    private static String micros(long cpuNanos, long statements) {
        return String.format("%,.0f µs", cpuNanos / 1e3 / Math.max(1, statements));
    }

    /** Runs one row of concurrent writers ({@link ClosedLoopWriters}). */
    private static void concurrent(CairnProcess cairn, StatementCorpus corpus, AtomicLong next, int writers, int seconds,
                                   String ack) throws InterruptedException {
        String mode = ack.isEmpty() ? "visible" : "durable";
        ClosedLoopWriters.Result r = ClosedLoopWriters.run(cairn.port(), cairn.pid(), HttpBench.CREDENTIAL, corpus, next,
                writers, seconds, mode);
        System.out.printf("| %d concurrent writer%s of one statement%s | %s | %,d | **%,.0f** | %.3f | %.3f | %.3f | %s | %s "
                        + "| %s |%n", writers, writers == 1 ? "" : "s", r.unanswered() == 0 ? "" : " (" + r.unanswered()
                        + " got no answer within " + LoopbackClient.TIMEOUT_MILLIS + " ms)", mode, r.statements(),
                r.perSecond(), r.latencies().percentileMillis(50), r.latencies().percentileMillis(99),
                r.latencies().meanMillis(), micros(r.cpuNanos(), r.statements()), target(mode + " writers " + writers,
                        r.latencies().percentileMillis(50), r.perSecond(), r.cpuMicrosPerStatement()),
                anchor(mode + " writers " + writers));
    }
}
