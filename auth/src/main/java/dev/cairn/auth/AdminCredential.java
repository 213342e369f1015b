package dev.cairn.auth;

import dev.cairn.store.CredentialStore;
import dev.cairn.xapi.ActorWriter;
import dev.cairn.xapi.Agent;
import dev.cairn.xapi.Ifi;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Set;

/** The first credential: from configuration, or generated on the first start and shown once. */
public final class AdminCredential {
    /** The homePage of the account that identifies a credential as a statement's authority. */
    public static final String AUTHORITY_HOME_PAGE = "http://cairn.local/credentials";

    private AdminCredential() {
    }

    /**
     * Makes sure the configured credential exists, or that some credential does.
     *
     * @return the credential created now, or null when none was created
     */
    public static KeyAndSecret ensure(CredentialStore store, KeyAndSecret configured) {
        if (configured != null) {
            if (store.find(configured.key()).isEmpty()) {
                create(store, configured.key(), configured.secret());
            }
            return null;
        }
        if (store.count() > 0) {
            return null;
        }
        SecureRandom random = new SecureRandom();
        byte[] k = new byte[8];
        byte[] secret = new byte[24];
        random.nextBytes(k);
        random.nextBytes(secret);
        String key = "cairn-" + HexFormat.of().formatHex(k);
        String s = HexFormat.of().formatHex(secret);
        create(store, key, s);
        return new KeyAndSecret(key, s);
    }

    private static void create(CredentialStore store, String key, String secret) {
        byte[] authority = ActorWriter.write(new Agent(key, new Ifi(Ifi.Kind.ACCOUNT, AUTHORITY_HOME_PAGE, key)));
        try {
            store.insert(CredentialAuthenticator.newCredential(key, secret, Set.of("all", "admin"), authority));
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("admin-credential: " + e.getMessage(), e);
        }
    }
}
