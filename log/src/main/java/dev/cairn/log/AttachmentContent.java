package dev.cairn.log;

/** The raw content of an attachment as a client sent it, named by its SHA-2 (lowercase hex). */
public record AttachmentContent(String sha2, String contentType, byte[] content) {
}
