package dev.cairn.xapi;

/**
 * Where a document lives (Comm 2.3, 2.6, 2.7): its resource, and the activity, agent (an {@link Ifi#key()}),
 * registration and id that address it there. Parts a resource does not use are the empty string; so is the
 * registration of a state document stored without one.
 * The kinds' order is stored in the log (the kind byte of a document event) and in the database: add new kinds at
 * the end.
 */
public record DocumentKey(Kind kind, String activityId, String agent, String registration, String id) {
    public enum Kind { STATE, ACTIVITY_PROFILE, AGENT_PROFILE }

    public DocumentKey {
        if (activityId == null || agent == null || registration == null || id == null) {
            throw new IllegalArgumentException("document key parts are never null; use \"\" for an unused part");
        }
    }

    /** The same place with another document id (used to name every document of one context). */
    public DocumentKey withId(String otherId) {
        return new DocumentKey(kind, activityId, agent, registration, otherId);
    }
}
