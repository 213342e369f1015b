package dev.cairn.auth;

import dev.cairn.http.Authenticator;
import dev.cairn.http.BasicAuthHandler;
import dev.cairn.http.PresentedCredential;
import dev.cairn.http.Principal;
import dev.cairn.store.Credential;
import dev.cairn.store.CredentialStore;
import dev.cairn.store.LruMap;
import dev.cairn.store.StoreException;
import dev.cairn.xapi.Actor;
import dev.cairn.xapi.FilterKey;
import dev.cairn.xapi.StatementParser;
import dev.cairn.xapi.XapiVersion;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

/**
 * Verifies Basic credentials against salted PBKDF2 hashes, and remembers what it verified.
 *
 * <p>A verification is remembered under the key and the SHA-256 digest of the secret, with the credential as it was
 * stored when verified: later requests with exactly that key and secret cost one fast hash and a look-up, and no
 * other input can replace or evict it (only secrets that verify are remembered, and each credential has one). It
 * is used only while it was confirmed within {@link #RECHECK_MILLIS}: confirming reads the credential by key
 * (no key derivation) and keeps the entry only if its hash, salt, scopes and authority are unchanged, so a revoked
 * key, or one created again with another secret or scopes, is refused by every process within that time. Entries
 * in use are confirmed in the background from half that age, so a busy client never waits for it.
 *
 * <p>Exactness: HMAC pads a key shorter than its block with zeros, so PBKDF2 derives the same hash for a secret and
 * that secret followed by NULs. Control characters are refused in presented secrets ({@link BasicAuthHandler}) and
 * in new ones, and a new secret is at most {@link #MAX_SECRET_BYTES} (one HMAC block, never hashed down), so two
 * different secrets Cairn accepts never derive the same hash; hashes stored earlier stay valid.
 *
 * <p>A key that does not exist costs the same key derivation (against a dummy salt) as a wrong secret, so the time
 * of a refusal does not tell which keys exist.
 */
public final class CredentialAuthenticator implements Authenticator, AutoCloseable {
    public static final int ITERATIONS = 210_000;
    public static final long RECHECK_MILLIS = 5_000;
    /** The longest new secret in UTF-8 bytes: HMAC-SHA-256's block, past which it hashes the key first. */
    public static final int MAX_SECRET_BYTES = 64;
    private static final int REMEMBERED = 10_000;
    private static final String ALGORITHM = "PBKDF2WithHmacSHA256";
    private static final byte[] DUMMY_SALT = new byte[16];

    /** The slow hash of a secret (PBKDF2 in production; tests observe it). */
    public interface KeyDerivation {
        byte[] derive(String secret, byte[] salt, int iterations);
    }


    private static final class Verified {
        final Credential stored;
        final Principal principal;
        volatile long confirmedAt;
        final AtomicBoolean confirming = new AtomicBoolean();

        Verified(Credential stored, Principal principal, long confirmedAt) {
            this.stored = stored;
            this.principal = principal;
            this.confirmedAt = confirmedAt;
        }
    }

    private final CredentialStore store;
    private final LongSupplier nanoClock;
    private final KeyDerivation derivation;
    private final long recheckNanos = TimeUnit.MILLISECONDS.toNanos(RECHECK_MILLIS);
    private final Map<PresentedCredential, Verified> verified = new LruMap<>(REMEMBERED);
    private final Executor confirmer;

