package dev.cairn.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The short CI variant of the fuzzer and the slow-client check (issue 19), against a real {@code cairn serve} in a
 * child JVM of its own: 1,500 fuzzed cases with a fixed seed on each database (the NUL character passed SQLite and
 * stopped PostgreSQL's projector), then 50 slow connections for 20 s. Every failure the fuzzer counts fails the
 * test; the failing requests are in target/edge-fuzz-DIALECT to replay.
 */
class EdgeFuzzTest {
    private static final String CREDENTIAL = "ci:ci-secret-2718";
    /** Read deadlines short enough for the slow clients to see them within this test (issue 16 item 6). */
    private static final Map<String, String> DEADLINES = Map.of("CAIRN_HEADER_TIMEOUT", "3000", "CAIRN_BODY_TIMEOUT",
            "5000");

    @TempDir
    Path dir;

    private static String[] args(CairnProcess server, String... more) {
        List<String> a = new java.util.ArrayList<>(List.of("--url", server.url(), "--credential", CREDENTIAL,
                "--pid", String.valueOf(server.pid())));
        a.addAll(List.of(more));
        return a.toArray(String[]::new);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.cairn.store.TestDatabase#dialects")
    void mutatedRequestsGetWellFormedRefusalsAndChangeOnlyWhatTheirAcceptedWritesStored(String dialect)
            throws Exception {
        Path out = Path.of("target", "edge-fuzz-" + dialect);
        if (Files.exists(out)) {
            try (var old = Files.walk(out)) {
                old.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
        Map<String, String> settings = new java.util.HashMap<>(DEADLINES);
        try (BenchDatabase db = BenchDatabase.create(dialect, dir, "edge_fuzz")) {
            settings.put("CAIRN_DB", db.url());
            try (CairnProcess server = CairnProcess.serve(dir.resolve("data"), CREDENTIAL, settings)) {
                // longer than the server's body timeout (5 s), so a body that never ends is seen answered 408
                Fuzz.Report r = Fuzz.run(args(server, "--requests", "1500", "--seed", "20261201", "--timeout", "9000",
                        "--concurrency", "8", "--out", out.toString()), System.out);
                assertEquals(Map.of(), r.failureCounts, () -> "fuzzer failures (requests to replay in "
                        + out.toAbsolutePath() + "):\n" + String.join("\n", r.failureExamples.entrySet().stream()
                        .map(e -> e.getKey() + ": " + e.getValue()).toList()));
            }
        }
    }

    @Test
    void slowConnectionsAreClosedAtTheirDeadlineAndNeitherStarveANormalClientNorHoldMemory() throws Exception {
        try (CairnProcess server = CairnProcess.serve(dir.resolve("data"), CREDENTIAL, DEADLINES)) {
            SlowClients.Report r = SlowClients.run(args(server, "--connections", "50", "--seconds", "20", "--interval",
                    "1000", "--expect-closed-within", "8", "--max-old-gen-growth-mb", "100", "--max-p99-ms", "1000"),
                    System.out);
            assertEquals(List.of(), r.failures);
        }
    }
}
