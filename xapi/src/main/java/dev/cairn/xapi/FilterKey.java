package dev.cairn.xapi;

/**
 * One value a statement can be found by: a verb IRI, a registration, an agent or group IFI key
 * ({@link Ifi#key()}), an activity IRI, or the authority that stored it (for the statements/read/mine scope).
 * The kinds' order is stored in the database: add new kinds at the end.
 */
public record FilterKey(Kind kind, String value) {
    public enum Kind { VERB, REGISTRATION, AGENT, ACTIVITY, AUTHORITY }

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

    /** The authority of a statement: its IFI key, or for an OAuth group the keys of its two members. */
    public static FilterKey authority(Actor authority) {
        return new FilterKey(Kind.AUTHORITY, authorityKey(authority));
    }

    public static String authorityKey(Actor authority) {
        if (authority.ifi() != null) {
            return authority.ifi().key();
        }
        return ((Group) authority).members().stream().map(m -> m.ifi().key()).sorted()
                .collect(java.util.stream.Collectors.joining(" "));
    }
}
