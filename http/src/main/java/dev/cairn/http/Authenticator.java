package dev.cairn.http;

import java.util.Optional;

/**
 * Checks a key and secret from HTTP Basic authentication. Both are exactly what the client sent: valid UTF-8 without
 * control characters ({@link BasicAuthHandler} refuses anything else before asking).
 */
public interface Authenticator {
    /**
     * The principal of a verification remembered for exactly this key and secret and confirmed against the stored
     * credential within the recheck interval, or null when {@link #verify} must decide. Cheap and without I/O, so
     * it runs on the I/O threads.
     */
    Principal remembered(String key, String secret);

    /**
     * Whether exactly this key and secret verified before and are remembered, however long ago they were confirmed:
     * {@link #verify} then confirms them against the stored credential without a key derivation, so the limits on
     * failed verifications need not hold them back. Cheap and without I/O.
     */
    boolean verifiedBefore(String key, String secret);

    /**
     * Confirms a key and secret that verified before ({@link #verifiedBefore}) against the credential as stored now,
     * without a key derivation: its principal when the stored credential is unchanged, empty when it is not (revoked,
     * or created again), or when nothing is remembered for them. Blocking (it reads the store): never called on an I/O
     * thread.
     */
    Optional<Principal> confirm(String key, String secret);

    /**
     * Verifies the secret against the credential as stored now. Slow (a key derivation, which costs the same for a
     * key that does not exist) and blocking: never called on an I/O thread.
     */
    Optional<Principal> verify(String key, String secret);
}
