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
 * Durability under {@code kill -9} (issue 19): writers post batches of 1 and of 100 statements ({@link BatchLoad}),
 * and in the attachment trials statements with a large attachment too, while the server is killed at a random moment
 * (mid-batch, mid-upload); after each restart every batch it acknowledged must be stored whole, exactly once, with
 * its attachment byte-identical, and every other batch whole or not at all ({@link BatchAudit}). After the last trial
 * the tables must equal a fresh replay of the log ({@link ReplayComparison}).
 */
final class DurabilityTrials {
    private static final int WRITERS = 4;

    private final Path data;
    private final String db;
    private final String credential;
    private final String dialect;
    private final String authorization;
    private final boolean attachments;

    /** {@code --trials} kills under each acknowledgement mode, each set followed by the replay comparison. */
    static List<InvariantRow> check(String dialect, Path dir, Options o) throws Exception {
        List<InvariantRow> rows = new ArrayList<>();
        for (String ack : List.of("durable", "visible")) {
            try (BenchDatabase db = BenchDatabase.create(dialect, Files.createDirectories(dir), "durability_" + ack)) {
                rows.addAll(new DurabilityTrials(dir.resolve(ack), db.url(), Invariants.CREDENTIAL, dialect, false)
                        .run(ack, o.intValue("trials"), o.longValue("seed")));
            }
        }
        return rows;
    }

    /** {@code --trials} kills of a server loaded with batches and with statements carrying attachments, ack=durable. */
    static List<InvariantRow> checkAttachments(String dialect, Path dir, Options o) throws Exception {
        try (BenchDatabase db = BenchDatabase.create(dialect, Files.createDirectories(dir), "attachments")) {
            return new DurabilityTrials(dir.resolve("data"), db.url(), Invariants.CREDENTIAL, dialect, true)
                    .run("durable", o.intValue("trials"), o.longValue("seed"));
        }
    }

    /** @param attachments whether the writers also post statements with a large attachment */
    DurabilityTrials(Path data, String db, String credential, String dialect, boolean attachments) {
        this.data = data;
        this.db = db;
        this.credential = credential;
        this.dialect = dialect;
        this.authorization = basic(credential);
        this.attachments = attachments;
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
                BatchLoad load = new BatchLoad(server.url(), authorization, WRITERS, random.nextLong(), true,
                        attachments);
                Thread.sleep(300 + random.nextInt(1200));
                server.close(); // kill -9, mid-batch (or mid-upload) for whichever writer is sending
                batches = load.stop();
            }
            try (CairnProcess server = CairnProcess.serve(data, credential, settings)) {
                audit.audit(server.url(), batches);
                server.stop();
            }
        }
        String what = attachments ? "attachments" : "durability";
        return List.of(audit.row(dialect, what + ", ack=" + ack + ", " + trials + " trials of kill -9 under load (batches"
                        + " of 1 and 100" + (attachments ? ", statements with a 0.5-4 MiB attachment" : "") + ")"),
                ReplayComparison.row(dialect, data, db, "after the " + (attachments ? "attachment " : "") + "ack="
                        + ack + " trials"));
    }
}
