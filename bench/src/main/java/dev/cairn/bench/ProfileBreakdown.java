package dev.cairn.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

/**
 * Where a server's CPU went, by stage of a write, from a JFR recording of it under load: each thread's share of the
 * process's CPU ({@code jdk.ThreadCPULoad}), split by what its Java stack samples ({@code jdk.ExecutionSample}) were
 * doing, then scaled to microseconds per statement with the process's CPU time and the statements the load counted.
 * JFR samples only Java frames; a thread's CPU in system calls (a socket write, an msync) is in its share and goes to
 * the stage its Java samples show most.
 *
 * <pre>
 * java -cp bench/target/benchmarks.jar dev.cairn.bench.ProfileBreakdown RECORDING.jfr CPU_NANOS STATEMENTS
 * </pre>
 */
public final class ProfileBreakdown {
    /** A stage, recognised by a frame of its classes or methods (prefixes of "class.method"). */
    private record Stage(String name, List<String> frames) {
    }

    /** A stack belongs to the specific stage of its innermost frame that has one. */
    private static final List<Stage> SPECIFIC = List.of(
            new Stage("log sync", List.of("dev.cairn.log.chronicle.ChronicleAppender.sync",
                    "dev.cairn.log.chronicle.SyncedPosition")),
            new Stage("log append (encode, copy to the mapped file)", List.of(
                    "dev.cairn.log.chronicle.ChronicleAppender.append", "dev.cairn.log.EventCodec")),
            new Stage("metrics", List.of("io.micrometer", "io.prometheus")),
            new Stage("logging", List.of("org.slf4j")),
            new Stage("authentication", List.of("dev.cairn.http.BasicAuthHandler", "dev.cairn.http.CredentialCheck",
                    "dev.cairn.auth")),
            new Stage("parse and validate", List.of("dev.cairn.xapi.StatementParser", "dev.cairn.xapi.JsonReader",
                    "com.fasterxml.jackson")),
            new Stage("exact form (stamping stored, authority, id)", List.of("dev.cairn.xapi.ExactWriter")),
            new Stage("sequencer lookups and decisions", List.of("dev.cairn.ingest.Sequencer", "dev.cairn.ingest.StoredIdFilter",
                    "dev.cairn.ingest.StatementOverlay", "dev.cairn.store.KnownState")),
            new Stage("ring hand-off", List.of("com.lmax.disruptor", "dev.cairn.ingest.IngestRing")),
            new Stage("completion, visibility wait and response", List.of("dev.cairn.ingest.CommandSubmitter",
                    "dev.cairn.store.WatermarkTracker")),
            new Stage("projection: statement and match rows", List.of("dev.cairn.store.StatementRefGraph",
                    "dev.cairn.store.PendingMatches", "dev.cairn.store.FilterKeyIds", "dev.cairn.store.MatchKeys")),
            new Stage("projection: transaction, watermark, commit", List.of("dev.cairn.store.FencedTransaction",
                    "dev.cairn.store.ProjectionWriter.commit")),
            new Stage("projection: SQLite checkpoint", List.of("dev.cairn.store.WalCheckpointer")),
            new Stage("projection: read and prepare the log", List.of("dev.cairn.projector.PreparedEntry",
                    "dev.cairn.log.chronicle.ChronicleTailer", "dev.cairn.projector.Projector.read")));

    /** A stack with no specific frame belongs to the generic stage of its innermost frame that has one. */
    private static final List<Stage> GENERIC = List.of(
            new Stage("database driver", List.of("org.sqlite", "org.postgresql", "com.zaxxer.hikari")),
            new Stage("HTTP: Undertow, XNIO, sockets", List.of("io.undertow", "org.xnio", "sun.nio.ch",
                    "dev.cairn.http", "dev.cairn.ops")));

    private ProfileBreakdown() {
    }

    public static void main(String[] args) throws IOException {
        Path recording = Path.of(args[0]);
        long cpuNanos = Long.parseLong(args[1]);
        long statements = Long.parseLong(args[2]);
        Map<String, Double> load = new HashMap<>();
        Map<String, Map<String, Integer>> samples = new TreeMap<>();
        for (RecordedEvent e : RecordingFile.readAllEvents(recording)) {
            String type = e.getEventType().getName();
            if (type.equals("jdk.ThreadCPULoad")) {
                load.merge(pool(e.getThread("eventThread")), (double) e.getFloat("user") + e.getFloat("system"),
                        Double::sum);
            } else if (type.equals("jdk.ExecutionSample")) {
                samples.computeIfAbsent(pool(e.getThread("sampledThread")), t -> new HashMap<>())
                        .merge(stage(e.getStackTrace()), 1, Integer::sum);
            }
        }
        double total = load.values().stream().mapToDouble(Double::doubleValue).sum();
        double perStatement = cpuNanos / 1e3 / statements;
        Map<String, Double> byStage = new TreeMap<>();
        System.out.printf("| thread | share of the CPU | µs per statement | what its samples were doing |%n|---|---:|---:|---|%n");
        load.entrySet().stream().sorted((a, b) -> Double.compare(b.getValue(), a.getValue())).forEach(t -> {
            double share = t.getValue() / total;
            Map<String, Integer> s = samples.getOrDefault(t.getKey(), Map.of());
            int n = s.values().stream().mapToInt(Integer::intValue).sum();
            StringBuilder what = new StringBuilder();
            s.entrySet().stream().sorted((a, b) -> b.getValue() - a.getValue()).forEach(st -> {
                double part = (double) st.getValue() / n;
                what.append(what.length() == 0 ? "" : "; ").append(st.getKey()).append(String.format(" %.0f%%", 100 * part));
                byStage.merge(st.getKey(), share * part * perStatement, Double::sum);
            });
            if (n == 0) {
                byStage.merge("(no Java samples: native or waiting)", share * perStatement, Double::sum);
            }
            if (share >= 0.005) {
                System.out.printf("| %s | %.1f%% | %.1f | %s |%n", t.getKey(), 100 * share, share * perStatement,
                        n == 0 ? "no Java samples" : what);
            }
        });
        System.out.printf("%n| stage | µs per statement | share |%n|---|---:|---:|%n");
        byStage.entrySet().stream().sorted((a, b) -> Double.compare(b.getValue(), a.getValue())).forEach(s ->
                System.out.printf("| %s | %.1f | %.0f%% |%n", s.getKey(), s.getValue(), 100 * s.getValue() / perStatement));
        System.out.printf("| **all** | **%.1f** | |%n", perStatement);
    }

    /** Numbered threads of one pool (XNIO's I/O threads, its workers) count as one. */
    private static String pool(RecordedThread t) {
        String name = t == null ? "?" : t.getJavaName() != null ? t.getJavaName() : t.getOSName();
        return name == null ? "?" : name.replaceAll("[-#]?\\d+$", "");
    }

    private static String stage(RecordedStackTrace stack) {
        if (stack == null) {
            return "other";
        }
        for (List<Stage> stages : List.of(SPECIFIC, GENERIC)) {
            for (RecordedFrame f : stack.getFrames()) { // the innermost frame first
                String frame = f.getMethod().getType().getName() + "." + f.getMethod().getName();
                for (Stage s : stages) {
                    for (String prefix : s.frames()) {
                        if (frame.startsWith(prefix)) {
                            return s.name();
                        }
                    }
                }
            }
        }
        return "other (JDK)";
    }
}
