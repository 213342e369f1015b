package dev.cairn.http;

import dev.cairn.xapi.Actor;
import dev.cairn.xapi.DocumentKey;
import dev.cairn.xapi.StatementParser;
import dev.cairn.xapi.Iris;
import dev.cairn.xapi.Timestamps;
import dev.cairn.xapi.Uuids;
import dev.cairn.xapi.XapiException;
import dev.cairn.xapi.XapiVersion;
import java.nio.charset.StandardCharsets;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The parameters of the document resources (Comm 2.3, 2.6, 2.7), checked as strictly as statement parameters:
 * unknown, case-variant, repeated or malformed parameters get 400. {@code key.id()} is "" when no document id was
 * given (a list or delete-all request).
 *
 * @param sinceMillis the {@code since} of a list request, exclusive; null when absent
 */
public record DocumentParams(DocumentKey key, boolean hasId, Long sinceMillis) {

    /** The parameter naming the document in each resource. */
    public static String idParameter(DocumentKey.Kind kind) {
        return kind == DocumentKey.Kind.STATE ? "stateId" : "profileId";
    }

    /**
     * @param idRequired whether this request must name one document (PUT and POST always; DELETE of a profile)
     * @param read       whether this is a GET or HEAD (only those may send {@code since})
     */
    public static DocumentParams parse(DocumentKey.Kind kind, Map<String, Deque<String>> params, XapiVersion version,
                                       boolean idRequired, boolean read) {
        String idName = idParameter(kind);
        List<String> known = switch (kind) {
            case STATE -> List.of("activityId", "agent", "registration", "stateId", "since");
            case ACTIVITY_PROFILE -> List.of("activityId", "profileId", "since");
            case AGENT_PROFILE -> List.of("agent", "profileId", "since");
        };
        for (Map.Entry<String, Deque<String>> p : params.entrySet()) {
            String name = p.getKey();
            if (!known.contains(name)) {
                for (String k : known) {
                    if (k.toLowerCase(Locale.ROOT).equals(name.toLowerCase(Locale.ROOT))) {
                        throw new XapiException("parameter " + name, "parameter.case", "parameter '" + name
                                + "' must be spelled '" + k + "' (parameter names are case-sensitive)");
                    }
                }
                throw new XapiException("parameter " + name, "parameter.unknown", "'" + name
                        + "' is not a parameter of this resource; it takes " + String.join(", ", known));
            }
            if (p.getValue().size() > 1) {
                throw new XapiException("parameter " + name, "parameter.repeated", "parameter '" + name
                        + "' is given more than once");
            }
        }
        String activityId = "";
        if (kind != DocumentKey.Kind.AGENT_PROFILE) {
            activityId = required(params, "activityId");
            if (!Iris.isAbsolute(activityId)) {
                throw new XapiException("parameter activityId", "parameter.invalid",
                        "activityId must be an absolute IRI; got '" + activityId + "'");
            }
        }
        String agent = "";
        if (kind != DocumentKey.Kind.ACTIVITY_PROFILE) {
            Actor actor = StatementParser.parseActor(required(params, "agent").getBytes(StandardCharsets.UTF_8),
                    version, "parameter agent");
            if (actor.ifi() == null) {
                throw new XapiException("parameter agent", "parameter.invalid",
                        "agent must be an Agent or an identified Group (with an IFI)");
            }
            agent = actor.ifi().key();
        }
        String registration = one(params, "registration");
        if (registration != null) {
            registration = Uuids.parse(registration, "parameter registration").toString();
        }
        String id = one(params, idName);
        if (id == null && idRequired) {
            throw new XapiException("parameter " + idName, "parameter.missing", "this request needs the " + idName
                    + " parameter");
        }
        String since = one(params, "since");
        Long sinceMillis = null;
        if (since != null) {
            if (!read || id != null) {
                throw new XapiException("parameter since", "parameter.not_allowed",
                        "since is only allowed when listing document ids (GET without " + idName + ")");
            }
            if (!Timestamps.isValid(since, version)) {
                throw new XapiException("parameter since", "parameter.invalid", "since must be "
                        + Timestamps.rule(version) + "; got '" + since + "'");
            }
            sinceMillis = Timestamps.instant(since).toEpochMilli();
        }
        DocumentKey key = new DocumentKey(kind, activityId, agent, registration == null ? "" : registration,
                id == null ? "" : id);
        return new DocumentParams(key, id != null, sinceMillis);
    }

    private static String one(Map<String, Deque<String>> params, String name) {
        Deque<String> v = params.get(name);
        return v == null ? null : v.getFirst();
    }

    private static String required(Map<String, Deque<String>> params, String name) {
        String v = one(params, name);
        if (v == null) {
            throw new XapiException("parameter " + name, "parameter.missing", "this request needs the " + name
                    + " parameter");
        }
        return v;
    }
}
