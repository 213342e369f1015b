package dev.cairn.http;

import dev.cairn.xapi.Actor;
import dev.cairn.xapi.Iris;
import dev.cairn.xapi.StatementParser;
import dev.cairn.xapi.Timestamps;
import dev.cairn.xapi.XapiException;
import dev.cairn.xapi.XapiVersion;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The one check of a request's query parameters, for every resource: each name is one the resource takes, spelled
 * as the spec spells it (names are case-sensitive, so a case variant is named as such), and given at most once
 * (Comm 2.1.3 and the document resources alike); and the values several resources share (an IRI, an agent, a
 * time) read one way; no value may hold the NUL character. Anything else is a 400 naming the parameter.
 */
public final class QueryParameters {
    private QueryParameters() {
    }

    /**
     * @param known    the parameters {@code resource} takes, in the order its refusal lists them
     * @param resource the resource as a refusal names it ("GET /statements", "this resource")
     */
    public static void check(Map<String, Deque<String>> params, List<String> known, String resource) {
        for (Map.Entry<String, Deque<String>> p : params.entrySet()) {
            String name = p.getKey();
            if (!known.contains(name)) {
                String lower = name.toLowerCase(Locale.ROOT);
                for (String k : known) {
                    if (k.toLowerCase(Locale.ROOT).equals(lower)) {
                        throw new XapiException("parameter " + name, "parameter.case", "parameter '" + name
                                + "' must be spelled '" + k + "' (parameter names are case-sensitive)");
                    }
                }
                throw new XapiException("parameter " + name, "parameter.unknown", "'" + name + "' is not a parameter of "
                        + resource + (known.isEmpty() ? ", which takes none" : "; it takes " + String.join(", ", known)));
            }
            if (p.getValue().size() > 1) {
                throw new XapiException("parameter " + name, "parameter.repeated", "parameter '" + name
                        + "' is given more than once");
            }
            if (p.getValue().getFirst().indexOf('\0') >= 0) {
                // PostgreSQL cannot hold it in text: a document id with it would fail in the database, not here
                throw new XapiException("parameter " + name, "parameter.invalid", "parameter '" + name
                        + "' holds the NUL character (U+0000), which Cairn does not store");
            }
        }
    }

    /**
     * The parameters of a query string ({@code name=value&...}, percent-encoded, {@code +} for a space, a leading
     * {@code ?} and empty pieces skipped), as the server reads a request's: where a query string comes from
     * elsewhere (a {@code more} token, a command line).
     */
    public static Map<String, Deque<String>> parse(String query) {
        Map<String, Deque<String>> params = new TreeMap<>();
        for (String pair : (query.startsWith("?") ? query.substring(1) : query).split("&")) {
            if (pair.isEmpty()) {
                continue; // as Undertow reads "a=1&&b=2" or a trailing "&"
            }
            int eq = pair.indexOf('=');
            try {
                String name = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
                String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
                params.computeIfAbsent(name, k -> new ArrayDeque<>()).add(value);
            } catch (IllegalArgumentException e) {
                throw new XapiException("parameter " + pair, "parameter.invalid", "'" + pair + "' is not percent-"
                        + "encoded as a query string must be: " + e.getMessage());
            }
        }
        return params;
    }

    /** The value of a parameter that {@link #check} let through, or null when it is absent. */
    public static String one(Map<String, Deque<String>> params, String name) {
        Deque<String> v = params.get(name);
        return v == null ? null : v.getFirst();
    }

    /** The value of a parameter the request must send. */
    public static String required(Map<String, Deque<String>> params, String name) {
        String v = one(params, name);
        if (v == null) {
            throw new XapiException("parameter " + name, "parameter.missing", "this request needs the " + name
                    + " parameter");
        }
        return v;
    }

    /** An IRI-valued parameter (activityId, verb, activity): an absolute IRI. */
    public static String iri(String value, String name) {
        if (!Iris.isAbsolute(value)) {
            throw new XapiException("parameter " + name, "parameter.invalid", name + " must be an absolute IRI; got '"
                    + value + "'");
        }
        return value;
    }

    /** The agent parameter: the JSON of an Agent or an identified Group, which has an IFI to look it up by. */
    public static Actor agent(String json, XapiVersion version) {
        Actor actor = StatementParser.parseActor(json.getBytes(StandardCharsets.UTF_8), version, "parameter agent");
        if (actor.ifi() == null) {
            throw new XapiException("parameter agent", "parameter.invalid",
                    "agent must be an Agent or an identified Group (with an IFI)");
        }
        return actor;
    }

    /**
     * A time parameter (since, until) in epoch milliseconds, written as the request's version requires (Data 2.2,
     * 4.5). Stored times have millisecond precision, so flooring keeps since (exclusive) and until (inclusive) exact.
     */
    public static long timestamp(String value, String name, XapiVersion version) {
        if (!Timestamps.isValid(value, version)) {
            throw new XapiException("parameter " + name, "parameter.invalid", name + " must be "
                    + Timestamps.rule(version) + "; got '" + value + "'");
        }
        return Timestamps.instant(value).toEpochMilli();
    }
}
