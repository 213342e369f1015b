package dev.cairn.bench;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import dev.cairn.xapi.Equivalence;
import dev.cairn.xapi.ExactWriter;
import dev.cairn.xapi.IdsWriter;
import dev.cairn.xapi.ParsedStatement;
import dev.cairn.xapi.Statement;
import dev.cairn.xapi.StatementParser;
import dev.cairn.xapi.XapiException;
import dev.cairn.xapi.XapiVersion;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The xapi codec beside plain-Jackson baselines over the same bytes, so that ratios measured in one run cancel
 * the machine's speed out. The statement is {@code statement-1k.json} (1.2 KB: named agent, verb with display,
 * activity with definition, scored result, context with registration, parent and category); a batch is 100 of
 * them in one JSON array. Method names pair each operation with its baseline:
 * <ul>
 *   <li>{@code parse*}: parse and validate into the model, vs {@code tokenize*} (Jackson reads every token, every
 *       string and number). Target ≤ 2.0×, ≤ 2 KB allocated per 1 KB statement.</li>
 *   <li>{@code writeExact*} and {@code writeIds*}: the stored form and the ids form, vs {@code copyTokens*} (every
 *       token copied to a Jackson generator). Target for exact ≤ 1.1×.</li>
 *   <li>{@code validateReject}: a statement with a bad value in its last property, vs {@code tokenize}: the cost of a
 *       400 with its path, code and message.</li>
 *   <li>{@code equivalence}: Data 2.3.1 comparison of two parsed models, vs {@code compareTokens} (two Jackson
 *       parsers compared token by token).</li>
 * </ul>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class XapiCodecBenchmark {
    private static final JsonFactory FACTORY = new JsonFactory();
    private static final UUID ID = UUID.fromString("00000000-0000-4000-8000-000000000001");
    private static final String STORED = "2026-05-01T12:00:01.234Z";
    private static final byte[] AUTHORITY = "{\"objectType\":\"Agent\",\"account\":{\"homePage\":\"https://lrs.example.com\",\"name\":\"key-1\"}}"
            .getBytes(StandardCharsets.UTF_8);

    byte[] statement;
    byte[] batch;
    byte[] invalid;
    byte[] other;
    ParsedStatement parsed;
    List<ParsedStatement> parsedBatch;
    byte[] exact;
    Statement exactModel;
    byte[][] exactBatch;
    Statement[] exactBatchModels;
    Statement a;
    Statement b;

    @Setup
    public void setup() {
        statement = resource("/statement-1k.json");
        String one = new String(statement, StandardCharsets.UTF_8);
        batch = ("[" + String.join(",", java.util.Collections.nCopies(100, one)) + "]").getBytes(StandardCharsets.UTF_8);
        invalid = one.replace("\"timestamp\":\"2026-05-01T12:00:00.000Z\"", "\"timestamp\":\"2026-05-01T25:00:00.000Z\"")
                .getBytes(StandardCharsets.UTF_8);
        other = statement.clone();
        parsed = StatementParser.parseOne(statement, XapiVersion.V2_0_0);
        parsedBatch = StatementParser.parseBatch(batch, XapiVersion.V2_0_0);
        exact = ExactWriter.write(parsed, ID, STORED, AUTHORITY, "2.0.0");
        exactModel = StatementParser.parseOne(exact, XapiVersion.V2_0_0).statement();
        exactBatch = new byte[parsedBatch.size()][];
        exactBatchModels = new Statement[parsedBatch.size()];
        for (int i = 0; i < exactBatch.length; i++) {
            exactBatch[i] = ExactWriter.write(parsedBatch.get(i), ID, STORED, AUTHORITY, "2.0.0");
            exactBatchModels[i] = StatementParser.parseOne(exactBatch[i], XapiVersion.V2_0_0).statement();
        }
        a = parsed.statement();
        b = StatementParser.parseOne(other, XapiVersion.V2_0_0).statement();
        try {
            StatementParser.parseOne(invalid, XapiVersion.V2_0_0);
            throw new IllegalStateException("the invalid statement was accepted");
        } catch (XapiException expected) {
            // the benchmark measures exactly this rejection
        }
    }

    // ---- parse + validate -------------------------------------------------------------------------------------

    @Benchmark
    public void tokenize(Blackhole bh) throws IOException {
        tokenize(statement, bh);
    }

    @Benchmark
    public ParsedStatement parse() {
        return StatementParser.parseOne(statement, XapiVersion.V2_0_0);
    }

    @Benchmark
    public void tokenizeBatch100(Blackhole bh) throws IOException {
        tokenize(batch, bh);
    }

    @Benchmark
    public List<ParsedStatement> parseBatch100() {
        return StatementParser.parseBatch(batch, XapiVersion.V2_0_0);
    }

    @Benchmark
    public XapiException validateReject() {
        try {
            StatementParser.parseOne(invalid, XapiVersion.V2_0_0);
            return null;
        } catch (XapiException e) {
            return e;
        }
    }

    // ---- writers ----------------------------------------------------------------------------------------------

    @Benchmark
    public byte[] copyTokens() throws IOException {
        return copyTokens(statement);
    }

    @Benchmark
    public byte[] writeExact() {
        return ExactWriter.write(parsed, ID, STORED, AUTHORITY, "2.0.0");
    }

    @Benchmark
    public byte[] writeIds() {
        return IdsWriter.write(exact, exactModel);
    }

    @Benchmark
    public byte[] copyTokensBatch100() throws IOException {
        return copyTokens(batch);
    }

    @Benchmark
    public void writeExactBatch100(Blackhole bh) {
        for (ParsedStatement p : parsedBatch) {
            bh.consume(ExactWriter.write(p, ID, STORED, AUTHORITY, "2.0.0"));
        }
    }

    @Benchmark
    public void writeIdsBatch100(Blackhole bh) {
        for (int i = 0; i < exactBatch.length; i++) {
            bh.consume(IdsWriter.write(exactBatch[i], exactBatchModels[i]));
        }
    }

    // ---- equivalence ------------------------------------------------------------------------------------------

    @Benchmark
    public boolean compareTokens() throws IOException {
        try (JsonParser p = FACTORY.createParser(statement); JsonParser q = FACTORY.createParser(other)) {
            JsonToken t;
            while ((t = p.nextToken()) != null) {
                if (t != q.nextToken()) {
                    return false;
                }
                if (t.isScalarValue() || t == JsonToken.FIELD_NAME) {
                    if (!p.getText().equals(q.getText())) {
                        return false;
                    }
                }
            }
            return q.nextToken() == null;
        }
    }

    @Benchmark
    public boolean equivalence() {
        return Equivalence.equivalent(a, b);
    }

    // ---- baselines --------------------------------------------------------------------------------------------

    private static void tokenize(byte[] json, Blackhole bh) throws IOException {
        try (JsonParser p = FACTORY.createParser(json)) {
            JsonToken t;
            while ((t = p.nextToken()) != null) {
                switch (t) {
                    case FIELD_NAME -> bh.consume(p.currentName());
                    case VALUE_STRING -> bh.consume(p.getText());
                    case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> bh.consume(p.getDecimalValue());
                    default -> bh.consume(t);
                }
            }
        }
    }

    private static byte[] copyTokens(byte[] json) throws IOException {
        ByteArrayBuilder out = new ByteArrayBuilder(json.length + 64);
        try (JsonParser p = FACTORY.createParser(json); JsonGenerator g = FACTORY.createGenerator(out)) {
            while (p.nextToken() != null) {
                g.copyCurrentEvent(p);
            }
        }
        return out.toByteArray();
    }

    static byte[] resource(String name) {
        try (InputStream in = XapiCodecBenchmark.class.getResourceAsStream(name)) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
