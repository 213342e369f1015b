package dev.cairn.store;

import java.util.Set;

/** A stored credential: only a salted slow hash of the secret is kept. */
public record Credential(String key, byte[] salt, byte[] hash, int iterations, Set<String> scopes, byte[] authority) {
}
