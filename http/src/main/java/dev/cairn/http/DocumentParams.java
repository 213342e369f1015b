package dev.cairn.http;

import dev.cairn.xapi.DocumentKey;
import dev.cairn.xapi.Uuids;
import dev.cairn.xapi.XapiException;
import dev.cairn.xapi.XapiVersion;
import java.util.Deque;
import java.util.List;
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
        QueryParameters.check(params, known, "this resource");
        String activityId = "";
        if (kind != DocumentKey.Kind.AGENT_PROFILE) {
            activityId = QueryParameters.iri(QueryParameters.required(params, "activityId"), "activityId");
        }
        String agent = "";
        if (kind != DocumentKey.Kind.ACTIVITY_PROFILE) {
            agent = QueryParameters.agent(QueryParameters.required(params, "agent"), version).ifi().key();
        }
        String registration = QueryParameters.one(params, "registration");
        if (registration != null) {
            registration = Uuids.parse(registration, "parameter registration").toString();
        }
        String id = idRequired ? QueryParameters.required(params, idName) : QueryParameters.one(params, idName);
        String since = QueryParameters.one(params, "since");
        Long sinceMillis = null;
        if (since != null) {
            if (!read || id != null) {
                throw new XapiException("parameter since", "parameter.not_allowed",
                        "since is only allowed when listing document ids (GET without " + idName + ")");
            }
            sinceMillis = QueryParameters.timestamp(since, "since", version);
        }
        DocumentKey key = new DocumentKey(kind, activityId, agent, registration == null ? "" : registration,
                id == null ? "" : id);
        return new DocumentParams(key, id != null, sinceMillis);
    }
}
