package dev.cairn.ingest;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cairn.xapi.MediaTypes;
import java.io.IOException;

/** The JSON merge of a document POST (Comm 2.2): top-level properties of the posted object replace the stored ones. */
final class DocumentMerge {
    static final String JSON_TYPE = "application/json";
    /** Trailing tokens fail: {@code {"a":1}{} } is not a JSON object document. */
    private static final ObjectMapper JSON = new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private DocumentMerge() {
    }

    /** Whether a Content-Type is application/json, whatever its parameters. */
    static boolean isJson(String contentType) {
        return MediaTypes.hasEssence(contentType, JSON_TYPE);
    }

    /** The parsed JSON object, or null when the bytes are not one. */
    static ObjectNode object(byte[] content) {
        try {
            JsonNode node = JSON.readTree(content);
            return node instanceof ObjectNode o ? o : null;
        } catch (IOException e) {
            return null;
        }
    }

    /** The stored object with the posted one's top-level properties put over it. */
    static byte[] merge(ObjectNode stored, ObjectNode posted) {
        stored.setAll(posted);
        try {
            return JSON.writeValueAsBytes(stored);
        } catch (IOException e) {
            throw new IllegalStateException("cannot write a merged JSON document", e);
        }
    }
}
