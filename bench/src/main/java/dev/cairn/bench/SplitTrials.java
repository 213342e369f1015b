package dev.cairn.bench;

import dev.cairn.bench.BatchLoad.Batch;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Durability of the split deployment under {@code kill -9} (issue 19): {@code cairn ingest}, {@code cairn project}
 * and {@code cairn query} as three processes on one log directory and one database. Writers post batches of 1 and 100
 * to ingest ({@link BatchLoad}, ack=durable) and carry on through outages; each trial kills one of the three, in
 * turn, at a random moment, restarts it on its port, and audits through the query process ({@link BatchAudit}). After
 * the last trial the tables must equal a fresh replay of the log ({@link ReplayComparison}).
 */
final class SplitTrials {
    /** Fewer writers than with one server: three JVMs and the writers share the cores, and restarts must not crawl. */
    private static final int WRITERS = 2;
    private static final List<String> COMMANDS = List.of("ingest", "project", "query");

    private final Path data;
    private final String db;
    private final String dialect;
    private final String authorization = DurabilityTrials.basic(Invariants.CREDENTIAL);
    private final Map<String, String> settings;

    static List<InvariantRow> check(String dialect, Path dir, Options o) throws Exception {
        try (BenchDatabase db = BenchDatabase.create(dialect, Files.createDirectories(dir), "split")) {
            return new SplitTrials(dir.resolve("data"), db.url(), dialect).run(o.intValue("trials"), o.longValue("seed"));
        }
    }

    private SplitTrials(Path data, String db, String dialect) {
        this.data = data;
        this.db = db;
        this.dialect = dialect;
        this.settings = Map.of("CAIRN_DB", db, "CAIRN_ACK", "durable");
    }

    /**
     * {@code trials} kills, of ingest, project and query in turn (so two trials kill the two that write), then the
     * replay comparison.
     */
    private List<InvariantRow> run(int trials, long seed) throws Exception {
        SplittableRandom random = new SplittableRandom(seed);
        BatchAudit audit = new BatchAudit(authorization);
        Map<String, CairnProcess> running = new LinkedHashMap<>();
        Map<String, Integer> kills = new LinkedHashMap<>();
        try {
            for (String command : COMMANDS) {
                running.put(command, start(command, CairnProcess.freePort()));
                kills.put(command, 0);
            }
            for (int t = 0; t < trials; t++) {
                String victim = COMMANDS.get(t % COMMANDS.size());
                List<Batch> batches;
                try (BatchLoad load = new BatchLoad(running.get("ingest").url(), authorization, WRITERS,
                        random.nextLong(), false)) {
                    Thread.sleep(300 + random.nextInt(1200));
                    CairnProcess killed = running.get(victim);
                    killed.close(); // kill -9, mid-batch, mid-transaction or mid-page for whatever it was doing
                    running.put(victim, start(victim, killed.port()));
                    Thread.sleep(300); // writes go through the restarted process, or past it
                    batches = load.stop();
                }
                kills.merge(victim, 1, Integer::sum);
                audit.audit(running.get("query").url(), batches);
            }
            for (CairnProcess p : running.values()) {
                p.stop();
            }
        } finally {
            for (CairnProcess p : running.values()) {
                p.close();
            }
        }
        List<String> counts = new ArrayList<>();
        kills.forEach((command, n) -> counts.add(command + " " + n));
        return List.of(audit.row(dialect, "split processes, " + trials + " trials of kill -9 of one under load (batches"
                        + " of 1 and 100; killed: " + String.join(", ", counts) + "), restarted, read through query"),
                ReplayComparison.row(dialect, data, db, "after the split trials"));
    }

    private CairnProcess start(String command, int port) throws Exception {
        return CairnProcess.start(command, port, data, Invariants.CREDENTIAL, settings);
    }
}
