package dev.cairn.ingest;

import dev.cairn.log.AttachmentContent;
import dev.cairn.xapi.Attachment;
import dev.cairn.xapi.ParsedStatement;
import dev.cairn.xapi.SignedStatements;
import dev.cairn.xapi.XapiException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Matches the attachment parts of a multipart request to the attachments its statements (and their SubStatements)
 * declare (Comm 1.5.2,
 * Data 2.4.11): every part must carry an X-Experience-API-Hash that is the sha2 of one of them and the SHA-256 of
 * its content; every attachment without a fileUrl (and every signature) must have its part. The result holds each
 * content once, keyed by its hash in lowercase.
 */
final class AttachmentParts {
    private AttachmentParts() {
    }

    static List<AttachmentContent> match(List<ParsedStatement> statements, List<MultipartBody.Part> parts) {
        Map<String, Attachment> declared = new LinkedHashMap<>();
        for (ParsedStatement p : statements) {
            for (Attachment a : p.statement().allAttachments()) {
                declared.putIfAbsent(a.sha2().toLowerCase(Locale.ROOT), a);
            }
        }
        Map<String, AttachmentContent> received = new LinkedHashMap<>();
        for (int i = 0; i < parts.size(); i++) {
            MultipartBody.Part part = parts.get(i);
            String where = "body part " + (i + 2);
            String hash = part.header("x-experience-api-hash");
            if (hash == null) {
                throw new XapiException(where, "attachment.hash_missing", "attachment part " + (i + 2)
                        + " has no X-Experience-API-Hash header; every part after the statements names its sha2");
            }
            hash = hash.toLowerCase(Locale.ROOT);
            Attachment a = declared.get(hash);
            if (a == null) {
                throw new XapiException(where, "attachment.unreferenced", "attachment part " + (i + 2) + " has hash "
                        + hash + ", which no attachment of the statements names as its sha2");
            }
            String encoding = part.header("content-transfer-encoding");
            if (encoding != null && !encoding.equalsIgnoreCase("binary")) {
                throw new XapiException(where, "attachment.encoding", "attachment part " + (i + 2)
                        + " has Content-Transfer-Encoding '" + encoding + "'; send the content as binary");
            }
            String actual = sha256(part.content());
            if (!actual.equals(hash)) {
                throw new XapiException(where, "attachment.hash_mismatch", "the content of attachment part " + (i + 2)
                        + " has SHA-256 " + actual + ", not the " + hash + " its X-Experience-API-Hash names");
            }
            String contentType = part.header("content-type");
            received.putIfAbsent(hash, new AttachmentContent(hash, contentType != null ? contentType : a.contentType(),
                    part.content()));
        }
        for (Map.Entry<String, Attachment> d : declared.entrySet()) {
            Attachment a = d.getValue();
            boolean signature = SignedStatements.SIGNATURE_USAGE.equals(a.usageType());
            if ((a.fileUrl() == null || signature) && !received.containsKey(d.getKey())) {
                throw new XapiException("body", "attachment.part_missing", "the attachment with sha2 " + a.sha2()
                        + (signature ? " is a signature, whose JWS must be sent" : " has no fileUrl, so its content must be sent")
                        + " as a multipart/mixed part with X-Experience-API-Hash: " + a.sha2());
            }
        }
        return new ArrayList<>(received.values());
    }

    static String sha256(byte[] content) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(content));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
    }
}
