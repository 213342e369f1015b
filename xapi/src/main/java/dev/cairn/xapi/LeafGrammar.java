package dev.cairn.xapi;

import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * The parts of a statement that hold no Agent, Group or statement object: the Verb (Data 2.4.3), the Activity
 * Definition (Data 2.4.4.1), the Result (Data 2.4.5) and the Attachments (Data 2.4.11), and the typed values
 * every part uses: IRIs, timestamps, UUIDs, language maps and extensions (Data 4).
 */
final class LeafGrammar {
    private static final Set<String> INTERACTION_TYPES = Set.of("true-false", "choice", "fill-in", "long-fill-in",
            "matching", "performance", "sequencing", "likert", "numeric", "other");

    private final JsonReader in;
    private final JsonPath path;
    private XapiVersion version;
    /** Whether a timestamp needs its UTC offset: by the rules of xAPI 2.0, but not when re-reading stored JSON. */
    private boolean offsetRequired;
    /** Scratch for the alternating tags and values of a language map; copied out at its end. */
    private Object[] languages = new Object[8];

    LeafGrammar(JsonReader in) {
        this.in = in;
        this.path = in.path();
    }

    /** Sets the rules of the next body: those of {@code version}, relaxed for JSON Cairn stored itself. */
    void begin(XapiVersion version, boolean stored) {
        this.version = version;
        this.offsetRequired = !stored && version == XapiVersion.V2_0_0;
    }

    XapiVersion version() {
        return version;
    }

    /** The current string value as a UUID, read from Jackson's buffer without making a String when it is one. */
    UUID uuidValue() throws IOException {
        UUID u = in.uuidOrNull();
        return u != null ? u : uuid(in.string(), null);
    }

    Verb verb() throws IOException {
        in.expectObject();
        String id = null;
        Map<String, String> display = null;
        for (String prop; (prop = in.nextName()) != null; ) {
            path.pushName(prop);
            switch (prop) {
                case "id" -> id = iri();
                case "display" -> display = languageMap();
                default -> throw in.unknown(prop, "a Verb");
            }
            path.pop();
        }
        in.requireProperty(id, "id", "a Verb");
        return new Verb(id, display);
    }

    ActivityDefinition definition() throws IOException {
        in.expectObject();
        Map<String, String> name = null, description = null;
        String type = null, moreInfo = null, interactionType = null;
        List<String> pattern = null;
        List<InteractionComponent> choices = null, scale = null, sourceC = null, target = null, steps = null;
        Map<String, Object> extensions = null;
        for (String prop; (prop = in.nextName()) != null; ) {
            path.pushName(prop);
            switch (prop) {
                case "name" -> name = languageMap();
                case "description" -> description = languageMap();
                case "type" -> type = iri();
                case "moreInfo" -> moreInfo = iri();
                case "interactionType" -> {
                    interactionType = in.string();
                    if (!INTERACTION_TYPES.contains(interactionType)) {
                        throw new XapiException(path.format(), "interaction_type.invalid", "interactionType '"
                                + interactionType + "' is not one of " + String.join(", ", INTERACTION_TYPES));
                    }
                }
                case "correctResponsesPattern" -> pattern = stringArray();
                case "choices" -> choices = components();
                case "scale" -> scale = components();
                case "source" -> sourceC = components();
                case "target" -> target = components();
                case "steps" -> steps = components();
                case "extensions" -> extensions = extensions();
                default -> throw in.unknown(prop, "an Activity Definition");
            }
            path.pop();
        }
        checkComponents(interactionType, "choices", choices, "choice", "sequencing");
        checkComponents(interactionType, "scale", scale, "likert");
        checkComponents(interactionType, "source", sourceC, "matching");
        checkComponents(interactionType, "target", target, "matching");
        checkComponents(interactionType, "steps", steps, "performance");
        if (interactionType == null && pattern != null) {
            throw new XapiException(path.format() + ".correctResponsesPattern", "interaction.without_type",
                    "correctResponsesPattern needs an interactionType");
        }
        return new ActivityDefinition(name, description, type, moreInfo, interactionType, pattern, choices, scale,
                sourceC, target, steps, extensions);
    }

