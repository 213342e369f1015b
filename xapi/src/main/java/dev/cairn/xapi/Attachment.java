package dev.cairn.xapi;

import java.util.Map;

/** Attachment metadata (Data 2.4.11); the raw data travels in a multipart part matched by sha2. */
public record Attachment(
        String usageType,
        Map<String, String> display,
        Map<String, String> description,
        String contentType,
        long length,
        String sha2,
        String fileUrl) {
}
