package dev.cairn.http;

import java.util.Set;

/**
 * Who a request comes from: the credential key, its scopes, the authority Agent JSON it stamps on statements
 * and that authority's key ({@link dev.cairn.xapi.FilterKey#authorityKey}).
 */
public record Principal(String key, Set<String> scopes, byte[] authority, String authorityKey) {

    /** Whether this credential may read only the statements it stored itself (statements/read/mine alone). */
    public boolean readsOnlyOwnStatements() {
        return scopes.contains(Scope.STATEMENTS_READ_MINE.text()) && !scopes.contains(Scope.STATEMENTS_READ.text())
                && !scopes.contains(Scope.ALL_READ.text()) && !scopes.contains(Scope.ALL.text());
    }
}
