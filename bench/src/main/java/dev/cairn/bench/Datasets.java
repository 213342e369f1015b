package dev.cairn.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds or drops the HTTP benchmarks' data sets ahead of a run (building the large ones takes longest).
 *
 * <pre>
 * java $CHRONICLE_FLAGS -cp bench/target/benchmarks.jar dev.cairn.bench.Datasets \
 *     --data /tmp/cairn-bench-data --sets sqlite:10:1000000,postgresql:0:10000 [--drop true]
 * </pre>
 * Each set is DIALECT:PERCENT_STATEMENTREFS:STATEMENTS.
 */
public final class Datasets {
    private Datasets() {
    }

    public static void main(String[] args) throws Exception {
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        Options o = Options.parse(args, "data", "/tmp/cairn-bench-data", "sets", "", "drop", "false");
        Path base = Path.of(o.value("data"));
        List<Dataset> sets = parse(base, o.list("sets"));
        if (Boolean.parseBoolean(o.value("drop"))) {
            for (Dataset d : sets) {
                d.database(false).drop();
            }
            if (Files.exists(base)) {
                ProjectionBench.deleteTree(base);
            }
            return;
        }
        for (Dataset d : sets) {
            d.ensure();
        }
    }

    static List<Dataset> parse(Path base, List<String> specs) {
        List<Dataset> out = new ArrayList<>();
        for (String spec : specs) {
            String[] p = spec.split(":");
            if (p.length != 3) {
                throw new IllegalArgumentException("data set '" + spec + "' is not DIALECT:PERCENT_REFS:STATEMENTS");
            }
            out.add(new Dataset(base, p[0], Integer.parseInt(p[1]) / 100.0, Long.parseLong(p[2])));
        }
        return out;
    }
}
