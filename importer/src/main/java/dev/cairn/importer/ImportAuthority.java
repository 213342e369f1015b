package dev.cairn.importer;

import dev.cairn.auth.AdminCredential;
import dev.cairn.auth.CredentialAuthenticator;
import dev.cairn.auth.KeyAndSecret;
import dev.cairn.http.Principal;
import dev.cairn.store.CredentialStore;
import dev.cairn.store.Database;
import java.io.PrintWriter;

/**
 * The credential whose authority an in-process import stamps: that of the credential it is given (checked against the store like
 * a request's Basic credentials), else of the configured admin credential (created if missing, as serve does),
 * else of a first credential created now when the store has none.
 */
final class ImportAuthority {
    private ImportAuthority() {
    }

    /**
     * @param credential      the credential named for the import, or null
     * @param adminCredential the admin credential from configuration, or null
     * @param out             where a newly created credential is shown
     */
    static Principal resolve(Database db, KeyAndSecret credential, KeyAndSecret adminCredential, PrintWriter out) {
        CredentialStore store = new CredentialStore(db);
        KeyAndSecret created = AdminCredential.ensure(store, adminCredential); // as serve does on start
        if (created != null) {
            out.println("Created the first credential (shown only this once; keep it):");
            out.println("  " + created.key() + ":" + created.secret());
        }
        KeyAndSecret named = credential != null ? credential : adminCredential != null ? adminCredential : created;
        if (named == null) {
            throw new IllegalArgumentException("the database has credentials: name the one whose authority the "
                    + "imported statements carry with --credential KEY:SECRET (or --admin-credential)");
        }
        String key = named.key();
        Principal p;
        try (CredentialAuthenticator authenticator = new CredentialAuthenticator(store)) {
            p = authenticator.verify(key, named.secret()).orElseThrow(() -> new IllegalArgumentException(
                    "credential " + key + " is not in the database " + db.url() + ", or its secret is wrong"));
        }
        if (!p.scopes().contains("all") && !p.scopes().contains("statements/write")) {
            throw new IllegalArgumentException("credential " + key + " may not write statements (its scopes: "
                    + String.join(", ", p.scopes()) + ")");
        }
        return p;
    }
}
