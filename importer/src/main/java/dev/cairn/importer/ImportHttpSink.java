package dev.cairn.importer;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.cairn.auth.KeyAndSecret;
import dev.cairn.xapi.ParsedStatement;
import dev.cairn.xapi.XapiVersion;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * Hands batches to the running ingest (which holds the log's writer lock) as POST /statements with
 * {@code X-Cairn-Ack: durable}: its sequencer decides them, and the answer comes once they are synced. Statements
 * are sent as the import read them, with the deterministic ids the import gave those without one.
 */
final class ImportHttpSink implements ImportSink {
    private static final JsonFactory JSON = new JsonFactory();
    private static final int BUSY_RETRIES = 60;

    private final HttpClient client;
    private final URI statements;
    private final String authorization;
    private final XapiVersion version;

    /**
     * @param endpoint   the xAPI base URL of the ingest, such as http://127.0.0.1:8080/xapi
     * @param credential a credential that may write statements; its authority is stamped
     */
    ImportHttpSink(HttpClient client, URI endpoint, KeyAndSecret credential, XapiVersion version) {
        this.client = client;
        this.statements = URI.create(endpoint.toString().replaceAll("/+$", "") + "/statements");
        this.authorization = credential.authorization();
        this.version = version;
    }

    @Override
    public Pending submit(List<ParsedStatement> batch) {
        HttpRequest request = HttpRequest.newBuilder(statements)
                .timeout(Duration.ofMinutes(5))
                .header("Content-Type", "application/json")
                .header("X-Experience-API-Version", version.header())
                .header("X-Cairn-Ack", "durable")
                .header("Authorization", authorization)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body(batch)))
                .build();
        CompletableFuture<HttpResponse<byte[]>> response = client.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray());
        return () -> settle(request, response, batch.size());
    }

    /** The batch as one JSON array of the statements' own bytes. */
    private static byte[] body(List<ParsedStatement> batch) {
        int size = 1 + batch.size();
        for (ParsedStatement p : batch) {
            size += p.source().length;
        }
        byte[] body = new byte[size];
        int at = 0;
        body[at++] = '[';
        for (ParsedStatement p : batch) {
            if (at > 1) {
                body[at++] = ',';
            }
            System.arraycopy(p.source(), 0, body, at, p.source().length);
            at += p.source().length;
        }
        body[at] = ']';
        return body;
    }

    private Outcome settle(HttpRequest request, CompletableFuture<HttpResponse<byte[]>> pending, int size)
            throws InterruptedException {
        HttpResponse<byte[]> r = await(pending);
        for (int retry = 0; r.statusCode() == 503 && retry < BUSY_RETRIES; retry++) {
            Thread.sleep(1000); // the ingest's ring is full: it says to retry shortly
            r = await(client.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray()));
        }
        int status = r.statusCode();
        if (status == 200) {
            return new Outcome.Stored(size, 0);
        }
        Error e = error(r.body());
        if (status == 409 && e.where.startsWith("statement ")) {
            return new Outcome.Conflict(UUID.fromString(e.where.substring("statement ".length())), e.message);
        }
        if (status == 400 && e.where.startsWith("$[")) {
            int close = e.where.indexOf(']');
            return new Outcome.Invalid(Integer.parseInt(e.where.substring(2, close)), "$" + e.where.substring(close + 1),
                    e.message);
        }
        String hint = switch (status) {
            case 401 -> " (is the credential right?)";
            case 403 -> " (the credential needs the statements/write or all scope)";
            case 413 -> " (use a smaller --batch)";
            default -> "";
        };
        throw new ImportFailedException("the ingest at " + statements + " answered " + status + hint + ": "
                + (e.message.isEmpty() ? new String(r.body(), StandardCharsets.UTF_8) : e.message));
    }

    private HttpResponse<byte[]> await(CompletableFuture<HttpResponse<byte[]>> pending) throws InterruptedException {
        try {
            return pending.get();
        } catch (ExecutionException e) {
            throw new ImportFailedException("cannot reach the ingest at " + statements + ": " + e.getCause(), e.getCause());
        }
    }

    private record Error(String where, String message) {
    }

    /** The {@code where} and {@code message} of a Cairn error body; empty strings when it is not one. */
    private static Error error(byte[] body) {
        String where = "";
        String message = "";
        try (JsonParser p = JSON.createParser(body)) {
            if (p.nextToken() == JsonToken.START_OBJECT) {
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String name = p.currentName();
                    p.nextToken();
                    if (name.equals("where")) {
                        where = p.getValueAsString("");
                    } else if (name.equals("message")) {
                        message = p.getValueAsString("");
                    } else {
                        p.skipChildren();
                    }
                }
            }
        } catch (IOException e) {
            // not JSON: the caller shows the raw body
        }
        return new Error(where, message);
    }

    @Override
    public boolean countsPresent() {
        return false;
    }

    @Override
    public String describe() {
        return "through the running ingest at " + statements + " (it holds the log)";
    }

    @Override
    public void close() {
        // HttpClient has no close before Java 21; its threads are daemons
    }
}
