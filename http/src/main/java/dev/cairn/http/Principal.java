package dev.cairn.http;

import java.util.Set;

/**
 * Who a request comes from: the credential key, its scopes, the authority Agent JSON it stamps on statements
 * and that authority's key ({@link dev.cairn.xapi.FilterKey#authorityKey}).
 */
public record Principal(String key, Set<String> scopes, byte[] authority, String authorityKey) {

    /**
     * Whether statements this credential writes may change what the LRS holds of their activities and agents
     * (canonical definitions, names): the {@code define} scope (or {@code all}). Without it their ids are stored
     * and nothing more (xAPI 1.0.3 Communication 4.2, OAuth scopes).
     */
    public boolean defines() {
        return scopes.contains(Scope.DEFINE.text()) || scopes.contains(Scope.ALL.text());
    }

    /** Whether this credential may void statements stored under another authority: the {@code all} scope. */
    public boolean voidsAnyStatement() {
        return scopes.contains(Scope.ALL.text());
    }

    /** Whether this credential may read only the statements it stored itself (statements/read/mine alone). */
    public boolean readsOnlyOwnStatements() {
        return scopes.contains(Scope.STATEMENTS_READ_MINE.text()) && !scopes.contains(Scope.STATEMENTS_READ.text())
                && !scopes.contains(Scope.ALL_READ.text()) && !scopes.contains(Scope.ALL.text());
    }
}
