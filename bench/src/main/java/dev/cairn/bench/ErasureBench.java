package dev.cairn.bench;

import dev.cairn.ops.Main;
import dev.cairn.store.Database;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import picocli.CommandLine;

/**
 * {@code cairn erase} of one person, then of a batch of people, from stores of N ~1 KB statements (issue 22): each
 * store is imported fresh (in process, entries of 2,000 statements) and its tables projected ({@code cairn replay}),
 * with one person, Ada, the actor of 1,000 statements spread evenly through it, 100 visitors the actors of 10 each
 * (as many between them as Ada's) and 5,000 learners of the rest; then {@code cairn erase --agent ...} runs in a child
 * JVM as an operator runs it, timed from its start to its exit (JVM start included), with its own account of where the
 * time went: of Ada, of the visitors in one pass (what a batch adds to one erasure: the goal), and of 100 learners in
 * one pass (N / 5,000 statements each, so the rows and slots it changes grow with N); last, a retention period's erasure removes what is left of the {@value
 * #OLD_STATEMENTS} statements imported before the rest (their learners keep later statements, so names stay). A person's erasure reads the whole log for their identifying strings and
 * changes only the table rows and the log bytes that held them (docs/erasure.md); with Ada in every one of the
 * import's large entries (1,000,000 statements) or every fifth (10,000,000), those entries are all decoded and
 * planned to change one statement each: the worst case for a store loaded in bulk. The goal is set at 10,000,000 statements. Disk written is what the data
 * disk's counters ({@code /proc/diskstats}) moved meanwhile, after a {@code sync}; what an erasure reads is given as
 * the log's size, which it reads whole (mostly from the page cache right after the import).
 *
 * <pre>
 * java FLAGS -cp bench/target/benchmarks.jar dev.cairn.bench.ErasureBench
 *     [--stores sqlite:1000000,sqlite:10000000,postgresql:1000000] [--batch 100] [--dir DIR]
 * </pre>
 */
public final class ErasureBench {
    private static final String ADA = "mailto:ada@example.com";
    private static final int ADA_STATEMENTS = 1_000;
    /** Statements imported before the retention's time, which its erasure removes (those the batch left). */
    private static final int OLD_STATEMENTS = 1_000;
    /** The learners of the generated statements (as in ImportBenchmark): the batch erases the first ones. */
    private static final int LEARNERS = 5_000;
    private static final Pattern COUNTS = Pattern.compile("erasing: (\\d+) statements removed, (\\d+) rewritten");
    private static final Pattern PARTS = Pattern.compile("planned in ([0-9.]+) s, (.*?) in ([0-9.]+) s, log rewritten in "
            + "([0-9.]+) s");
    /** One erasure costs well under a minute at 10,000,000 statements (issue 22). */
    private static final double GOAL_SECONDS = 60;
    private static final int GOAL_STATEMENTS = 10_000_000;
    /** A batch of 100 erasures costs "not much more than one" (issue 22): at most this many times one. */
    private static final double BATCH_GOAL = 2;

    private ErasureBench() {
    }

    public static void main(String[] args) throws Exception {
        Options o = Options.parse(args, "stores", "sqlite:1000000,sqlite:10000000,postgresql:1000000", "batch", "100",
                "dir", "");
        PrintStream table = System.out;
        System.setOut(System.err); // the imports' and erasures' own output goes to standard error
        System.err.println(Machine.describe());
        Path base = o.value("dir").isEmpty() ? Files.createTempDirectory("cairn-erasure-bench") : Path.of(o.value("dir"));
        int batch = o.intValue("batch");
        table.println("| database | statements in the store | erased | statements removed | seconds | of which: log read "
                + "and planned · tables · log rewritten | disk written | log read | goal |");
        table.println("|---|---:|---|---:|---:|---|---:|---:|---|");
        for (String store : o.list("stores")) {
            String dialect = store.substring(0, store.indexOf(':'));
            int n = Integer.parseInt(store.substring(store.indexOf(':') + 1));
            Path dir = base.resolve(dialect + "-" + n);
            delete(dir);
            Files.createDirectories(dir.resolve("log"));
            try (BenchDatabase db = BenchDatabase.create(dialect, dir, "erasure")) {
                String retention = load(dir, db.url(), n, batch);
                long logBytes = size(dir.resolve("log"));
                Erasure one = erase(dir, db.url(), agents(List.of(ADA)));
                String goal = n == GOAL_STATEMENTS ? String.format("< %.0f s %s", GOAL_SECONDS,
                        one.seconds() < GOAL_SECONDS ? "✅" : "❌") : String.format("(set at %,d)", GOAL_STATEMENTS);
                table.printf("| %s | %,d | one person (%,d statements) | %,d | %.1f | %s | %s | %s | %s |%n", dialect, n,
                        ADA_STATEMENTS, one.removed(), one.seconds(), one.parts(), mib(one.written()), mib(logBytes),
                        goal);
                List<String> visitors = new ArrayList<>();
                List<String> learners = new ArrayList<>();
                for (int i = 0; i < batch; i++) {
                    visitors.add(visitor(i));
                    learners.add(learner(i));
                }
                Erasure few = erase(dir, db.url(), agents(visitors));
                double ratio = few.seconds() / one.seconds();
                table.printf("| %s | %,d | %d people in one pass, %,d statements between them | %,d | %.1f (%.2f× one) | "
                                + "%s | %s | %s | ≤ %.0f× one %s |%n", dialect, n, batch, ADA_STATEMENTS, few.removed(),
                        few.seconds(), ratio, few.parts(), mib(few.written()), mib(logBytes), BATCH_GOAL,
                        ratio <= BATCH_GOAL ? "✅" : "❌");
                Erasure many = erase(dir, db.url(), agents(learners));
                table.printf("| %s | %,d | %d people in one pass, %,d statements each | %,d | %.1f (%.2f× one) | %s | %s | "
                                + "%s | (none set) |%n", dialect, n, batch, n / LEARNERS, many.removed(), many.seconds(),
                        many.seconds() / one.seconds(), many.parts(), mib(many.written()), mib(logBytes));
                Erasure old = erase(dir, db.url(), List.of("--stored-before", retention));
                table.printf("| %s | %,d | stored before a time (the first %,d imported) | %,d | %.1f | %s | %s | %s | "
                        + "(none set) |%n", dialect, n, OLD_STATEMENTS, old.removed(), old.seconds(), old.parts(),
                        mib(old.written()), mib(logBytes));
            } finally {
                delete(dir);
            }
        }
        if (o.value("dir").isEmpty()) {
            delete(base);
        }
    }

