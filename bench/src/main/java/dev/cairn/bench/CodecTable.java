package dev.cairn.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * The codec table of the report: reads the JSON results of a JMH run of {@link XapiCodecBenchmark} ({@code -rf json
 * -prof gc}) and prints each operation beside its plain-Jackson baseline from the same run, with the design's
 * targets (docs: DESIGN "Performance targets").
 *
 * <pre>
 * java -jar bench/target/benchmarks.jar XapiCodecBenchmark -prof gc -rf json -rff codec.json
 * java -cp bench/target/benchmarks.jar dev.cairn.bench.CodecTable codec.json
 * </pre>
 */
public final class CodecTable {
    /** The bytes of {@code statement-1k.json}, the statement every codec benchmark reads or writes. */
    private static final int STATEMENT_BYTES = 1_202;

    private record Score(double nanos, double error, double bytes) {
    }

    /** One row: an operation, its baseline, and the most the ratio of their times may be (0: no target). */
    private record Row(String operation, String label, String baseline, double target) {
    }

    private static final Row[] ROWS = {
        new Row("parse", "parse + validate one statement", "tokenize", 2.0),
        new Row("parseBatch100", "parse + validate a batch of 100", "tokenizeBatch100", 2.0),
        new Row("validateReject", "refuse at the last property (400 with path)", "tokenize", 0),
        new Row("writeExact", "write one statement as stored (exact)", "copyTokens", 1.1),
        new Row("writeExactBatch100", "write 100 statements, exact", "copyTokensBatch100", 1.1),
        new Row("writeIds", "write one statement, format=ids", "copyTokens", 0),
        new Row("writeIdsBatch100", "write 100 statements, format=ids", "copyTokensBatch100", 0),
        new Row("equivalence", "statement equivalence (Data 2.3.1)", "compareTokens", 0),
    };

    private CodecTable() {
    }

    public static void main(String[] args) throws IOException {
        Map<String, Score> scores = read(Path.of(args[0]));
        System.out.println("| operation | ns/op | B/op | Jackson baseline (same run) | baseline ns/op | ratio | target |");
        System.out.println("|---|---:|---:|---|---:|---:|---|");
        for (Row r : ROWS) {
            Score op = scores.get(r.operation());
            Score base = scores.get(r.baseline());
            if (op == null || base == null) {
                continue;
            }
            double ratio = op.nanos() / base.nanos();
            String target = r.target() == 0 ? "" : String.format("≤ %.1f× %s", r.target(), ratio <= r.target() ? "✅" : "❌");
            System.out.printf("| %s | %s | %,.0f | %s | %s | **%.2f×** | %s |%n", r.label(), time(op), op.bytes(),
                    r.baseline(), time(base), ratio, target);
        }
        for (String single : new String[] {"parse", "parseBatch100"}) {
            Score s = scores.get(single);
            if (s != null) {
                double perStatement = single.equals("parse") ? s.bytes() : s.bytes() / 100;
                double kbPerKb = perStatement / STATEMENT_BYTES;
                System.out.printf("%nAllocation of `%s`: %,.0f B per %,d-byte statement = %.2f KB per KB (target ≤ 2 %s)",
                        single, perStatement, STATEMENT_BYTES, kbPerKb, kbPerKb <= 2 ? "✅" : "❌");
            }
        }
        System.out.println();
    }

    /** The mean and JMH's 99.9% error, when it could compute one. */
    private static String time(Score s) {
        return Double.isFinite(s.error()) ? String.format("%,.0f ± %,.0f", s.nanos(), s.error())
                : String.format("%,.0f", s.nanos());
    }

    private static Map<String, Score> read(Path json) throws IOException {
        Map<String, Score> scores = new HashMap<>();
        for (JsonNode b : new ObjectMapper().readTree(Files.readAllBytes(json))) {
            String name = b.path("benchmark").asText();
            JsonNode primary = b.path("primaryMetric");
            double scale = switch (primary.path("scoreUnit").asText()) {
                case "ns/op" -> 1;
                case "us/op" -> 1_000;
                case "ms/op" -> 1_000_000;
                default -> throw new IllegalStateException(name + ": unit " + primary.path("scoreUnit").asText());
            };
            JsonNode alloc = b.path("secondaryMetrics").path("gc.alloc.rate.norm");
            scores.put(name.substring(name.lastIndexOf('.') + 1), new Score(primary.path("score").asDouble() * scale,
                    primary.path("scoreError").asDouble() * scale, alloc.path("score").asDouble(Double.NaN)));
        }
        return scores;
    }
}