    public CredentialAuthenticator(CredentialStore store) {
        this(store, System::nanoTime, CredentialAuthenticator::pbkdf2, Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "cairn-credential-recheck");
            t.setDaemon(true);
            return t;
        }));
    }

    /** @param confirmer where verifications in use are confirmed in the background */
    public CredentialAuthenticator(CredentialStore store, LongSupplier nanoClock, KeyDerivation derivation, Executor confirmer) {
        this.store = store;
        this.nanoClock = nanoClock;
        this.derivation = derivation;
        this.confirmer = confirmer;
    }

    @Override
    public Principal remembered(String key, String secret) {
        PresentedCredential r = PresentedCredential.of(key, secret);
        Verified v;
        synchronized (verified) {
            v = verified.get(r);
        }
        if (v == null) {
            return null;
        }
        long age = nanoClock.getAsLong() - v.confirmedAt;
        if (age >= recheckNanos) {
            return null;
        }
        if (age >= recheckNanos / 2 && v.confirming.compareAndSet(false, true)) {
            try {
                confirmer.execute(() -> confirm(r, v));
            } catch (RejectedExecutionException e) {
                v.confirming.set(false); // closing: the entry expires instead
            }
        }
        return v.principal;
    }

    @Override
    public boolean verifiedBefore(String key, String secret) {
        PresentedCredential r = PresentedCredential.of(key, secret);
        synchronized (verified) {
            return verified.containsKey(r);
        }
    }

    private void confirm(PresentedCredential r, Verified v) {
        try {
            long started = nanoClock.getAsLong();
            Optional<Credential> now = store.find(r.key());
            if (now.isPresent() && same(now.get(), v.stored)) {
                v.confirmedAt = started;
            } else {
                forget(r, v);
            }
        } catch (StoreException e) {
            // Left unconfirmed, the entry expires and the next request verifies (and reports) for itself.
        } finally {
            v.confirming.set(false);
        }
    }

    @Override
    public Optional<Principal> confirm(String key, String secret) {
        PresentedCredential r = PresentedCredential.of(key, secret);
        Verified v;
        synchronized (verified) {
            v = verified.get(r);
        }
        if (v == null) {
            return Optional.empty();
        }
        long started = nanoClock.getAsLong();
        Optional<Credential> found = store.find(key);
        if (found.isPresent() && same(found.get(), v.stored)) {
            v.confirmedAt = started; // this exact secret verified against this exact credential: no derivation
            return Optional.of(v.principal);
        }
        forget(r, v);
        return Optional.empty();
    }

    @Override
    public Optional<Principal> verify(String key, String secret) {
        if (!BasicAuthHandler.presentable(secret)) { // whoever asks: such a secret may derive another's hash
            return Optional.empty();
        }
        Optional<Principal> confirmed = confirm(key, secret);
        if (confirmed.isPresent()) {
            return confirmed;
        }
        long started = nanoClock.getAsLong();
        Optional<Credential> found = store.find(key);
        byte[] salt = found.map(Credential::salt).orElse(DUMMY_SALT);
        int iterations = found.map(Credential::iterations).orElse(ITERATIONS);
        byte[] derived = derivation.derive(secret, salt, iterations);
        if (found.isEmpty() || !MessageDigest.isEqual(found.get().hash(), derived)) {
            return Optional.empty();
        }
        Credential c = found.get();
        Actor authority = StatementParser.parseActor(c.authority(), XapiVersion.V2_0_0, "credential " + key);
        Principal p = new Principal(key, c.scopes(), c.authority(), FilterKey.authorityKey(authority));
        synchronized (verified) {
            verified.put(PresentedCredential.of(key, secret), new Verified(c, p, started));
        }
        return Optional.of(p);
    }

    private void forget(PresentedCredential r, Verified v) {
        synchronized (verified) {
            verified.remove(r, v);
        }
    }

    private static boolean same(Credential a, Credential b) {
        return MessageDigest.isEqual(a.hash(), b.hash()) && Arrays.equals(a.salt(), b.salt())
                && a.iterations() == b.iterations() && a.scopes().equals(b.scopes())
                && Arrays.equals(a.authority(), b.authority());
    }

    /**
     * Creates a credential with a fresh salt; only the hash of the secret is stored.
     *
     * @throws IllegalArgumentException when the key or the secret could not be presented exactly
     */
    public static Credential newCredential(String key, String secret, Set<String> scopes, byte[] authority) {
        if (key.isEmpty() || key.length() > BasicAuthHandler.MAX_KEY_LENGTH || key.indexOf(':') >= 0
                || !BasicAuthHandler.presentable(key)) {
            throw new IllegalArgumentException("a key has 1 to " + BasicAuthHandler.MAX_KEY_LENGTH
                    + " characters, without ':' or control characters");
        }
        if (secret.isEmpty() || secret.getBytes(StandardCharsets.UTF_8).length > MAX_SECRET_BYTES
                || !BasicAuthHandler.presentable(secret)) {
            throw new IllegalArgumentException("a secret has 1 to " + MAX_SECRET_BYTES
                    + " bytes of UTF-8, without control characters");
        }
        byte[] salt = new byte[16];
        new SecureRandom().nextBytes(salt);
        return new Credential(key, salt, pbkdf2(secret, salt, ITERATIONS), ITERATIONS, scopes, authority);
    }

    public static byte[] pbkdf2(String secret, byte[] salt, int iterations) {
        try {
            PBEKeySpec spec = new PBEKeySpec(secret.toCharArray(), salt, iterations, 256);
            return SecretKeyFactory.getInstance(ALGORITHM).generateSecret(spec).getEncoded();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(ALGORITHM + " is not available in this JVM", e);
        }
    }

    @Override
    public void close() {
        if (confirmer instanceof ExecutorService own) {
            own.shutdownNow();
        }
    }
}
