package dev.cairn.query;

import dev.cairn.http.QueryParameters;
import dev.cairn.store.KeyFilter;
import dev.cairn.store.StatementQuery;
import dev.cairn.xapi.FilterKey;
import dev.cairn.xapi.NonNegativeIntegers;
import dev.cairn.xapi.Uuids;
import dev.cairn.xapi.XapiException;
import dev.cairn.xapi.XapiVersion;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * The parameters of GET /statements (Comm 2.1.3), checked as the spec requires: unknown parameters, parameters
 * that differ only in case, repeated parameters and malformed values are rejected with 400, and statementId or
 * voidedStatementId may only come with format and attachments.
 */
public record StatementParams(UUID statementId, UUID voidedStatementId, StatementQuery query, String format,
                              boolean attachments, String authority) {

    /**
     * These parameters restricted to the statements stored under one authority (the statements/read/mine scope):
     * a page gains the authority as one more filter; a single statement is checked against it.
     */
    public StatementParams onlyAuthority(String authorityKey) {
        StatementQuery q = query;
        if (q != null) {
            List<KeyFilter> filters = new ArrayList<>(q.filters());
            filters.add(new KeyFilter(new FilterKey(FilterKey.Kind.AUTHORITY, authorityKey), false));
            q = new StatementQuery(filters, q.sinceMillis(), q.untilMillis(), q.limit(), q.ascending(), q.afterSeq());
        }
        return new StatementParams(statementId, voidedStatementId, q, format, attachments, authorityKey);
    }
    private static final List<String> KNOWN = List.of("statementId", "voidedStatementId", "agent", "verb", "activity",
            "registration", "related_activities", "related_agents", "since", "until", "limit", "format",
            "attachments", "ascending");
    private static final Set<String> FORMATS = Set.of("exact", "ids", "canonical");
    private static final Set<String> SINGLE_ALLOWED = Set.of("statementId", "voidedStatementId", "format", "attachments");

    /**
     * @param cursor the position a {@code more} link continues from, 0 for a first page
     */
    public static StatementParams parse(Map<String, Deque<String>> params, XapiVersion version, int defaultLimit,
                                        int maxLimit, long cursor) {
        QueryParameters.check(params, KNOWN, "GET /statements");
        UUID statementId = uuid(params, "statementId");
        UUID voidedId = uuid(params, "voidedStatementId");
        String format = QueryParameters.one(params, "format");
        if (format == null) {
            format = "exact";
        } else if (!FORMATS.contains(format)) {
            throw new XapiException("parameter format", "parameter.invalid",
                    "format must be one of exact, ids, canonical; got '" + format + "'");
        }
        boolean attachments = bool(params, "attachments");
        if (statementId != null || voidedId != null) {
            if (statementId != null && voidedId != null) {
                throw new XapiException("parameter voidedStatementId", "parameter.conflict",
                        "statementId and voidedStatementId cannot be used together");
            }
            for (String name : params.keySet()) {
                if (!SINGLE_ALLOWED.contains(name)) {
                    throw new XapiException("parameter " + name, "parameter.conflict", "'" + name
                            + "' cannot be combined with " + (statementId != null ? "statementId" : "voidedStatementId")
                            + "; only format and attachments can");
                }
            }
            return new StatementParams(statementId, voidedId, null, format, attachments, null);
        }
        List<KeyFilter> filters = new ArrayList<>();
        String verb = QueryParameters.one(params, "verb");
        if (verb != null) {
            filters.add(new KeyFilter(FilterKey.verb(QueryParameters.iri(verb, "verb")), false));
        }
        String registration = QueryParameters.one(params, "registration");
        if (registration != null) {
            filters.add(new KeyFilter(FilterKey.registration(Uuids.parse(registration, "parameter registration").toString()), false));
        }
        String agent = QueryParameters.one(params, "agent");
        boolean relatedAgents = bool(params, "related_agents");
        if (agent != null) {
            filters.add(new KeyFilter(FilterKey.agent(QueryParameters.agent(agent, version).ifi()), !relatedAgents));
        }
        String activity = QueryParameters.one(params, "activity");
        boolean relatedActivities = bool(params, "related_activities");
        if (activity != null) {
            filters.add(new KeyFilter(FilterKey.activity(QueryParameters.iri(activity, "activity")), !relatedActivities));
        }
        Long since = timestamp(params, "since", version);
        Long until = timestamp(params, "until", version);
        int limit = defaultLimit;
        String limitText = QueryParameters.one(params, "limit");
        if (limitText != null) {
            long asked = NonNegativeIntegers.parse(limitText);
            if (asked < 0) {
                throw new XapiException("parameter limit", "parameter.invalid",
                        "limit must be a non-negative integer in the digits 0-9; got '" + limitText + "'");
            }
            // 0 asks for the most the server allows (Comm 2.1.3); so does any number past it.
            limit = asked == 0 || asked > maxLimit ? maxLimit : (int) asked;
        }
        boolean ascending = bool(params, "ascending");
        return new StatementParams(null, null, new StatementQuery(filters, since, until, limit, ascending, cursor),
                format, attachments, null);
    }

    private static UUID uuid(Map<String, Deque<String>> params, String name) {
        String v = QueryParameters.one(params, name);
        return v == null ? null : Uuids.parse(v, "parameter " + name);
    }

    private static boolean bool(Map<String, Deque<String>> params, String name) {
        String v = QueryParameters.one(params, name);
        if (v == null || v.equals("false")) {
            return false;
        }
        if (v.equals("true")) {
            return true;
        }
        throw new XapiException("parameter " + name, "parameter.invalid", name + " must be true or false; got '" + v + "'");
    }

    private static Long timestamp(Map<String, Deque<String>> params, String name, XapiVersion version) {
        String v = QueryParameters.one(params, name);
        return v == null ? null : QueryParameters.timestamp(v, name, version);
    }
}
