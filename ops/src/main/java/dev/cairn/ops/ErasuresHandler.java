package dev.cairn.ops;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.cairn.erase.ErasurePlan;
import dev.cairn.erase.Erasures;
import dev.cairn.erase.OnlineErasure;
import dev.cairn.http.BodyReceiver;
import dev.cairn.http.ErrorPolicy;
import dev.cairn.http.Responses;
import dev.cairn.store.ErasureStore;
import dev.cairn.xapi.Ifi;
import dev.cairn.xapi.Timestamps;
import dev.cairn.xapi.XapiException;
import dev.cairn.xapi.XapiVersion;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The administrative API of erasure (not xAPI; for credentials with the {@code admin} scope), what {@code cairn erase}
 * does, in a running Cairn:
 * <ul>
 *   <li>{@code GET /admin/erasures}: every erasure recorded, oldest first (what was asked, as hashes, and counts);</li>
 *   <li>{@code POST /admin/erasures} with {@code {"agents": [Agent, ...], "dryRun": false}}: erases the people
 *   ({@link OnlineErasure}) and answers 200 with what was erased once no read returns it; 404 when nothing stored
 *   names them; 409 {@code erasure.offline} with the reason when the erasure must run with the processes stopped
 *   ({@code statementIds} and {@code storedBefore} are taken too, and always need that), or {@code erasure.running}
 *   while another one runs.</li>
 * </ul>
 * Bodies are at most {@value #MAX_BODY} bytes of {@code application/json}, read as every body is; every refusal names
 * the JSON path that is wrong.
 */
final class ErasuresHandler implements HttpHandler {
    static final String PATH = "/admin/erasures";
    static final int MAX_BODY = 64 * 1024;
    /** The most people one request erases (a batch shares one reading of the log and one transaction). */
    static final int MAX_PEOPLE = 1_000;
    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();
    private static final Set<String> FIELDS = Set.of("agents", "statementIds", "storedBefore", "dryRun");

    /** Runs an erasure in this process; null in a process that does not both ingest and project. */
    interface Eraser {
        OnlineErasure.Outcome erase(ErasurePlan.Request request, boolean dryRun) throws InterruptedException,
                ExecutionException;
    }

    private final ErasureStore store;
    private final Eraser eraser;
    private final XapiVersion version;
    private final AtomicBoolean running = new AtomicBoolean();

    ErasuresHandler(ErasureStore store, Eraser eraser, XapiVersion version) {
        this.store = store;
        this.eraser = eraser;
        this.version = version;
    }

    @Override
    public void handleRequest(HttpServerExchange exchange) {
        if (exchange.getRequestMethod().toString().equals("GET")) {
            list(exchange);
            return;
        }
        String type = exchange.getRequestHeaders().getFirst(Headers.CONTENT_TYPE);
        if (type == null || !type.toLowerCase(Locale.ROOT).startsWith("application/json")) {
            Responses.error(exchange, 415, "body.content_type", "header Content-Type", "an erasure request is a JSON "
                    + "object: send Content-Type: application/json");
            return;
        }
        BodyReceiver.receive(exchange, MAX_BODY, body -> exchange.dispatch(() -> {
            try {
                erase(exchange, body);
            } catch (Exception e) {
                ErrorPolicy.fail(exchange, e);
            }
        }));
    }

    private void erase(HttpServerExchange exchange, byte[] body) throws Exception {
        JsonNode root;
        try {
            root = JSON.readTree(body);
        } catch (JsonProcessingException e) {
            throw new XapiException("$", "json.invalid", "the body is not JSON: " + e.getOriginalMessage());
        }
        if (root == null || !root.isObject()) {
            throw new XapiException("$", "erasure.invalid", "an erasure request is a JSON object such as "
                    + "{\"agents\": [{\"mbox\": \"mailto:ada@example.com\"}]}");
        }
        for (Iterator<String> names = root.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!FIELDS.contains(name)) {
                throw new XapiException("$." + name, "erasure.invalid", "unknown field '" + name + "'; an erasure "
                        + "request takes " + String.join(", ", new java.util.TreeSet<>(FIELDS)));
            }
        }
        ErasurePlan.Request request = request(root);
        if (request.isEmpty()) {
            throw new XapiException("$.agents", "erasure.invalid", "say what to erase: agents (statementIds and "
                    + "storedBefore need the processes stopped: cairn erase)");
        }
        JsonNode dry = root.path("dryRun");
        if (!dry.isMissingNode() && !dry.isBoolean()) {
            throw new XapiException("$.dryRun", "erasure.invalid", "dryRun is true or false");
        }
        if (eraser == null) {
            Responses.error(exchange, 409, "erasure.offline", "path " + PATH, "this process does not both ingest and "
                    + "project (split mode): stop the Cairn processes on this data and run 'cairn erase'");
            return;
        }
        if (!running.compareAndSet(false, true)) {
            exchange.getResponseHeaders().put(Headers.RETRY_AFTER, 10);
            Responses.error(exchange, 409, "erasure.running", "path " + PATH, "another erasure is running; send this "
                    + "one again when it has finished (a batch of people goes in one request's agents)");
            return;
        }
        OnlineErasure.Outcome o;
        try {
            o = eraser.erase(request, dry.asBoolean(false));
        } finally {
            running.set(false);
        }
        switch (o.status()) {
            case NOTHING -> Responses.error(exchange, 404, "erasure.no_match", "$.agents", "nothing stored names them; "
                    + "nothing was erased");
            case OFFLINE -> Responses.error(exchange, 409, "erasure.offline", "$", "this erasure must run with the "
                    + "processes stopped (" + o.why() + "): stop Cairn and run 'cairn erase' with the same request; "
                    + "nothing was erased");
            default -> send(exchange, o);
        }
    }

    private ErasurePlan.Request request(JsonNode root) {
        List<Ifi> people = new ArrayList<>();
        JsonNode agents = root.path("agents");
        if (!agents.isMissingNode()) {
            if (!agents.isArray() || agents.size() > MAX_PEOPLE) {
                throw new XapiException("$.agents", "erasure.invalid", "agents is an array of at most " + MAX_PEOPLE
                        + " xAPI Agents, each with one IFI");
            }
            for (int i = 0; i < agents.size(); i++) {
                people.add(Erasures.person(bytes(agents.get(i)), version, "$.agents[" + i + "]"));
            }
        }
        Set<UUID> ids = new LinkedHashSet<>();
        JsonNode statementIds = root.path("statementIds");
        if (!statementIds.isMissingNode()) {
            if (!statementIds.isArray() || statementIds.size() > MAX_PEOPLE) {
                throw new XapiException("$.statementIds", "erasure.invalid", "statementIds is an array of at most "
                        + MAX_PEOPLE + " statement ids");
            }
            for (int i = 0; i < statementIds.size(); i++) {
                String where = "$.statementIds[" + i + "]";
                if (!statementIds.get(i).isTextual()) {
                    throw new XapiException(where, "erasure.invalid", "a statement id is a string");
                }
                ids.add(Erasures.statementId(statementIds.get(i).asText(), where));
            }
        }
        Long before = null;
        JsonNode storedBefore = root.path("storedBefore");
        if (!storedBefore.isMissingNode()) {
            if (!storedBefore.isTextual()) {
                throw new XapiException("$.storedBefore", "erasure.invalid", "storedBefore is a timestamp string");
            }
            before = Erasures.storedBefore(storedBefore.asText(), version, "$.storedBefore");
        }
        return new ErasurePlan.Request(people, ids, before);
    }

    private static byte[] bytes(JsonNode node) {
        try {
            return JSON.writeValueAsBytes(node);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void list(HttpServerExchange exchange) {
        List<ErasureStore.Erasure> all = store.list();
        json(exchange, 200, g -> {
            g.writeArrayFieldStart("erasures");
            for (ErasureStore.Erasure e : all) {
                g.writeStartObject();
                g.writeNumberField("id", e.id());
                g.writeStringField("at", Timestamps.format(e.atMillis()));
                g.writeStringField("subject", e.subject());
                g.writeNumberField("statementsRemoved", e.statementsRemoved());
                g.writeNumberField("statementsRewritten", e.statementsRewritten());
                g.writeNumberField("documentEntries", e.documentEntries());
                g.writeNumberField("logEntries", e.logEntries());
                g.writeNumberField("logBytes", e.logBytes());
                g.writeNumberField("millis", e.millis());
                g.writeEndObject();
            }
            g.writeEndArray();
        });
    }

    private static void send(HttpServerExchange exchange, OnlineErasure.Outcome o) {
        json(exchange, 200, g -> {
            g.writeStringField("erasure", o.erasureId());
            g.writeBooleanField("dryRun", o.status() == OnlineErasure.Status.PLANNED);
            g.writeNumberField("statementsRemoved", o.counts().statementsRemoved());
            g.writeNumberField("statementsRewritten", o.counts().statementsRewritten());
            g.writeNumberField("documentEntries", o.counts().documentEntries());
            g.writeNumberField("logEntries", o.counts().entries());
            g.writeNumberField("logBytes", o.counts().bytes());
            g.writeNumberField("deadLetters", o.deadLetters());
            g.writeNumberField("millis", o.millis());
            if (o.cleanUpError() != null) {
                g.writeStringField("warning", "the database keeps the erased rows' bytes in its write-ahead log "
                        + "until its next checkpoint: " + o.cleanUpError());
            }
        });
    }

    private interface Fields {
        void write(JsonGenerator g) throws IOException;
    }

    private static void json(HttpServerExchange exchange, int status, Fields fields) {
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
