package dev.cairn.bench;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The invariant table (issue 19): each check against real Cairn processes of their own, over HTTP, on every dialect,
 * printed as "check — expected — observed — ✅/❌". Exit code 1 when a row does not hold.
 *
 * <pre>
 * java @jvm.options -cp bench/target/benchmarks.jar dev.cairn.bench.Invariants [--dialects sqlite,postgresql]
 *     [--checks concurrency,durability,attachments,split,torn-tail,full-disk,wal-space,database-restart,mixed-rebuild,
 *     authentication,revocation,read-mine] [--clients 40] [--increments 10] [--racers 16] [--trials 20] [--rounds 20]
 *     [--seed 19] [--attempts 1000] [--guessers 48] [--mine-statements 20]
 * </pre>
 * PostgreSQL databases are made and dropped on the server {@code CAIRN_BENCH_POSTGRES} names (default: the local one),
 * except for the database-restart check, which starts a PostgreSQL server of its own. The full-disk and wal-space
 * checks mount a tmpfs, so they run as root.
 */
public final class Invariants {
    static final String CREDENTIAL = "invariants:invariants-secret-1";

    /** The groups of checks, by the name {@code --checks} gives them, in the table's order. */
    private static final Map<String, InvariantCheck> CHECKS = new LinkedHashMap<>();

    static {
        CHECKS.put("concurrency", ConcurrentWrites::check);
        CHECKS.put("durability", DurabilityTrials::check);
        CHECKS.put("attachments", DurabilityTrials::checkAttachments);
        CHECKS.put("split", SplitTrials::check);
        CHECKS.put("torn-tail", TornTailTrials::check);
        CHECKS.put("full-disk", FullDiskTrials::check);
        CHECKS.put("wal-space", WalSpace::check);
        CHECKS.put("database-restart", DatabaseRestartTrials::check);
        CHECKS.put("mixed-rebuild", MixedRebuild::check);
        CHECKS.put("authentication", PasswordGuessing::check);
        CHECKS.put("revocation", Revocation::check);
        CHECKS.put("read-mine", ReadMine::check);
    }

    private Invariants() {
    }

    public static void main(String[] args) throws Exception {
        List<InvariantRow> rows = run(args, System.out);
        System.exit(rows.stream().allMatch(InvariantRow::holds) ? 0 : 1);
    }

    /** Runs every check named on every dialect named and prints the table; returns its rows. */
    static List<InvariantRow> run(String[] args, PrintStream out) throws Exception {
        Options o = Options.parse(args, "dialects", "sqlite,postgresql", "checks", String.join(",", CHECKS.keySet()),
                "clients", "40", "increments", "10", "racers", "16", "trials", "20", "rounds", "20", "seed", "19",
                "attempts", "1000", "guessers", "48", "mine-statements", "20");
        for (String check : o.list("checks")) {
            if (!CHECKS.containsKey(check)) {
                throw new IllegalArgumentException("--checks: no check '" + check + "'; there are " + CHECKS.keySet());
            }
        }
        out.println(Machine.describe());
        Path dir = Files.createTempDirectory("cairn-invariants");
        List<InvariantRow> rows = new ArrayList<>();
        try {
            for (String dialect : o.list("dialects")) {
                for (String check : o.list("checks")) {
                    rows.addAll(runCheck(CHECKS.get(check), check, dialect, dir.resolve(dialect + "-" + check), o));
                }
            }
        } finally {
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
        out.println(InvariantRow.HEADER);
        rows.forEach(r -> out.println(r.line()));
        return rows;
    }

    /**
     * One group of checks on one dialect. A group that cannot finish (a process that does not start, say) is a row
     * that does not hold, saying why, and the groups after it still run: the table shows every check it could make.
     */
    static List<InvariantRow> runCheck(InvariantCheck group, String name, String dialect, Path dir, Options o) {
        try {
            return group.run(dialect, dir, o);
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            e.printStackTrace(); // the whole trace in the harness's error stream, its message in the row
            return List.of(new InvariantRow(dialect, name, "the checks run to their end", "stopped: "
                    + InvariantRow.excerpt(e.getClass().getSimpleName() + ": " + e.getMessage()), false));
        }
    }
}
