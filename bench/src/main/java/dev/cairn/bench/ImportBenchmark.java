package dev.cairn.bench;

import dev.cairn.ops.Main;
import dev.cairn.store.Database;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.UUID;
import java.util.function.IntFunction;
import java.util.stream.Stream;
import picocli.CommandLine;

/**
 * {@code cairn import} of an NDJSON file into a fresh SQLite database and log, in process (no ingest runs, so the
 * import is the sequencer): generates N statements of about 1 KB each (the codec benchmark's statement with a fresh
 * id, learner and activity per line), imports a smaller file first to warm the JIT, then times the real one. Run
 * from the repository root, it then also times {@code ./cairn import} of the same file in a new JVM, as an operator
 * runs it (JVM start-up and JIT warm-up included).
 *
 * <pre>
 * mvn -q -o -DskipTests package -pl bench -am
 * java FLAGS -XX:+UseParallelGC -cp bench/target/benchmarks.jar dev.cairn.bench.ImportBenchmark [N] [DIR]
 * </pre>
 * where FLAGS are {@code @jvm.options} (Chronicle's flags, in the file at the root) and the collector is the one the
 * {@code cairn} launcher gives {@code import}. N defaults to 1,000,000; without DIR a temporary directory is used
 * and deleted.
 */
public final class ImportBenchmark {
    private ImportBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        Path dir = args.length > 1 ? Path.of(args[1]) : Files.createTempDirectory("cairn-import-bench");
        // the table goes to standard output; the import's own progress lines to standard error
        PrintStream table = System.out;
        System.setOut(System.err);
        System.err.println(Machine.describe());
        try {
            run(dir.resolve("warmup"), Math.max(1, n / 5), "warm-up");
            double seconds = run(dir.resolve("measured"), n, "measured");
            table.println("| run | statements | seconds | statements/s | target |");
            table.println("|---|---:|---:|---:|---|");
            table.printf("| `cairn import` in process, after a warm-up import of %,d | %,d | %.2f | **%,.0f** | ≥ 100,000 %s |%n",
                    Math.max(1, n / 5), n, seconds, n / seconds, n / seconds >= 100_000 ? "✅" : "❌");
            Path launcher = Path.of("cairn");
            if (Files.isExecutable(launcher)) {
                double cold = runLauncher(launcher, dir.resolve("measured").resolve("statements.ndjson"),
                        dir.resolve("cold"));
                table.printf("| `./cairn import` in a new JVM (start-up and JIT included) | %,d | %.2f | %,.0f | |%n", n,
                        cold, n / cold);
            }
        } finally {
            if (args.length <= 1) {
                delete(dir);
            }
        }
    }

    /** Imports {@code n} fresh statements into a fresh LRS in {@code dir}; returns the seconds it took. */
    private static double run(Path dir, int n, String label) throws IOException {
        Files.createDirectories(dir.resolve("log"));
        String db = "jdbc:sqlite:" + dir.resolve("cairn.db");
        Database.open(db).close(); // an import adds to an existing LRS: create its schema, as serve would
        Path file = dir.resolve("statements.ndjson");
        long bytes = generate(file, n, i -> "mailto:learner-" + (i % 5000) + "@example.com");
        System.err.printf("%s: %,d statements, %,d bytes (%,d per statement) in %s%n", label, n, bytes, bytes / n, file);
        long start = System.nanoTime();
        int exit = new CommandLine(new Main()).execute("import", "--data", dir.toString(), "--admin-credential",
                "bench:bench-secret", "--batch", "2000", file.toString());
        double seconds = (System.nanoTime() - start) / 1e9;
        if (exit != 0) {
            throw new IllegalStateException("cairn import exited with " + exit);
        }
        System.err.printf("%s: cairn import took %.2f s in all (structure check, credential, parse, sequencer, "
                + "sync): %,.0f statements/s%n", label, seconds, n / seconds);
        return seconds;
    }

    /**
     * Times {@code ./cairn import} of {@code file} as an operator runs it: a new JVM with the launcher's flags, into a
     * fresh LRS in {@code dir}; returns the seconds of its wall time.
     */
    private static double runLauncher(Path launcher, Path file, Path dir) throws IOException, InterruptedException {
        Files.createDirectories(dir.resolve("log"));
        Database.open("jdbc:sqlite:" + dir.resolve("cairn.db")).close();
        long start = System.nanoTime();
        Process p = new ProcessBuilder(launcher.toAbsolutePath().toString(), "import", "--data", dir.toString(), "--admin-credential",
                "bench:bench-secret", "--batch", "2000", file.toString()).redirectErrorStream(true).start();
        p.getInputStream().transferTo(System.err);
        int exit = p.waitFor();
        double seconds = (System.nanoTime() - start) / 1e9;
        if (exit != 0) {
            throw new IllegalStateException("./cairn import exited with " + exit);
        }
        System.err.printf("cold: ./cairn import took %.2f s in all%n", seconds);
        return seconds;
    }

    /**
     * Writes {@code n} statements of about 1 KB to {@code file} as NDJSON, each with a fresh id, statement {@code i}'s
     * actor the mbox {@code learner.apply(i)}, and one of 200 activities; returns the bytes written.
     */
    static long generate(Path file, int n, IntFunction<String> learner) throws IOException {
        String template;
        try (InputStream in = ImportBenchmark.class.getResourceAsStream("/statement-1k.json")) {
            template = new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
        }
        String id = "fd41c918-b88b-4b20-a0a5-a4c32391aaa0";
        String templateLearner = "mailto:learner@example.com";
        String activity = "http://example.com/courses/safety/module-3/lesson-7\"";
        long bytes = 0;
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 20)) {
            for (int i = 0; i < n; i++) {
                String line = template.replace(id, UUID.randomUUID().toString())
                        .replace(templateLearner, learner.apply(i))
                        .replace(activity, "http://example.com/courses/safety/module-3/lesson-" + (i % 200) + "\"") + "\n";
                byte[] b = line.getBytes(StandardCharsets.UTF_8);
                out.write(b);
                bytes += b.length;
            }
        }
        return bytes;
    }

    private static void delete(Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
