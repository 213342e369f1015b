package dev.cairn.query;

import dev.cairn.store.DocumentReader;
import dev.cairn.store.StatementForm;
import dev.cairn.xapi.ActivityDefinition;
import dev.cairn.xapi.CanonicalWriter;
import dev.cairn.xapi.StatementParser;
import dev.cairn.xapi.XapiException;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code format} of one GET: exact and ids are read as stored (the projector computed the ids form at write
 * time); canonical is built here from the exact form with the LRS's canonical activity definitions, cut to the
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

    /** The stored form to read. */
    StatementForm form() {
        return format.equals("ids") ? StatementForm.IDS : StatementForm.EXACT;
    }

    /** The statement as the client asked for it, from the stored form {@link #form()} read. */
    byte[] render(byte[] stored) {
        return canonical == null ? stored : canonical.write(stored);
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
