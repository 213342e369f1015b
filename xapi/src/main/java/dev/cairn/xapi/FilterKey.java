package dev.cairn.xapi;

/**
 * One value a statement can be found by: a verb IRI, a registration, an agent or group IFI key
 * ({@link Ifi#key()}) or an activity IRI.
 */
public record FilterKey(Kind kind, String value) {
    public enum Kind { VERB, REGISTRATION, AGENT, ACTIVITY }

    public static FilterKey verb(String iri) {
        return new FilterKey(Kind.VERB, iri);
    }

    public static FilterKey registration(String uuid) {
        return new FilterKey(Kind.REGISTRATION, uuid);
    }

    public static FilterKey agent(Ifi ifi) {
        return new FilterKey(Kind.AGENT, ifi.key());
    }

    public static FilterKey activity(String iri) {
        return new FilterKey(Kind.ACTIVITY, iri);
    }
}
