package dev.cairn.xapi;

import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.function.Function;

/**
 * Writes the {@code format=canonical} form of a stored statement (Comm 2.1.3, Data 2.5): "Activity Objects and
 * Verbs populated with the canonical definition of the Activity Objects and Display of the Verbs as determined by
 * the LRS, after applying the language filtering process", and Agents and Groups "as in exact mode". An Activity's
 * definition comes from the LRS's canonical definitions (the lookup), or from the statement when the LRS has none;
 * every language map of it (name, description, interaction component descriptions) and the verb's display are cut
 * to the one language chosen by the request's Accept-Language. Everything else is kept as stored.
 *
 * <p>One instance serves one request: build it with the lookup and the header, then write each statement.
 */
public final class CanonicalWriter extends FormatWriter {
    private final Function<String, ActivityDefinition> canonical;
    private final AcceptLanguage languages;

    /**
     * @param canonical      the LRS's canonical definition of an activity id, or null when it has none
     * @param acceptLanguage the request's Accept-Language header, or null
     */
    public CanonicalWriter(Function<String, ActivityDefinition> canonical, String acceptLanguage) {
        this.canonical = canonical;
        this.languages = AcceptLanguage.parse(acceptLanguage);
    }

    /** The canonical form of the statement {@code exact}; {@code model} must be what the parser read from it. */
    public byte[] write(byte[] exact, Statement model) {
        return run(exact, 0, exact.length, model);
    }

    /** The canonical form of a stored statement, parsing it first. */
    public byte[] write(byte[] exact) {
        return write(exact, StatementParser.parseStored(exact).statement());
    }

    public static byte[] write(byte[] exact, Statement model, Function<String, ActivityDefinition> canonical,
                               String acceptLanguage) {
        return new CanonicalWriter(canonical, acceptLanguage).write(exact, model);
    }

    @Override
    void actor(Actor a) throws IOException {
        copy();
    }

    @Override
    void verb(Verb v) throws IOException {
        g.writeStartObject();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            p.nextToken();
            if (name.equals("display")) {
                p.skipChildren();
                g.writeFieldName(name);
                DefinitionWriter.languageMap(g, v.display(), languages);
            } else {
                g.writeFieldName(name);
                copy();
            }
        }
        g.writeEndObject();
    }

    @Override
    void activity(Activity a, boolean asObject) throws IOException {
        ActivityDefinition def = canonical.apply(a.id());
        if (def == null) {
            def = a.definition();
        }
        g.writeStartObject();
        boolean written = false;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            p.nextToken();
            if (name.equals("definition")) {
                p.skipChildren();
                g.writeFieldName(name);
                DefinitionWriter.definition(g, def, languages);
                written = true;
            } else {
                g.writeFieldName(name);
                copy();
            }
        }
        if (!written && def != null) {
            g.writeFieldName("definition");
            DefinitionWriter.definition(g, def, languages);
        }
        g.writeEndObject();
    }
}