    private static String visitor(int i) {
        return "mailto:visitor-" + i + "@example.com";
    }

    private static String learner(int i) {
        return "mailto:learner-" + i + "@example.com";
    }

    /**
     * Imports {@code n} statements into a new store: first {@value #OLD_STATEMENTS} of the learners', then the rest,
     * Ada's every (n / 1,000)th, halfway between two of hers one of the {@code visitors}' in turn (1,000 in all), and the
     * others the learners' in turn; returns a time between the two imports.
     */
    private static String load(Path dir, String db, int n, int visitors) throws IOException, InterruptedException {
        Database.open(db).close(); // an import adds to an existing LRS: create its schema, as serve would
        importStatements(dir, db, OLD_STATEMENTS, i -> learner(i % LEARNERS));
        Thread.sleep(10); // stored times have milliseconds: the retention's time falls strictly between the imports
        String between = Instant.now().toString();
        Thread.sleep(10);
        int every = Math.max(1, (n - OLD_STATEMENTS) / ADA_STATEMENTS);
        importStatements(dir, db, n - OLD_STATEMENTS, i -> i / every >= ADA_STATEMENTS ? learner(i % LEARNERS)
                : i % every == 0 ? ADA : i % every == every / 2 ? visitor(i / every % visitors) : learner(i % LEARNERS));
        // An import only appends to the log: the tables are projected as a running Cairn's would be, so that the
        // erasure changes (and reads) the rows a store in use holds
        long start = System.nanoTime();
        int exit = new CommandLine(new Main()).execute("replay", "--data", dir.toString(), "--db", db);
        if (exit != 0) {
            throw new IllegalStateException("cairn replay exited with " + exit);
        }
        System.err.printf("projected %,d statements in %.1f s%n", n, (System.nanoTime() - start) / 1e9);
        return between;
    }

    private static void importStatements(Path dir, String db, int n, IntFunction<String> actor) throws IOException {
        Path file = dir.resolve("statements.ndjson");
        ImportBenchmark.generate(file, n, actor);
        long start = System.nanoTime();
        int exit = new CommandLine(new Main()).execute("import", "--data", dir.toString(), "--db", db,
                "--admin-credential", "bench:bench-secret", "--batch", "2000", file.toString());
        if (exit != 0) {
            throw new IllegalStateException("cairn import exited with " + exit);
        }
        Files.delete(file);
        System.err.printf("imported %,d statements in %.1f s%n", n, (System.nanoTime() - start) / 1e9);
    }

    /** @param parts where its time went, as it said: the log's reading, the tables' change, the log's rewrite */
    private record Erasure(long removed, double seconds, long written, String parts) {
    }

    /** The options of {@code cairn erase} that name {@code people} by mbox. */
    private static List<String> agents(List<String> people) {
        List<String> options = new ArrayList<>();
        for (String mbox : people) {
            options.addAll(List.of("--agent", "{\"mbox\":\"" + mbox + "\"}"));
        }
        return options;
    }

    /** Runs {@code cairn erase} with {@code what} it erases in a child JVM to its end. */
    private static Erasure erase(Path dir, String db, List<String> what) throws IOException, InterruptedException {
        List<String> args = new ArrayList<>(List.of("erase", "--data", dir.toString(), "--db", db));
        args.addAll(what);
        Path output = Files.createTempFile(dir, "erase-", ".out");
        // The import's dirty pages go to the disk first, so the counter over the erasure counts the erasure's writes
        if (new ProcessBuilder("sync").inheritIO().start().waitFor() != 0) {
            throw new IllegalStateException("sync failed");
        }
        long writtenBefore = DiskCounters.bytesWritten(dir);
        long start = System.nanoTime();
        int exit = CairnProcess.run(output, Map.of(), args.toArray(String[]::new));
        double seconds = (System.nanoTime() - start) / 1e9;
        long written = DiskCounters.bytesWritten(dir) - writtenBefore;
        String printed = Files.readString(output);
        System.err.print(printed);
        Matcher m = COUNTS.matcher(printed);
        if (exit != 0 || !m.find()) {
            throw new IllegalStateException("cairn erase exited " + exit + ":\n" + printed);
        }
        Matcher p = PARTS.matcher(printed);
        String parts = p.find() ? String.format("%s · %s (%s) · %s", p.group(1), p.group(3), p.group(2), p.group(4)) : "?";
        return new Erasure(Long.parseLong(m.group(1)), seconds, written, parts);
    }

    private static String mib(long bytes) {
        return bytes < 0 ? "?" : String.format("%,.0f MiB", bytes / 1048576.0);
    }

    private static long size(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
        }
    }

    private static void delete(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
