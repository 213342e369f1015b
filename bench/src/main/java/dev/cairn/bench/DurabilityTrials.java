package dev.cairn.bench;

import dev.cairn.bench.BatchLoad.Batch;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Durability under {@code kill -9} (issue 19): writers post batches of 1 and of 100 statements ({@link BatchLoad})
 * while the server is killed at a random moment; after each restart every batch it acknowledged must be stored whole,
 * exactly once, and every other batch whole or not at all ({@link BatchAudit}). After the last trial the tables must
 * equal a fresh replay of the log ({@link ReplayComparison}).
 */
final class DurabilityTrials {
    private static final int WRITERS = 4;

    private final Path data;
    private final String db;
    private final String credential;
    private final String dialect;
    private final String authorization;

    /** {@code --trials} kills under each acknowledgement mode, each set followed by the replay comparison. */
    static List<InvariantRow> check(String dialect, Path dir, Options o) throws Exception {
        List<InvariantRow> rows = new ArrayList<>();
        for (String ack : List.of("durable", "visible")) {
            try (BenchDatabase db = BenchDatabase.create(dialect, Files.createDirectories(dir), "durability_" + ack)) {
                rows.addAll(new DurabilityTrials(dir.resolve(ack), db.url(), Invariants.CREDENTIAL, dialect)
                        .run(ack, o.intValue("trials"), o.longValue("seed")));
            }
        }
        return rows;
    }

    DurabilityTrials(Path data, String db, String credential, String dialect) {
        this.data = data;
        this.db = db;
        this.credential = credential;
        this.dialect = dialect;
        this.authorization = basic(credential);
    }

    static String basic(String credential) {
        return "Basic " + Base64.getEncoder().encodeToString(credential.getBytes(StandardCharsets.UTF_8));
    }

    /** {@code trials} kills of a server loaded with {@code ack} writes, then the replay comparison. */
    List<InvariantRow> run(String ack, int trials, long seed) throws Exception {
        SplittableRandom random = new SplittableRandom(seed);
        BatchAudit audit = new BatchAudit(authorization);
        Map<String, String> settings = Map.of("CAIRN_DB", db, "CAIRN_ACK", ack);
        for (int t = 0; t < trials; t++) {
            List<Batch> batches;
            try (CairnProcess server = CairnProcess.serve(data, credential, settings)) {
                BatchLoad load = new BatchLoad(server.url(), authorization, WRITERS, random.nextLong(), true);
                Thread.sleep(300 + random.nextInt(1200));
                server.close(); // kill -9, mid-batch for whichever writer is sending
                batches = load.stop();
            }
            try (CairnProcess server = CairnProcess.serve(data, credential, settings)) {
                audit.audit(server.url(), batches);
                server.stop();
            }
        }
        return List.of(audit.row(dialect, "durability, ack=" + ack + ", " + trials
                        + " trials of kill -9 under load (batches of 1 and 100)"),
                ReplayComparison.row(dialect, data, db, "after the ack=" + ack + " trials"));
    }
}
