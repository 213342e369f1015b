package dev.cairn.xapi;

import java.io.IOException;

/**
 * Writes the {@code format=ids} form of a stored statement (Comm 2.1.3, Data 2.5): "only include minimum
 * information necessary in Agent, Activity, Verb and Group Objects to identify them. For Anonymous Groups this
 * means including the minimum information needed to identify each member." An Agent or Group keeps its
 * objectType and IFI, an anonymous Group its members (each reduced the same way), a Verb its id, an Activity only
 * its id (objectType Activity is the default and identifies nothing; the 2.0 suite requires a SubStatement's
 * Activity object to have exactly one property); every other property of the statement is kept as stored, in
 * SubStatements and contexts too. One pass over the stored bytes, so it is cheap enough to run once per statement
 * at write time and store beside the exact form.
 */
public final class IdsWriter extends FormatWriter {
    private IdsWriter() {
    }

    /** The ids form of the statement {@code exact}; {@code model} must be what the parser read from those bytes. */
    public static byte[] write(byte[] exact, Statement model) {
        return new IdsWriter().run(exact, 0, exact.length, model);
    }

    /** The ids form of a stored statement, parsing it first. */
    public static byte[] write(byte[] exact) {
        return write(exact, StatementParser.parseStored(exact).statement());
    }

    @Override
    void actor(Actor a) throws IOException {
        p.skipChildren();
        actorIds(a);
    }

    @Override
    void verb(Verb v) throws IOException {
        p.skipChildren();
        g.writeStartObject();
        g.writeStringField("id", v.id());
        g.writeEndObject();
    }

    @Override
    void activity(Activity a, boolean asObject) throws IOException {
        p.skipChildren();
        g.writeStartObject();
        g.writeStringField("id", a.id());
        g.writeEndObject();
    }
}
