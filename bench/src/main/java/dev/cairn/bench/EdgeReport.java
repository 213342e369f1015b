package dev.cairn.bench;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The report's table of bad input and slow clients: on each dialect a fresh {@code cairn serve} in a process of its
 * own, then the fuzzer ({@link Fuzz}: {@code --requests} mutated requests) and the slow clients ({@link SlowClients})
 * against it. Prints the counts; the harnesses' whole output (every table, the failing requests to replay) goes to
 * {@code --out}. Exit code 1 when either found a failure.
 *
 * <pre>
 * java @jvm.options -cp bench/target/benchmarks.jar dev.cairn.bench.EdgeReport [--requests 10000] [--seed 19]
 *     [--connections 300] [--seconds 60] [--dialects sqlite,postgresql] [--out /tmp/cairn-edge]
 * </pre>
 */
public final class EdgeReport {
    private static final String CREDENTIAL = "edge:edge-report-secret";
    /** Short read deadlines, so a request whose body never ends is answered (408) within the fuzzer's timeout. */
    private static final Map<String, String> DEADLINES = Map.of("CAIRN_HEADER_TIMEOUT", "3000", "CAIRN_BODY_TIMEOUT",
            "5000");

    private EdgeReport() {
    }

    public static void main(String[] args) throws Exception {
        Options o = Options.parse(args, "requests", "10000", "seed", "19", "connections", "300", "seconds", "60",
                "dialects", "sqlite,postgresql", "out", "/tmp/cairn-edge");
        Path out = Path.of(o.value("out"));
        if (Files.exists(out)) {
            ProjectionBench.deleteTree(out);
        }
        boolean failed = false;
        System.out.println("| dialect | fuzzed requests | answers by status | failures (5xx, 4xx without the JSON error, "
                + "no answer, data changed) | server after | RSS before → after |");
        System.out.println("|---|---:|---|---:|---|---|");
        StringBuilder data = new StringBuilder();
        StringBuilder slow = new StringBuilder();
        for (String dialect : o.list("dialects")) {
            Path dir = Files.createDirectories(out.resolve(dialect));
            try (BenchDatabase db = BenchDatabase.create(dialect, dir, "edge");
                 CairnProcess server = CairnProcess.serve(dir.resolve("data"), CREDENTIAL,
                         merge(DEADLINES, Map.of("CAIRN_DB", db.url())))) {
                ByteArrayOutputStream full = new ByteArrayOutputStream();
                Fuzz.Report f;
                try (PrintStream log = new PrintStream(full, true, StandardCharsets.UTF_8)) {
                    f = Fuzz.run(new String[] {"--url", server.url(), "--credential", CREDENTIAL, "--pid",
                            String.valueOf(server.pid()), "--requests", o.value("requests"), "--seed", o.value("seed"),
                            "--timeout", "9000", "--out", dir.resolve("fuzz-failures").toString()}, log);
                }
                String fuzzOut = full.toString(StandardCharsets.UTF_8);
                Files.writeString(dir.resolve("fuzz.md"), fuzzOut);
                boolean alive = new ServerProbe(server.port(), CREDENTIAL, String.valueOf(server.pid())).alive();
                long requests = f.statuses.values().stream().mapToLong(Long::longValue).sum();
                StringBuilder statuses = new StringBuilder();
                f.statuses.forEach((s, n) -> statuses.append(statuses.length() == 0 ? "" : ", ").append(s < 0 ? "none" : s)
                        .append(": ").append(String.format("%,d", n)));
                System.out.printf("| %s | %,d | %s | **%,d** | %s | %s |%n", dialect, requests, statuses, f.failures(),
                        alive ? "up" : "DOWN", rss(f.memory));
                data.append("\n").append(dialect).append(": ").append(line(fuzzOut, "Data: ")).append('\n');
                failed |= f.failures() > 0 || !alive;

                full.reset();
                SlowClients.Report s;
                try (PrintStream log = new PrintStream(full, true, StandardCharsets.UTF_8)) {
                    s = SlowClients.run(new String[] {"--url", server.url(), "--credential", CREDENTIAL, "--pid",
                            String.valueOf(server.pid()), "--connections", o.value("connections"), "--seconds",
                            o.value("seconds"), "--interval", "1000", "--expect-closed-within", "8",
                            "--max-p99-ms", "1000"}, log);
                }
                String slowOut = full.toString(StandardCharsets.UTF_8);
                Files.writeString(dir.resolve("slow-clients.md"), slowOut);
                slow.append("\n**").append(dialect).append("**: ").append(o.value("connections"))
                        .append(" slow connections, one byte a second, for three fifths of ").append(o.value("seconds"))
                        .append(" s\n").append(tables(slowOut)).append(s.failures.isEmpty() ? "PASS"
                                : "FAIL: " + String.join("; ", s.failures)).append('\n');
                failed |= !s.failures.isEmpty();
            }
        }
        System.out.print(data);
        System.out.println();
        System.out.print(slow);
        System.out.println();
        System.out.println("Whole output (every table by resource and mutation, failing requests to replay): " + out);
        System.exit(failed ? 1 : 0);
    }

    private static Map<String, String> merge(Map<String, String> a, Map<String, String> b) {
        java.util.HashMap<String, String> m = new java.util.HashMap<>(a);
        m.putAll(b);
        return m;
    }

    /** The RSS figures of the fuzzer's "Server memory before/after" lines. */
    private static String rss(List<String> memory) {
        StringBuilder b = new StringBuilder();
        for (String m : memory) {
            int i = m.indexOf("RSS ");
            // up to the unit: the figure itself may hold a thousands separator ("RSS 1,026 MiB, heap ...")
            b.append(b.length() == 0 ? "" : " → ").append(i < 0 ? "?" : m.substring(i + 4, m.indexOf(" MiB", i) + 4));
        }
        return b.toString();
    }

    private static String line(String text, String prefix) {
        return text.lines().filter(l -> l.startsWith(prefix)).findFirst().orElse(prefix + "(not printed)");
    }

    /** The markdown tables and memory lines of a harness's output, without its progress lines. */
    private static String tables(String text) {
        StringBuilder b = new StringBuilder();
        for (String l : text.lines().toList()) {
            if (l.startsWith("|") || l.startsWith("Server memory") || l.isEmpty()) {
                b.append(l).append('\n');
            }
        }
        return b.toString().replaceAll("\n{3,}", "\n\n");
    }
}
