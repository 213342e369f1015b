package dev.cairn.xapi;

import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
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
        return write(exact, StatementParser.parseOne(exact, XapiVersion.V2_0_0).statement());
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
                languageMap(v.display());
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
                definition(def);
                written = true;
            } else {
                g.writeFieldName(name);
                copy();
            }
        }
        if (!written && def != null) {
            g.writeFieldName("definition");
            definition(def);
        }
        g.writeEndObject();
    }

    private void definition(ActivityDefinition d) throws IOException {
        g.writeStartObject();
        if (d.name() != null) {
            g.writeFieldName("name");
            languageMap(d.name());
        }
        if (d.description() != null) {
            g.writeFieldName("description");
            languageMap(d.description());
        }
        stringField("type", d.type());
        stringField("moreInfo", d.moreInfo());
        stringField("interactionType", d.interactionType());
        if (d.correctResponsesPattern() != null) {
            g.writeArrayFieldStart("correctResponsesPattern");
            for (String s : d.correctResponsesPattern()) {
                g.writeString(s);
            }
            g.writeEndArray();
        }
        components("choices", d.choices());
        components("scale", d.scale());
        components("source", d.source());
        components("target", d.target());
        components("steps", d.steps());
        if (d.extensions() != null) {
            g.writeFieldName("extensions");
            value(d.extensions());
        }
        g.writeEndObject();
    }

    private void components(String name, List<InteractionComponent> list) throws IOException {
        if (list == null) {
            return;
        }
        g.writeArrayFieldStart(name);
        for (InteractionComponent c : list) {
            g.writeStartObject();
            g.writeStringField("id", c.id());
            if (c.description() != null) {
                g.writeFieldName("description");
                languageMap(c.description());
            }
            g.writeEndObject();
        }
        g.writeEndArray();
    }

    /** A language map cut to the one entry Accept-Language chooses (empty when the map is). */
    private void languageMap(Map<String, String> map) throws IOException {
        g.writeStartObject();
        String tag = map == null ? null : languages.choose(map.keySet());
        if (tag != null) {
            g.writeStringField(tag, map.get(tag));
        }
        g.writeEndObject();
    }

    private void stringField(String name, String value) throws IOException {
        if (value != null) {
            g.writeStringField(name, value);
        }
    }

    /** An extension value as the parser models it: maps, lists, strings, BigDecimal, Boolean or JsonNull. */
    private void value(Object v) throws IOException {
        if (v instanceof Map<?, ?> m) {
            g.writeStartObject();
            for (Map.Entry<?, ?> e : m.entrySet()) {
                g.writeFieldName((String) e.getKey());
                value(e.getValue());
            }
            g.writeEndObject();
        } else if (v instanceof List<?> l) {
            g.writeStartArray();
            for (Object o : l) {
                value(o);
            }
            g.writeEndArray();
        } else if (v instanceof String s) {
            g.writeString(s);
        } else if (v instanceof BigDecimal d) {
            g.writeNumber(d);
        } else if (v instanceof Boolean b) {
            g.writeBoolean(b);
        } else {
            g.writeNull();
        }
    }
}
