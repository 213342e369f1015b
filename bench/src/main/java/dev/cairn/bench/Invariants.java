package dev.cairn.bench;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The invariant table (issue 19): each check against a real {@code cairn serve} in a process of its own, over HTTP,
 * on every dialect, printed as "check — expected — observed — ✅/❌". Exit code 1 when a row does not hold.
 *
 * <pre>
 * java @jvm.options -cp bench/target/benchmarks.jar dev.cairn.bench.Invariants [--dialects sqlite,postgresql]
 *     [--clients 40] [--increments 10] [--racers 16] [--trials 20] [--seed 19]
 * </pre>
 * PostgreSQL databases are made and dropped on the server {@code CAIRN_BENCH_POSTGRES} names (default: the local one).
 */
public final class Invariants {
    private static final String CREDENTIAL = "invariants:invariants-secret-1";

    private Invariants() {
    }

    public static void main(String[] args) throws Exception {
        List<InvariantRow> rows = run(args, System.out);
        System.exit(rows.stream().allMatch(InvariantRow::holds) ? 0 : 1);
    }

    /** Runs every check on every dialect named and prints the table; returns its rows. */
    static List<InvariantRow> run(String[] args, PrintStream out) throws Exception {
        Options o = Options.parse(args, "dialects", "sqlite,postgresql", "clients", "40", "increments", "10", "racers",
                "16", "trials", "20", "seed", "19");
        out.println(Machine.describe());
        Path dir = Files.createTempDirectory("cairn-invariants");
        List<InvariantRow> rows = new ArrayList<>();
        for (String dialect : o.list("dialects")) {
            try (BenchDatabase db = BenchDatabase.create(dialect, dir, "invariants");
                 CairnProcess server = CairnProcess.serve(dir.resolve(dialect), CREDENTIAL, Map.of("CAIRN_DB", db.url()))) {
                ConcurrentWrites writes = new ConcurrentWrites(server.url(), CREDENTIAL, dialect);
                rows.add(writes.documentCounter(o.intValue("clients"), o.intValue("increments"), true));
                rows.add(writes.documentCounter(o.intValue("clients"), o.intValue("increments"), false));
                rows.add(writes.statementIdRace(o.intValue("racers"), false));
                rows.add(writes.statementIdRace(o.intValue("racers"), true));
            }
            for (String ack : List.of("durable", "visible")) {
                String name = dialect + "-" + ack;
                try (BenchDatabase db = BenchDatabase.create(dialect, dir, "durability_" + ack)) {
                    rows.addAll(new DurabilityTrials(dir.resolve(name), db.url(), CREDENTIAL, dialect)
                            .run(ack, o.intValue("trials"), o.longValue("seed")));
                }
            }
        }
        out.println(InvariantRow.HEADER);
        rows.forEach(r -> out.println(r.line()));
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        }
        return rows;
    }
}
