package dev.cairn.xapi;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

/**
 * Writes an Activity Definition model as JSON: whole, as the LRS keeps an activity's canonical definition, or with
 * each language map cut to the one entry a request's Accept-Language chooses ({@code format=canonical}).
 */
public final class DefinitionWriter {
    private DefinitionWriter() {
    }

    /** The whole definition as a JSON object, every entry of its language maps included. */
    public static byte[] write(ActivityDefinition d) {
        ByteArrayBuilder out = new ByteArrayBuilder(256);
        try (JsonGenerator g = FormatWriter.FACTORY.createGenerator(out)) {
            definition(g, d, null);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** Writes {@code d}; {@code languages} null keeps every entry of each language map. */
    static void definition(JsonGenerator g, ActivityDefinition d, AcceptLanguage languages) throws IOException {
        g.writeStartObject();
        if (d.name() != null) {
            g.writeFieldName("name");
            languageMap(g, d.name(), languages);
        }
        if (d.description() != null) {
            g.writeFieldName("description");
            languageMap(g, d.description(), languages);
        }
        stringField(g, "type", d.type());
        stringField(g, "moreInfo", d.moreInfo());
        stringField(g, "interactionType", d.interactionType());
        if (d.correctResponsesPattern() != null) {
            g.writeArrayFieldStart("correctResponsesPattern");
            for (String s : d.correctResponsesPattern()) {
                g.writeString(s);
            }
            g.writeEndArray();
        }
        components(g, "choices", d.choices(), languages);
        components(g, "scale", d.scale(), languages);
        components(g, "source", d.source(), languages);
        components(g, "target", d.target(), languages);
        components(g, "steps", d.steps(), languages);
        if (d.extensions() != null) {
            g.writeFieldName("extensions");
            value(g, d.extensions());
        }
        g.writeEndObject();
    }

    /** A language map whole ({@code languages} null) or cut to the one entry chosen (empty when the map is). */
    static void languageMap(JsonGenerator g, Map<String, String> map, AcceptLanguage languages) throws IOException {
        g.writeStartObject();
        if (map != null && languages == null) {
            for (Map.Entry<String, String> e : map.entrySet()) {
                g.writeStringField(e.getKey(), e.getValue());
            }
        } else if (map != null) {
            String tag = languages.choose(map.keySet());
            if (tag != null) {
                g.writeStringField(tag, map.get(tag));
            }
        }
        g.writeEndObject();
    }

    private static void components(JsonGenerator g, String name, List<InteractionComponent> list,
                                   AcceptLanguage languages) throws IOException {
        if (list == null) {
            return;
        }
        g.writeArrayFieldStart(name);
        for (InteractionComponent c : list) {
            g.writeStartObject();
            g.writeStringField("id", c.id());
            if (c.description() != null) {
                g.writeFieldName("description");
                languageMap(g, c.description(), languages);
            }
            g.writeEndObject();
        }
        g.writeEndArray();
    }

    private static void stringField(JsonGenerator g, String name, String value) throws IOException {
        if (value != null) {
            g.writeStringField(name, value);
        }
    }

    /** An extension value as the parser models it: maps, lists, strings, BigDecimal, Boolean or JsonNull. */
    private static void value(JsonGenerator g, Object v) throws IOException {
        if (v instanceof Map<?, ?> m) {
            g.writeStartObject();
            for (Map.Entry<?, ?> e : m.entrySet()) {
                g.writeFieldName((String) e.getKey());
                value(g, e.getValue());
            }
            g.writeEndObject();
        } else if (v instanceof List<?> l) {
            g.writeStartArray();
            for (Object o : l) {
                value(g, o);
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
