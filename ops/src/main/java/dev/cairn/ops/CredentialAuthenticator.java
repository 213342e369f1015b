package dev.cairn.ops;

import dev.cairn.http.Authenticator;
import dev.cairn.http.Principal;
import dev.cairn.store.Credential;
import dev.cairn.store.CredentialStore;
import dev.cairn.xapi.Actor;
import dev.cairn.xapi.FilterKey;
import dev.cairn.xapi.StatementParser;
import dev.cairn.xapi.XapiVersion;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

/**
 * Verifies Basic credentials against salted PBKDF2 hashes. A slow hash per request would cost milliseconds, so a
 * secret verified once is remembered as its SHA-256 digest: later requests cost one fast hash and a comparison.
 * A remembered credential is looked up again (by key, without hashing) after {@link #RECHECK_MILLIS}, so a
 * credential revoked by another process stops working within that time.
 */
public final class CredentialAuthenticator implements Authenticator {
    static final int ITERATIONS = 210_000;
    static final long RECHECK_MILLIS = 5_000;
    private static final String ALGORITHM = "PBKDF2WithHmacSHA256";

    private record Verified(byte[] secretDigest, Principal principal, long checkedAtMillis) {
    }

    private final CredentialStore store;
    private final Map<String, Verified> verified = new ConcurrentHashMap<>();

    public CredentialAuthenticator(CredentialStore store) {
        this.store = store;
    }

    @Override
    public Optional<Principal> authenticate(String key, String secret) {
        byte[] digest = sha256(secret);
        Verified v = verified.get(key);
        long now = System.currentTimeMillis();
        if (v != null && now - v.checkedAtMillis() < RECHECK_MILLIS) {
            return MessageDigest.isEqual(v.secretDigest(), digest) ? Optional.of(v.principal()) : Optional.empty();
        }
        if (v != null && MessageDigest.isEqual(v.secretDigest(), digest)) {
            if (store.find(key).isEmpty()) {
                verified.remove(key);
                return Optional.empty();
            }
            verified.put(key, new Verified(digest, v.principal(), now));
            return Optional.of(v.principal());
        }
        Optional<Credential> c = store.find(key);
        if (c.isEmpty() || !MessageDigest.isEqual(c.get().hash(), hash(secret, c.get().salt(), c.get().iterations()))) {
            return Optional.empty();
        }
        Actor authority = StatementParser.parseActor(c.get().authority(), XapiVersion.V2_0_0, "credential " + key);
        Principal p = new Principal(key, c.get().scopes(), c.get().authority(), FilterKey.authorityKey(authority));
        verified.put(key, new Verified(digest, p, now));
        return Optional.of(p);
    }

    /** Creates a credential with a fresh salt; only the hash of the secret is stored. */
    public static Credential newCredential(String key, String secret, Set<String> scopes, byte[] authority) {
        byte[] salt = new byte[16];
        new SecureRandom().nextBytes(salt);
        return new Credential(key, salt, hash(secret, salt, ITERATIONS), ITERATIONS, scopes, authority);
    }

    static byte[] hash(String secret, byte[] salt, int iterations) {
        try {
            PBEKeySpec spec = new PBEKeySpec(secret.toCharArray(), salt, iterations, 256);
            return SecretKeyFactory.getInstance(ALGORITHM).generateSecret(spec).getEncoded();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(ALGORITHM + " is not available in this JVM", e);
        }
    }

    private static byte[] sha256(String secret) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(secret.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("SHA-256 is not available in this JVM", e);
        }
    }
}