    private void checkComponents(String interactionType, String prop,
                                        List<InteractionComponent> list, String... types) {
        if (list == null) {
            return;
        }
        for (String t : types) {
            if (t.equals(interactionType)) {
                return;
            }
        }
        throw new XapiException(path.format(prop), "interaction.component", "'" + prop
                + "' is only allowed with interactionType " + String.join(" or ", types));
    }

    private List<InteractionComponent> components() throws IOException {
        in.expectArray();
        List<InteractionComponent> out = new ArrayList<>();
        path.pushIndex(0);
        HashSet<String> ids = new HashSet<>();
        while (in.next() != JsonToken.END_ARRAY) {
            path.setIndex(out.size());
            in.expectObject();
            String id = null;
            Map<String, String> description = null;
            for (String prop; (prop = in.nextName()) != null; ) {
                path.pushName(prop);
                switch (prop) {
                    case "id" -> id = in.string();
                    case "description" -> description = languageMap();
                    default -> throw in.unknown(prop, "an interaction component");
                }
                path.pop();
            }
            in.requireProperty(id, "id", "an interaction component");
            if (!ids.add(id)) {
                throw new XapiException(path.format() + ".id", "interaction.duplicate_id",
                        "interaction component id '" + id + "' appears twice");
            }
            out.add(new InteractionComponent(id, description));
        }
        path.pop();
        return Collections.unmodifiableList(out);
    }

    Result result() throws IOException {
        in.expectObject();
        Score score = null;
        Boolean success = null, completion = null;
        String response = null, duration = null;
        Map<String, Object> extensions = null;
        for (String prop; (prop = in.nextName()) != null; ) {
            path.pushName(prop);
            switch (prop) {
                case "score" -> score = score();
                case "success" -> success = in.bool();
                case "completion" -> completion = in.bool();
                case "response" -> response = in.string();
                case "duration" -> {
                    duration = in.string();
                    if (!Durations.isValid(duration)) {
                        throw new XapiException(path.format(), "duration.invalid",
                                "duration '" + duration + "' is not an ISO 8601 duration such as PT1H30M");
                    }
                }
                case "extensions" -> extensions = extensions();
                default -> throw in.unknown(prop, "a Result");
            }
            path.pop();
        }
        return new Result(score, success, completion, response, duration, extensions);
    }

    private Score score() throws IOException {
        in.expectObject();
        BigDecimal scaled = null, raw = null, min = null, max = null;
        for (String prop; (prop = in.nextName()) != null; ) {
            path.pushName(prop);
            switch (prop) {
                case "scaled" -> scaled = in.number();
                case "raw" -> raw = in.number();
                case "min" -> min = in.number();
                case "max" -> max = in.number();
                default -> throw in.unknown(prop, "a Score");
            }
            path.pop();
        }
        if (scaled != null && (scaled.compareTo(BigDecimal.ONE) > 0 || scaled.compareTo(BigDecimal.ONE.negate()) < 0)) {
            throw new XapiException(path.format() + ".scaled", "score.scaled", "score.scaled must be between -1 and 1");
        }
        if (min != null && max != null && min.compareTo(max) >= 0) {
            throw new XapiException(path.format() + ".min", "score.min", "score.min must be less than score.max");
        }
        if (raw != null && ((min != null && raw.compareTo(min) < 0) || (max != null && raw.compareTo(max) > 0))) {
            throw new XapiException(path.format() + ".raw", "score.raw", "score.raw must lie between score.min and score.max");
        }
        return new Score(scaled, raw, min, max);
    }

