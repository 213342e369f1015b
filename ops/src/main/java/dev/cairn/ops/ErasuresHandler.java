package dev.cairn.ops;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.cairn.erase.ErasurePlan;
import dev.cairn.erase.Erasures;
import dev.cairn.erase.OnlineErasure;
import dev.cairn.store.ErasureRequests;
import dev.cairn.http.BodyReceiver;
import dev.cairn.http.ErrorPolicy;
import dev.cairn.http.JsonResponses;
import dev.cairn.http.Responses;
import dev.cairn.store.ErasureStore;
import dev.cairn.xapi.Ifi;
import dev.cairn.xapi.Timestamps;
import dev.cairn.xapi.XapiException;
import dev.cairn.xapi.XapiVersion;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The administrative API of erasure (not xAPI; for credentials with the {@code admin} scope), what {@code cairn erase}
 * does, in a running Cairn, in any of its processes:
 * <ul>
 *   <li>{@code GET /admin/erasures}: every erasure recorded, oldest first (what was asked, as hashes, and counts);</li>
 *   <li>{@code POST /admin/erasures} with {@code {"agents": [Agent, ...], "dryRun": false}},
 *   {@code {"statementIds": [id, ...]}} or {@code {"storedBefore": Timestamp}} (a retention period): asks the process
 *   that projects to erase the people, the statements or those stored before that time ({@link ErasureRequests},
 *   {@link dev.cairn.erase.ErasureRequestRunner}) and answers 200 with what was erased once no read returns it and no
 *   file holds it; 404 when nothing stored matches; 409 {@code erasure.offline} with the reason when the erasure must
 *   run with the processes stopped (people with statements chosen by id or time, for one); 202 with the erasure's id
 *   when it has not finished within {@value #WAIT_MILLIS} ms (it goes on: {@code GET} lists it once done). A dry run
 *   is planned here and changes nothing.</li>
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

    /** The most erasure requests waiting at once; past it a request gets 503 (a batch of people is one request). */
    static final int MAX_PENDING = 100;
    /** How long a request waits for its erasure before it answers 202. */
    static final long WAIT_MILLIS = 60 * 1000;
    /**
     * Requests that may wait for their erasure at once, each holding a worker thread (the rest get 503, and a batch of
     * people goes in one request); and dry runs at once, each of which reads the whole log.
     */
    static final int MAX_WAITING = 4;
    static final int MAX_DRY_RUNS = 1;
    private static final long POLL_MILLIS = 25;

    private final ErasureStore store;
    private final ErasureRequests requests;
    private final OnlineErasure planner;
    private final LongSupplier syncedPosition;
    private final Runnable wake;
    private final XapiVersion version;
    private final Semaphore waiting = new Semaphore(MAX_WAITING);
    private final Semaphore dryRuns = new Semaphore(MAX_DRY_RUNS);

    /**
     * @param planner        plans dry runs
     * @param syncedPosition the log's last synced position: an erasure covers every write acknowledged before it
     * @param wake           tells the erasure runner of this process, if it has one, that a request is waiting
     */
    ErasuresHandler(ErasureStore store, ErasureRequests requests, OnlineErasure planner, LongSupplier syncedPosition,
                    Runnable wake, XapiVersion version) {
        this.store = store;
        this.requests = requests;
        this.planner = planner;
        this.syncedPosition = syncedPosition;
        this.wake = wake;
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
            throw new XapiException("$.agents", "erasure.invalid", "say what to erase: agents, statementIds, or "
                    + "storedBefore for a retention period");
        }
        JsonNode dry = root.path("dryRun");
        if (!dry.isMissingNode() && !dry.isBoolean()) {
            throw new XapiException("$.dryRun", "erasure.invalid", "dryRun is true or false");
        }
        String offline = request.choosesAny() && !request.people().isEmpty() ? "statements chosen by id or stored "
                + "time together with people: ask for each alone" : !store.deletesLeaveNoCopies() ? "a database "
                + "created by an earlier release may keep stale copies of rows in its free pages: a new one is built"
                : null;
        if (offline != null) {
            offline(exchange, offline);
            return;
        }
        if (dry.asBoolean(false)) {
            if (!dryRuns.tryAcquire()) {
                busy(exchange, "a dry run is running (each reads the whole log)");
                return;
            }
            try {
                OnlineErasure.Planned planned = planner.dryRun(request);
                send(exchange, 200, null, true, planned.counts(), planned.offline(), 0);
            } finally {
                dryRuns.release();
            }
            return;
        }
        if (requests.pending().size() >= MAX_PENDING || !waiting.tryAcquire()) {
            busy(exchange, "erasures are waiting already");
            return;
        }
        ErasureRequests.Outcome o;
        String erasureId;
        try {
            erasureId = Erasures.ask(store, requests, syncedPosition.getAsLong(), request);
            wake.run();
            o = await(erasureId);
        } finally {
            waiting.release();
        }
        switch (o.status()) {
            case ERASED -> {
                ErasureStore.Erasure e = store.find(erasureId).orElseThrow(() -> new IllegalStateException(
                        "erasure " + erasureId + " is said to be done but is not recorded"));
                send(exchange, 200, erasureId, false, new ErasurePlan.Counts(e.statementsRemoved(),
                        e.statementsRewritten(), e.documentEntries(), e.logEntries(), e.logBytes()), o.why(), e.millis());
            }
            case NOTHING -> noMatch(exchange, request);
            case OFFLINE -> offline(exchange, o.why());
            case FAILED -> Responses.error(exchange, 500, "erasure.failed", "server", "erasure " + erasureId
                    + " failed: " + o.why() + "; the server's log says more");
            case PENDING -> {
                exchange.getResponseHeaders().put(Headers.LOCATION, PATH);
                send(exchange, 202, erasureId, false, null, "not finished within " + WAIT_MILLIS / 1000 + " s; it goes"
                        + " on, and GET " + PATH + " lists it once done", 0);
            }
        }
    }

    private static void offline(HttpServerExchange exchange, String why) {
        Responses.error(exchange, 409, "erasure.offline", "$", "this erasure must run with the processes stopped ("
                + why + "): stop Cairn and run 'cairn erase' with the same request; nothing was erased");
    }

    private static void busy(HttpServerExchange exchange, String why) {
        exchange.getResponseHeaders().put(Headers.RETRY_AFTER, 60);
        Responses.error(exchange, 503, "erasure.busy", "path " + PATH, why + "; ask again later (a batch of people "
                + "goes in one request's agents)");
    }

    /** 404: nothing stored matched the request, at the field that says what it erases. */
    private static void noMatch(HttpServerExchange exchange, ErasurePlan.Request request) {
        if (!request.people().isEmpty()) {
            Responses.error(exchange, 404, "erasure.no_match", "$.agents", "nothing stored names them; nothing was "
                    + "erased");
        } else if (!request.statementIds().isEmpty()) {
            Responses.error(exchange, 404, "erasure.no_match", "$.statementIds", "no statement stored has these ids"
                    + (request.storedBeforeMillis() != null ? " or was stored before storedBefore" : "")
                    + "; nothing was erased");
        } else {
            Responses.error(exchange, 404, "erasure.no_match", "$.storedBefore", "no statement was stored before it; "
                    + "nothing was erased");
        }
    }

    /** Waits for the erasure to run, up to {@link #WAIT_MILLIS}; its status then. */
    private ErasureRequests.Outcome await(String erasureId) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MILLIS);
        while (true) {
            ErasureRequests.Outcome o = requests.status(erasureId).orElseThrow();
            if (o.status() != ErasureRequests.Status.PENDING || System.nanoTime() - deadline > 0) {
                return o;
            }
            Thread.sleep(POLL_MILLIS);
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
        JsonResponses.object(exchange, 200, g -> {
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

    /** @param note why it would be refused (a dry run), a warning (erased), or what to do next (202) */
    private static void send(HttpServerExchange exchange, int status, String erasureId, boolean dryRun,
                             ErasurePlan.Counts c, String note, long millis) {
        JsonResponses.object(exchange, status, g -> {
            if (erasureId != null) {
                g.writeStringField("erasure", erasureId);
            }
            g.writeBooleanField("dryRun", dryRun);
            if (c != null) {
                g.writeNumberField("statementsRemoved", c.statementsRemoved());
                g.writeNumberField("statementsRewritten", c.statementsRewritten());
                g.writeNumberField("documentEntries", c.documentEntries());
                g.writeNumberField("logEntries", c.entries());
                g.writeNumberField("logBytes", c.bytes());
            }
            if (!dryRun && status == 200) {
                g.writeNumberField("millis", millis);
            }
            if (note != null) {
                g.writeStringField(dryRun ? "offline" : status == 200 ? "warning" : "status", note);
            }
        });
    }

}
