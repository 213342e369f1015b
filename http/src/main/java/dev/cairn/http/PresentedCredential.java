package dev.cairn.http;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;

/**
 * A key and the SHA-256 digest of the secret presented with it: what verifications are remembered and shared
 * under. Equality compares the digest in constant time and the hash is the key's alone, so neither the time of a
 * look-up nor a map's buckets tell anything of the digest.
 */
public record PresentedCredential(String key, byte[] secretDigest) {
    private static final ThreadLocal<MessageDigest> SHA256 = ThreadLocal.withInitial(() -> {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("SHA-256 is not available in this JVM", e);
        }
    });

    public static PresentedCredential of(String key, String secret) {
        return new PresentedCredential(key, SHA256.get().digest(secret.getBytes(StandardCharsets.UTF_8)));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PresentedCredential p && key.equals(p.key) && MessageDigest.isEqual(secretDigest, p.secretDigest);
    }

    @Override
    public int hashCode() {
        return key.hashCode();
    }

    @Override
    public String toString() {
        return "PresentedCredential[" + key + "]"; // never the digest
    }
}
