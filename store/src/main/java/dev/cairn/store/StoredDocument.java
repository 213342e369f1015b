package dev.cairn.store;

/** A document as stored: its content type, content, ETag (SHA-1 hex, unquoted) and last update time. */
public record StoredDocument(String contentType, byte[] content, String etag, long updatedMillis) {
}
