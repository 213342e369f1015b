package dev.cairn.http;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.undertow.server.HttpServerExchange;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/** Answers of the administrative API (not xAPI): one JSON object, its fields written by the caller. */
public final class JsonResponses {
    private static final JsonFactory JSON = new JsonFactory();

    /** Writes an object's fields. */
    public interface Fields {
        void write(JsonGenerator g) throws IOException;
    }

    private JsonResponses() {
    }

    /** Answers {@code status} with a JSON object of {@code fields}. */
    public static void object(HttpServerExchange exchange, int status, Fields fields) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        try (JsonGenerator g = JSON.createGenerator(out)) {
            g.writeStartObject();
            fields.write(g);
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Responses.json(exchange, status, out.toByteArray());
    }
}
