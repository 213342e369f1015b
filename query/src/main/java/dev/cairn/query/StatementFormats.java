package dev.cairn.query;

import dev.cairn.store.DocumentReader;
import dev.cairn.xapi.ActivityDefinition;
import dev.cairn.xapi.CanonicalWriter;
import dev.cairn.xapi.IdsWriter;
import dev.cairn.xapi.StatementParser;
import dev.cairn.xapi.XapiException;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code format} of one GET, built from the stored exact form: exact is returned as stored, ids keeps only what
 * identifies agents, verbs and activities, canonical uses the LRS's canonical activity definitions, cut to the
 * languages of the request's Accept-Language. One instance serves one request and caches the definitions it reads.
 */
final class StatementFormats {
    private final String format;
    private final CanonicalWriter canonical;
    private final DocumentReader documents;
    private final Map<String, ActivityDefinition> definitions = new HashMap<>();

    StatementFormats(String format, DocumentReader documents, String acceptLanguage) {
        this.format = format;
        this.documents = documents;
        this.canonical = format.equals("canonical") ? new CanonicalWriter(this::lookup, acceptLanguage) : null;
    }

    /** Whether statements are returned as stored. */
    boolean exact() {
        return format.equals("exact");
    }

    /** The statement as the client asked for it, from its stored exact form. */
    byte[] render(byte[] stored) {
        return switch (format) {
            case "ids" -> IdsWriter.write(stored);
            case "canonical" -> canonical.write(stored);
            default -> stored;
        };
    }

    private ActivityDefinition lookup(String activityId) {
        if (definitions.containsKey(activityId)) {
            return definitions.get(activityId); // null too: the LRS has no definition of it
        }
        ActivityDefinition d = definition(activityId);
        definitions.put(activityId, d);
        return d;
    }

    private ActivityDefinition definition(String activityId) {
        Optional<byte[]> json = documents.activityDefinition(activityId);
        if (json.isEmpty()) {
            return null;
        }
        try {
            return StatementParser.parseActivityDefinition(json.get());
        } catch (XapiException e) {
            // A merged definition that no longer validates as one (such as components of an interaction type
            // replaced later) is not canonical: the statement's own definition is returned instead.
            return null;
        }
    }
}
