package dev.cairn.bench;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.cairn.xapi.ParsedStatement;
import dev.cairn.xapi.StatementParser;
import dev.cairn.xapi.XapiVersion;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Parsing and validating a ~1 KB statement into the model, beside the baseline of only tokenizing the same bytes
 * with Jackson (reading every string and number). Target: parse ≤ 2× tokenize.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class ParseBenchmark {
    private static final JsonFactory FACTORY = new JsonFactory();

    final byte[] statement = resource("/statement-1k.json");

    @Benchmark
    public void tokenizeBaseline(Blackhole bh) throws IOException {
        try (JsonParser p = FACTORY.createParser(statement)) {
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

    @Benchmark
    public ParsedStatement parseStrict() {
        return StatementParser.parseOne(statement, XapiVersion.V2_0_0);
    }

    static byte[] resource(String name) {
        try (InputStream in = ParseBenchmark.class.getResourceAsStream(name)) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
