package dev.cairn.bench;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.cairn.xapi.StatementParser;
import dev.cairn.xapi.XapiVersion;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;

/**
 * {@link XapiCodecBenchmark}'s parse/tokenize ratio for a machine too busy for JMH, whose benchmarks run one
 * after the other, so that load arriving between them skews the ratio. This harness alternates short slices
 * (tokenize, parse, tokenize) in one JVM and reports the distribution of the per-slice ratios, each against the
 * mean of the tokenize slices around it.
 *
 * <pre>java -Xms1g -Xmx1g -cp bench/target/benchmarks.jar dev.cairn.bench.ParseRatio single|batch [slices]</pre>
 */
public final class ParseRatio {
    private static final JsonFactory FACTORY = new JsonFactory();
    private static long sink;

    private ParseRatio() {
    }

    public static void main(String[] args) throws IOException {
        byte[] statement = XapiCodecBenchmark.resource("/statement-1k.json");
        boolean batch = args.length > 0 && args[0].equals("batch");
        String one = new String(statement, StandardCharsets.UTF_8);
        byte[] in = batch ? ("[" + String.join(",", Collections.nCopies(100, one)) + "]").getBytes(StandardCharsets.UTF_8)
                : statement;
        int reps = batch ? 20 : 2000;
        int slices = args.length > 1 ? Integer.parseInt(args[1]) : 200;
        double[] ratios = new double[slices];
        for (int k = -100; k < slices; k++) {
            long t0 = System.nanoTime();
            tokenize(in, reps);
            long t1 = System.nanoTime();
            for (int i = 0; i < reps; i++) {
                sink += batch ? StatementParser.parseBatch(in, XapiVersion.V2_0_0).size()
                        : StatementParser.parseOne(in, XapiVersion.V2_0_0).members().length;
            }
            long t2 = System.nanoTime();
            tokenize(in, reps);
            long t3 = System.nanoTime();
            if (k >= 0) {
                ratios[k] = 2.0 * (t2 - t1) / ((t1 - t0) + (t3 - t2));
            }
        }
        Arrays.sort(ratios);
        System.out.printf("%s: parse/tokenize median %.3f (p25 %.3f, p75 %.3f) over %d slices%n", batch ? "batch" : "single",
                ratios[slices / 2], ratios[slices / 4], ratios[3 * slices / 4], slices);
    }

    /** XapiCodecBenchmark's tokenize baseline: every name, string and number materialized (into a sink). */
    private static void tokenize(byte[] json, int reps) throws IOException {
        for (int i = 0; i < reps; i++) {
            try (JsonParser p = FACTORY.createParser(json)) {
                JsonToken t;
                while ((t = p.nextToken()) != null) {
                    switch (t) {
                        case FIELD_NAME -> sink += p.currentName().hashCode();
                        case VALUE_STRING -> sink += p.getText().length();
                        case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> sink += p.getDecimalValue().scale();
                        default -> sink += t.ordinal();
                    }
                }
            }
        }
    }
}
