package dev.cairn.forward;

import dev.cairn.http.QueryParameters;
import dev.cairn.query.StatementParams;
import dev.cairn.store.KeyFilter;
import dev.cairn.xapi.FilterKeys;
import dev.cairn.xapi.XapiException;
import dev.cairn.xapi.XapiVersion;
import java.util.Deque;
import java.util.List;
import java.util.Map;

/**
 * Which statements a target receives: GET /statements' filter parameters (verb, activity, agent, registration,
 * related_activities, related_agents), read by the same rules, matched against a statement's own filter keys
 * ({@link FilterKeys}) as the log delivers it. An empty filter takes every statement.
 *
 * <p>Unlike GET /statements, a statement is matched on what it says itself: one that targets a matching statement
 * (a StatementRef) is not forwarded for that, and a voided statement was forwarded before its voiding (which is
 * forwarded too when it matches).
 */
public record StatementFilter(String text, List<KeyFilter> filters) {
    static final List<String> PARAMETERS = List.of("verb", "activity", "agent", "registration", "related_activities",
            "related_agents");

    /**
     * Reads a filter from its query-string form ({@code verb=...&activity=...}, percent-encoded).
     *
     * @throws XapiException naming the parameter, when it is not one of {@link #PARAMETERS} or its value is invalid
     */
    public static StatementFilter parse(String text, XapiVersion version) {
        String query = text == null ? "" : text.strip();
        Map<String, Deque<String>> params = QueryParameters.parse(query);
        QueryParameters.check(params, PARAMETERS, "a forwarding filter");
        StatementParams parsed = StatementParams.parse(params, version, 1, 1, 0);
        return new StatementFilter(query, List.copyOf(parsed.query().filters()));
    }

    /** Whether a statement with these filter keys passes. */
    public boolean matches(FilterKeys keys) {
        for (KeyFilter f : filters) {
            Boolean narrow = keys.keys().get(f.key());
            if (narrow == null || (f.narrow() && !narrow)) {
                return false;
            }
        }
        return true;
    }
}
