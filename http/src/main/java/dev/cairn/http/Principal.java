package dev.cairn.http;

import java.util.Set;

/** Who a request comes from: the credential key, its scopes and the authority Agent JSON it stamps on statements. */
public record Principal(String key, Set<String> scopes, byte[] authority) {
}
