package dev.cairn.store;

/** An attachment's content as stored, by the SHA-2 (lowercase hex) the statements name it with. */
public record StoredAttachment(String sha2, String contentType, byte[] content) {
}
