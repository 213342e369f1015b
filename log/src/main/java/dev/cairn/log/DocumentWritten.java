package dev.cairn.log;

import dev.cairn.xapi.DocumentKey;

/**
 * A document stored by PUT, or by POST after the sequencer merged it: the event carries the final content, so
 * replay never needs to merge again.
 */
public record DocumentWritten(DocumentKey key, String contentType, byte[] content, String etag, long updatedMillis)
        implements Event {
}
