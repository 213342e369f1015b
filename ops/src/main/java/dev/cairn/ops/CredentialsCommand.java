package dev.cairn.ops;

import static dev.cairn.ops.SettingTable.DB;

import dev.cairn.auth.AdminCredential;
import dev.cairn.auth.CredentialAuthenticator;
import dev.cairn.http.Scope;
import dev.cairn.store.Credential;
import dev.cairn.store.CredentialStore;
import dev.cairn.store.Database;
import dev.cairn.xapi.ActorWriter;
import dev.cairn.xapi.Agent;
import dev.cairn.xapi.Ifi;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code cairn credentials create|list|revoke}: the keys clients authenticate with, and their scopes. */
@Command(name = "credentials", mixinStandardHelpOptions = true,
        description = "Create, list and revoke credentials (HTTP Basic key and secret, with xAPI scopes).",
        subcommands = {CredentialsCommand.Create.class, CredentialsCommand.ListCredentials.class,
                CredentialsCommand.Revoke.class})
final class CredentialsCommand {

    @Command(name = "create", mixinStandardHelpOptions = true,
            description = "Create a credential and print KEY:SECRET once (only a salted hash of the secret is kept).")
    static final class Create implements Callable<Integer> {
        @Mixin
        CommonOptions options;

        @Option(names = "--scope", split = ",", required = true,
                description = "Scopes granted: statements/write, statements/read, statements/read/mine, all/read, "
                        + "all, state, define, profile (repeat or separate with commas); and admin, Cairn's "
                        + "administrative API (/admin/, export), which all does not grant.")
        List<String> scopes;

        @Option(names = "--name", description = "A name for the credential's authority Agent (default: the key).")
        String name;

        @Option(names = "--key", description = "The key to use (default: generated; at most 128 characters, no ':' or control characters).")
        String key;

        @Option(names = "--secret", description = "The secret to use (default: generated; 12 characters to 64 bytes, no control characters).")
        String secret;

        @Override
        public Integer call() {
            Set<String> granted = new LinkedHashSet<>();
            for (String s : scopes) {
                if (Scope.parse(s.trim()).isEmpty()) {
                    System.err.println("cairn credentials create: unknown scope '" + s + "'; use one of "
                            + "statements/write, statements/read, statements/read/mine, all/read, all, state, define, profile");
                    return 2;
                }
                granted.add(s.trim());
            }
            if (secret != null && secret.length() < 12) {
                System.err.println("cairn credentials create: --secret must have at least 12 characters");
                return 2;
            }
            SecureRandom random = new SecureRandom();
            String k = key != null ? key : "cairn-" + hex(random, 8);
            String s = secret != null ? secret : hex(random, 24);
            byte[] authority = ActorWriter.write(new Agent(name != null ? name : k,
                    new Ifi(Ifi.Kind.ACCOUNT, AdminCredential.AUTHORITY_HOME_PAGE, k)));
            Credential credential;
            try {
                credential = CredentialAuthenticator.newCredential(k, s, granted, authority);
            } catch (IllegalArgumentException e) {
                System.err.println("cairn credentials create: " + e.getMessage());
                return 2;
            }
            try (Database db = Database.open(options.settings().get(DB).jdbc())) {
                if (!new CredentialStore(db).insert(credential)) {
                    System.err.println("cairn credentials create: a credential with key '" + k + "' already exists");
                    return 1;
                }
            }
            System.out.println(k + ":" + s);
            return 0;
        }

        private static String hex(SecureRandom random, int bytes) {
            byte[] b = new byte[bytes];
            random.nextBytes(b);
            return HexFormat.of().formatHex(b);
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "List credentials: key, scopes, authority.")
    static final class ListCredentials implements Callable<Integer> {
        @Mixin
        CommonOptions options;

        @Override
        public Integer call() {
            try (Database db = Database.open(options.settings().get(DB).jdbc())) {
                for (Credential c : new CredentialStore(db).list()) {
                    System.out.println(c.key() + "\t" + String.join(",", c.scopes()) + "\t"
                            + new String(c.authority(), StandardCharsets.UTF_8));
                }
            }
            return 0;
        }
    }

    @Command(name = "revoke", mixinStandardHelpOptions = true,
            description = "Revoke a credential; running processes stop accepting it within seconds.")
    static final class Revoke implements Callable<Integer> {
        @Mixin
        CommonOptions options;

        @Parameters(index = "0", description = "The key of the credential to revoke.")
        String key;

        @Override
        public Integer call() {
            try (Database db = Database.open(options.settings().get(DB).jdbc())) {
                if (!new CredentialStore(db).delete(key)) {
                    System.err.println("cairn credentials revoke: no credential with key '" + key + "'");
                    return 1;
                }
            }
            System.out.println("revoked " + key + " at " + Instant.now());
            return 0;
        }
    }
}