    List<Attachment> attachments() throws IOException {
        in.expectArray();
        List<Attachment> out = new ArrayList<>();
        path.pushIndex(0);
        while (in.next() != JsonToken.END_ARRAY) {
            path.setIndex(out.size());
            in.expectObject();
            String usageType = null, contentType = null, sha2 = null, fileUrl = null;
            Map<String, String> display = null, description = null;
            Long length = null;
            for (String prop; (prop = in.nextName()) != null; ) {
                path.pushName(prop);
                switch (prop) {
                    case "usageType" -> usageType = iri();
                    case "display" -> display = languageMap();
                    case "description" -> description = languageMap();
                    case "contentType" -> {
                        contentType = in.string();
                        if (!MediaTypes.isValid(contentType)) {
                            throw new XapiException(path.format(), "attachment.content_type", "contentType '"
                                    + contentType + "' is not an Internet Media Type such as text/plain");
                        }
                    }
                    case "length" -> {
                        if (in.token() != JsonToken.VALUE_NUMBER_INT || in.longValue() < 0) {
                            throw new XapiException(path.format(), "attachment.length",
                                    "length must be a non-negative integer number of bytes");
                        }
                        length = in.longValue();
                    }
                    case "sha2" -> {
                        sha2 = in.string();
                        if (!Hashes.isHex(sha2)) {
                            throw new XapiException(path.format(), "attachment.sha2",
                                    "sha2 must be the hexadecimal SHA-2 hash of the attachment");
                        }
                    }
                    case "fileUrl" -> fileUrl = iri();
                    default -> throw in.unknown(prop, "an Attachment");
                }
                path.pop();
            }
            in.requireProperty(usageType, "usageType", "an Attachment");
            in.requireProperty(display, "display", "an Attachment");
            in.requireProperty(contentType, "contentType", "an Attachment");
            in.requireProperty(length, "length", "an Attachment");
            in.requireProperty(sha2, "sha2", "an Attachment");
            out.add(new Attachment(usageType, display, description, contentType, length, sha2, fileUrl));
        }
        path.pop();
        return Collections.unmodifiableList(out);
    }

    // ---- scalar and generic values ------------------------------------------------------------------------

    private Map<String, String> languageMap() throws IOException {
        in.expectObject();
        Object[] kv = languages;
        int n = 0;
        for (String tag; (tag = in.nextName()) != null; ) {
            path.pushName(tag);
            if (!LanguageTags.isValid(tag)) {
                throw new XapiException(path.format(), "language.invalid",
                        "'" + tag + "' is not an RFC 5646 language tag (e.g. en-US)");
            }
            if (n == kv.length) {
                kv = languages = Arrays.copyOf(kv, n * 2);
            }
            kv[n++] = tag;
            kv[n++] = in.string();
            path.pop();
        }
        return new SmallMap<>(Arrays.copyOf(kv, n));
    }

    Map<String, Object> extensions() throws IOException {
        in.expectObject();
        Object[] kv = new Object[4];
        int n = 0;
        for (String key; (key = in.nextName()) != null; ) {
            path.pushName(key);
            if (!Iris.isAbsolute(key)) {
                throw new XapiException(path.format(), "extension.key", "extension key '" + key
                        + "' is not an absolute IRI");
            }
            if (n == kv.length) {
                kv = Arrays.copyOf(kv, n * 2);
            }
            kv[n++] = key;
            kv[n++] = in.anyValue();
            path.pop();
        }
        return new SmallMap<>(n == kv.length ? kv : Arrays.copyOf(kv, n));
    }

    private List<String> stringArray() throws IOException {
        in.expectArray();
        List<String> out = new ArrayList<>();
        path.pushIndex(0);
        while (in.next() != JsonToken.END_ARRAY) {
            path.setIndex(out.size());
            out.add(in.string());
        }
        path.pop();
        return Collections.unmodifiableList(out);
    }

    List<String> iriArray() throws IOException {
        in.expectArray();
        List<String> out = new ArrayList<>();
        path.pushIndex(0);
        while (in.next() != JsonToken.END_ARRAY) {
            path.setIndex(out.size());
            out.add(iri());
        }
        path.pop();
        if (out.isEmpty()) {
            throw new XapiException(path.format(), "array.empty", "relevantTypes must list at least one IRI");
        }
        return Collections.unmodifiableList(out);
    }

    String timestamp() throws IOException {
        String v = in.string();
        if (!Timestamps.isValid(v, offsetRequired)) {
            throw new XapiException(path.format(), "timestamp.invalid", "'" + v + "' is not "
                    + Timestamps.rule(version));
        }
        return v;
    }

    String iri() throws IOException {
        String v = in.string();
        if (!Iris.isAbsolute(v)) {
            throw new XapiException(path.format(), "iri.invalid", "'" + v + "' is not an absolute IRI");
        }
        return v;
    }

    /**
     * A UUID in standard string form; {@code child} names the property under the current path for the error
     * (null when the path already points at the value).
     */
    UUID uuid(String v, String child) {
        if (!Uuids.isValid(v)) {
            throw new XapiException(child == null ? path.format() : path.format(child), "uuid.invalid", "'" + v
                    + "' is not a UUID in standard string form (8-4-4-4-12 hexadecimal digits)");
        }
        return UUID.fromString(v);
    }
}
