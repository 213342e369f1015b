package dev.cairn.http;

import java.util.Optional;

/** Checks a key and secret from HTTP Basic authentication. */
public interface Authenticator {
    Optional<Principal> authenticate(String key, String secret);
}
