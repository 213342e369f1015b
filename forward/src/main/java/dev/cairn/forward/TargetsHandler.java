package dev.cairn.forward;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.cairn.http.BodyReceiver;
import dev.cairn.http.ErrorPolicy;
import dev.cairn.http.JsonResponses;
import dev.cairn.http.QueryParameters;
import dev.cairn.http.Responses;
import dev.cairn.store.DeadLetter;
import dev.cairn.store.ForwardStore;
import dev.cairn.store.ForwardTarget;
import dev.cairn.xapi.XapiException;
import dev.cairn.xapi.XapiVersion;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The administrative API of forwarding (not xAPI; for credentials with the {@code admin} scope), what
 * {@code cairn targets} does, over HTTP:
 * <ul>
 *   <li>{@code GET /admin/targets}: every target (secrets are never returned, only whether one is set);</li>
 *   <li>{@code POST /admin/targets}: add one, from a JSON object ({@link #FIELDS}); 201, 409 when the name exists;</li>
 *   <li>{@code POST /admin/targets/NAME/pause}, {@code .../resume}; {@code DELETE /admin/targets/NAME};</li>
 *   <li>{@code GET /admin/targets/NAME/dead-letters?after=ID&limit=N}: a page of its dead letters, oldest first;
 *   {@code POST /admin/targets/NAME/dead-letters/retry?limit=N}: send them again, oldest first;
 *   {@code POST /admin/dead-letters/ID/retry}: one of them.</li>
 * </ul>
 * Runs on a worker thread (its database calls and a retry's POST block); a body is read by {@link BodyReceiver}, as
 * every body is. Bodies are at most {@value #MAX_BODY} bytes of {@code application/json}; every refusal names the
 * JSON path or the path segment that is wrong.
 */
public final class TargetsHandler implements HttpHandler {
    public static final String TARGETS = "/admin/targets";
    public static final String DEAD_LETTERS = "/admin/dead-letters";
    static final int MAX_BODY = 16 * 1024;
    /** Dead letters per page, unless {@code limit} says otherwise, and the most it may say. */
    static final int DEFAULT_PAGE = 100;
    static final int MAX_PAGE = 1_000;
    /** The fields a target's JSON takes, and the JSON type of each. */
    static final Map<String, JsonToken> FIELDS = Map.ofEntries(Map.entry("name", JsonToken.VALUE_STRING),
            Map.entry("kind", JsonToken.VALUE_STRING), Map.entry("url", JsonToken.VALUE_STRING),
            Map.entry("credential", JsonToken.VALUE_STRING), Map.entry("secret", JsonToken.VALUE_STRING),
            Map.entry("filter", JsonToken.VALUE_STRING), Map.entry("batch", JsonToken.VALUE_NUMBER_INT),
            Map.entry("maxDelayMillis", JsonToken.VALUE_NUMBER_INT), Map.entry("lrsVersion", JsonToken.VALUE_STRING),
            Map.entry("from", JsonToken.VALUE_STRING), Map.entry("paused", JsonToken.VALUE_TRUE));
    private static final JsonFactory JSON = JsonFactory.builder()
            .enable(com.fasterxml.jackson.core.StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();

    private final ForwardStore store;
    private final XapiVersion version;
    /** Targets whose dead letters a request is retrying now. */
    private final java.util.Set<String> retrying = java.util.concurrent.ConcurrentHashMap.newKeySet();

    public TargetsHandler(ForwardStore store, XapiVersion version) {
        this.store = store;
        this.version = version;
    }

    @Override
    public void handleRequest(HttpServerExchange exchange) throws Exception {
        String path = exchange.getRequestPath();
        String method = exchange.getRequestMethod().toString();
        if (path.equals(TARGETS)) {
            switch (method) {
                case "GET" -> list(exchange);
                case "POST" -> add(exchange);
                default -> notAllowed(exchange, "GET, POST");
            }
            return;
        }
        String[] parts = path.split("/", -1); // "", "admin", "targets"|"dead-letters", ...
        if (path.startsWith(TARGETS + "/") && parts.length == 4 && !parts[3].isEmpty()) {
            if (method.equals("DELETE")) {
                remove(exchange, parts[3]);
            } else {
                notAllowed(exchange, "DELETE");
            }
            return;
        }
        if (path.startsWith(TARGETS + "/") && parts.length == 5) {
            String action = parts[4];
            if (action.equals("pause") || action.equals("resume")) {
                if (method.equals("POST")) {
                    pause(exchange, parts[3], action.equals("pause"));
                } else {
                    notAllowed(exchange, "POST");
                }
                return;
            }
            if (action.equals("dead-letters")) {
                if (method.equals("GET")) {
                    deadLetters(exchange, parts[3]);
                } else {
                    notAllowed(exchange, "GET");
                }
                return;
            }
        }
        if (path.startsWith(TARGETS + "/") && parts.length == 6 && parts[4].equals("dead-letters")
                && parts[5].equals("retry")) {
            if (method.equals("POST")) {
                retryAll(exchange, parts[3]);
            } else {
                notAllowed(exchange, "POST");
            }
            return;
        }
        if (path.startsWith(DEAD_LETTERS + "/") && parts.length == 5 && parts[4].equals("retry")) {
            if (method.equals("POST")) {
                retry(exchange, parts[3]);
            } else {
                notAllowed(exchange, "POST");
            }
            return;
        }
        Responses.error(exchange, 404, "resource.unknown", "path " + path, "no resource at " + path + "; the "
                + "forwarding API has " + TARGETS + ", " + TARGETS + "/NAME, " + TARGETS + "/NAME/pause, "
                + TARGETS + "/NAME/resume, " + TARGETS + "/NAME/dead-letters, " + TARGETS + "/NAME/dead-letters/retry and "
                + DEAD_LETTERS + "/ID/retry");
    }

    private static void notAllowed(HttpServerExchange exchange, String allow) {
        exchange.getResponseHeaders().put(Headers.ALLOW, allow);
        Responses.error(exchange, 405, "method.not_allowed", "method " + exchange.getRequestMethod(),
                exchange.getRequestMethod() + " is not a method of " + exchange.getRequestPath() + "; it takes "
                        + allow);
    }

    private void list(HttpServerExchange exchange) {
        JsonResponses.object(exchange, 200, g -> {
            g.writeArrayFieldStart("targets");
            for (ForwardTarget t : store.list()) {
                write(g, t);
            }
            g.writeEndArray();
        });
    }

    private void add(HttpServerExchange exchange) {
        String type = exchange.getRequestHeaders().getFirst(Headers.CONTENT_TYPE);
        if (type == null || !type.toLowerCase(Locale.ROOT).startsWith("application/json")) {
            Responses.error(exchange, 415, "body.content_type", "header Content-Type", "a target is a JSON object: "
                    + "send Content-Type: application/json");
            return;
        }
        // Read as every body is (bounded, 413 past it, 408 past the body's deadline, no thread held while it
        // trickles), then stored on a worker thread.
        BodyReceiver.receive(exchange, MAX_BODY, body -> exchange.dispatch(() -> {
            try {
                add(exchange, body);
            } catch (Exception e) {
                ErrorPolicy.fail(exchange, e);
            }
        }));
    }

    private void add(HttpServerExchange exchange, byte[] body) {
        Map<String, Object> fields = object(body);
        String from = (String) fields.getOrDefault("from", "end");
        if (!from.equals("end") && !from.equals("start")) {
            throw new XapiException("$.from", "target.invalid", "from must be 'start' or 'end'; got '" + from + "'");
        }
        ForwardTarget t = new ForwardTarget((String) fields.get("name"), (String) fields.get("kind"),
                (String) fields.get("url"), (String) fields.get("credential"), (String) fields.get("secret"),
                (String) fields.getOrDefault("filter", ""), (int) integer(fields, "batch", 500, Target.MAX_BATCH),
                integer(fields, "maxDelayMillis", 1000, Target.MAX_DELAY_MILLIS), (String) fields.get("lrsVersion"),
                (Boolean) fields.getOrDefault("paused", false), from.equals("start") ? -1L : null);
        try {
            Target.check(t, version);
        } catch (XapiException e) {
            String field = e.where().substring(e.where().lastIndexOf(" field ") + " field ".length());
            String json = switch (field) {
                case "max-delay" -> "maxDelayMillis";
                case "lrs-version" -> "lrsVersion";
                default -> field;
            };
            throw new XapiException("$." + json, e.code(), e.getMessage());
        }
        if (!store.insert(t)) {
            Responses.error(exchange, 409, "target.exists", "$.name", "a target named '" + t.name() + "' exists; "
                    + "remove it first to change it");
            return;
        }
        JsonResponses.object(exchange, 201, g -> {
            g.writeFieldName("target");
            write(g, t);
        });
    }

    private void pause(HttpServerExchange exchange, String name, boolean paused) {
        if (!store.setPaused(name, paused)) {
            noTarget(exchange, name);
            return;
        }
        ForwardTarget now = store.find(name).orElse(null);
        if (now == null) { // removed meanwhile
            noTarget(exchange, name);
            return;
        }
        JsonResponses.object(exchange, 200, g -> {
            g.writeFieldName("target");
            write(g, now);
        });
    }

    private void remove(HttpServerExchange exchange, String name) {
        if (!store.delete(name)) {
            noTarget(exchange, name);
            return;
        }
        Responses.noContent(exchange);
    }

    /** A page of a target's dead letters, oldest first: {@code after} an id, {@code limit} of them (with {@code more}). */
    private void deadLetters(HttpServerExchange exchange, String name) {
        QueryParameters.check(exchange.getQueryParameters(), List.of("after", "limit"), "GET " + TARGETS
                + "/NAME/dead-letters");
        long after = number(exchange, "after", 0, Long.MAX_VALUE, 0);
        int limit = (int) number(exchange, "limit", 1, MAX_PAGE, DEFAULT_PAGE);
        if (store.find(name).isEmpty()) {
            noTarget(exchange, name);
            return;
        }
        List<DeadLetter> letters = store.deadLetters(name, after, limit + 1);
        boolean more = letters.size() > limit;
        List<DeadLetter> page = more ? letters.subList(0, limit) : letters;
        JsonResponses.object(exchange, 200, g -> {
            g.writeArrayFieldStart("deadLetters");
            for (DeadLetter d : page) {
                g.writeStartObject();
                g.writeNumberField("id", d.id());
                g.writeNumberField("statements", d.statements());
                g.writeNumberField("status", d.status());
                g.writeStringField("response", d.response());
                g.writeStringField("at", Instant.ofEpochMilli(d.atMillis()).toString());
                g.writeEndObject();
            }
            g.writeEndArray();
            if (more) {
                g.writeStringField("more", exchange.getRequestPath() + "?after=" + page.get(page.size() - 1).id()
                        + "&limit=" + limit);
            }
        });
    }

    /** Sends up to {@code limit} of a target's dead letters again, oldest first ({@link DeadLetterRetry#retryAll}). */
    private void retryAll(HttpServerExchange exchange, String name) throws InterruptedException {
        QueryParameters.check(exchange.getQueryParameters(), List.of("limit"), "POST " + TARGETS
                + "/NAME/dead-letters/retry");
        int limit = (int) number(exchange, "limit", 1, DeadLetterRetry.MAX_PER_CALL, DEFAULT_PAGE);
        if (store.find(name).isEmpty()) {
            noTarget(exchange, name);
            return;
        }
        if (!retrying.add(name)) { // two at once would send each letter twice
            Responses.error(exchange, 409, "dead_letters.retrying", "path " + exchange.getRequestPath(), "the dead "
                    + "letters of '" + name + "' are being retried by another request; try again once it has answered");
            return;
        }
        DeadLetterRetry.Summary r;
        try {
            r = DeadLetterRetry.retryAll(store, version, name, limit);
        } finally {
            retrying.remove(name);
        }
        JsonResponses.object(exchange, 200, g -> {
            g.writeNumberField("delivered", r.delivered());
            g.writeNumberField("refusedAgain", r.refusedAgain());
            g.writeBooleanField("stoppedAtNotTaken", r.stoppedAtNotTaken());
            g.writeBooleanField("more", r.more());
            g.writeStringField("message", r.message());
        });
    }

    /** A whole-number parameter from {@code min} to {@code max}, or {@code otherwise} when it is absent. */
    private static long number(HttpServerExchange exchange, String name, long min, long max, long otherwise) {
        String value = QueryParameters.one(exchange.getQueryParameters(), name);
        if (value == null) {
            return otherwise;
        }
        long n;
        try {
            n = value.length() > 19 ? -1 : Long.parseLong(value);
        } catch (NumberFormatException e) {
            n = -1;
        }
        if (n < min || n > max || !value.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw new XapiException("parameter " + name, "parameter.invalid", "parameter '" + name + "' must be a "
                    + "whole number from " + min + " to " + max + " (got '" + value + "')");
        }
        return n;
    }

    private void retry(HttpServerExchange exchange, String idText) throws InterruptedException {
        long id;
        try {
            id = Long.parseLong(idText);
        } catch (NumberFormatException e) {
            Responses.error(exchange, 404, "resource.unknown", "path " + exchange.getRequestPath(), "'" + idText
                    + "' is not a dead letter's id (a number from " + TARGETS + "/NAME/dead-letters)");
            return;
        }
        if (store.deadLetter(id).isEmpty()) {
            Responses.error(exchange, 404, "dead_letter.unknown", "path " + exchange.getRequestPath(),
                    "no dead letter " + id);
            return;
        }
        DeadLetterRetry.Result r = DeadLetterRetry.retry(store, version, id);
        JsonResponses.object(exchange, 200, g -> {
            g.writeBooleanField("delivered", r.delivered());
            g.writeStringField("message", r.message());
        });
    }

    private static void noTarget(HttpServerExchange exchange, String name) {
        Responses.error(exchange, 404, "target.unknown", "path " + exchange.getRequestPath(), "no target named '"
                + name + "'");
    }

    /** A target as the API shows it: no credential or secret, only whether one is set. */
    private static void write(JsonGenerator g, ForwardTarget t) throws IOException {
        g.writeStartObject();
        g.writeStringField("name", t.name());
        g.writeStringField("kind", t.kind());
        g.writeStringField("url", t.url());
        g.writeStringField("filter", t.filter());
        g.writeNumberField("batch", t.batchSize());
        g.writeNumberField("maxDelayMillis", t.maxDelayMillis());
        if (t.xapiVersion() != null) {
            g.writeStringField("lrsVersion", t.xapiVersion());
        }
        g.writeBooleanField("paused", t.paused());
        g.writeBooleanField("credential", t.credential() != null);
        g.writeBooleanField("signed", t.secret() != null);
        if (t.logPosition() == null) {
            g.writeNullField("cursor");
        } else {
            g.writeStringField("cursor", Long.toHexString(t.logPosition()));
        }
        g.writeEndObject();
    }


    /** A flat JSON object of the {@link #FIELDS}: duplicate, unknown and mistyped fields are refused by path. */
    static Map<String, Object> object(byte[] body) {
        Map<String, Object> out = new HashMap<>();
        try (JsonParser p = JSON.createParser(body)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new XapiException("$", "json.invalid", "a target is a JSON object");
            }
            for (JsonToken t = p.nextToken(); t != JsonToken.END_OBJECT; t = p.nextToken()) {
                String name = p.currentName();
                JsonToken value = p.nextToken();
                JsonToken expected = FIELDS.get(name);
                if (expected == null) {
                    throw new XapiException("$." + name, "json.unknown_field", "'" + name + "' is not a field of a "
                            + "target; it takes " + String.join(", ", FIELDS.keySet().stream().sorted().toList()));
                }
                if (value == JsonToken.VALUE_NULL) {
                    continue;
                }
                boolean fits = expected == JsonToken.VALUE_TRUE ? value.isBoolean() : value == expected;
                if (!fits) {
                    throw new XapiException("$." + name, "json.type", name + " must be " + switch (expected) {
                        case VALUE_STRING -> "a string";
                        case VALUE_NUMBER_INT -> "an integer";
                        default -> "true or false";
                    });
                }
                out.put(name, switch (value) {
                    case VALUE_STRING -> p.getText();
                    case VALUE_NUMBER_INT -> p.getNumberType() == JsonParser.NumberType.BIG_INTEGER ? Long.MAX_VALUE
                            : p.getLongValue();
                    default -> value == JsonToken.VALUE_TRUE;
                });
            }
            if (p.nextToken() != null) {
                throw new XapiException("$", "json.invalid", "nothing may follow the target's JSON object");
            }
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) { // malformed, or past the parser's bounds
            throw new XapiException("$", "json.invalid", "the body is not a JSON object: " + e.getOriginalMessage());
        } catch (java.io.CharConversionException e) {
            throw new XapiException("$", "json.invalid", "the body is not JSON in UTF-8: " + e.getMessage());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    /** An integer field within 0..max (past it, max + 1, which the target's check refuses by name), or its default. */
    private static long integer(Map<String, Object> fields, String name, long otherwise, long max) {
        Object v = fields.get(name);
        if (v == null) {
            return otherwise;
        }
        long n = (Long) v;
        return n < Integer.MIN_VALUE ? -1 : Math.min(n, max + 1);
    }
}
