package dev.cairn.xapi;

import java.util.Map;

/** The action of a statement (Data 2.4.3): an IRI and an optional language map. */
public record Verb(String id, Map<String, String> display) {
    public static final String VOIDED = "http://adlnet.gov/expapi/verbs/voided";

    public boolean isVoiding() {
        return VOIDED.equals(id);
    }
}
