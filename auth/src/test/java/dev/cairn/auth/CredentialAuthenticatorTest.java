package dev.cairn.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.http.Principal;
import dev.cairn.store.CredentialStore;
import dev.cairn.store.Database;
import dev.cairn.store.TestDatabase;
import dev.cairn.xapi.ActorWriter;
import dev.cairn.xapi.Agent;
import dev.cairn.xapi.Ifi;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What {@link CredentialAuthenticator} remembers, on each database, with a clock the test moves and confirmations
 * run at once: a remembered verification is used only while confirmed within the recheck interval against the
 * credential as stored now, and two different secrets never verify as one.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("dev.cairn.store.TestDatabase#dialects")
class CredentialAuthenticatorTest {
    private static final String KEY = "k";
    private static final String SECRET = "the-secret-0123";
    private static final long RECHECK = TimeUnit.MILLISECONDS.toNanos(CredentialAuthenticator.RECHECK_MILLIS);

    @Parameter
    String dialect;
    @TempDir
    Path dir;

    private TestDatabase database;
    private Database db;
    private CredentialStore store;
    private final AtomicLong now = new AtomicLong();
    private final AtomicInteger derivations = new AtomicInteger();
    private CredentialAuthenticator authenticator;

    @BeforeEach
    void open() {
        database = TestDatabase.create(dialect, dir);
        db = Database.open(database.url());
        store = new CredentialStore(db);
        authenticator = new CredentialAuthenticator(store, now::get, (secret, salt, iterations) -> {
            derivations.incrementAndGet();
            return CredentialAuthenticator.pbkdf2(secret, salt, iterations);
        }, Runnable::run);
    }

    @AfterEach
    void close() {
        db.close();
        database.close();
    }

    private void create(String secret, String... scopes) {
        byte[] authority = ActorWriter.write(new Agent(KEY, new Ifi(Ifi.Kind.ACCOUNT, AdminCredential.AUTHORITY_HOME_PAGE, KEY)));
        assertTrue(store.insert(CredentialAuthenticator.newCredential(KEY, secret, Set.of(scopes), authority)));
    }

    @Test
    void aVerifiedSecretIsRememberedWithoutAnotherDerivation() {
        create(SECRET, "all");
        assertTrue(authenticator.verify(KEY, SECRET).isPresent());
        now.set(RECHECK - 1);
        assertNotNull(authenticator.remembered(KEY, SECRET));
        assertNull(authenticator.remembered(KEY, SECRET + "x"));
        assertEquals(1, derivations.get());
    }

    @Test
    void anUnconfirmedVerificationIsNotUsedOnceTheRecheckIntervalHasPassed() {
        create(SECRET, "all");
        assertTrue(authenticator.verify(KEY, SECRET).isPresent());
        store.delete(KEY);
        now.set(RECHECK);
        assertNull(authenticator.remembered(KEY, SECRET));
        assertEquals(Optional.empty(), authenticator.verify(KEY, SECRET));
    }

    @Test
    void aConfirmationKeepsTheVerificationOfAnUnchangedCredential() {
        create(SECRET, "all");
        assertTrue(authenticator.verify(KEY, SECRET).isPresent());
        now.set(RECHECK / 2);
        assertNotNull(authenticator.remembered(KEY, SECRET)); // confirms it
        now.set(RECHECK / 2 + RECHECK - 1);
        assertNotNull(authenticator.remembered(KEY, SECRET));
        assertEquals(1, derivations.get());
    }

    @Test
    void aKeyCreatedAgainWithTheSameSecretAndOtherScopesIsVerifiedAgain() {
        create(SECRET, "all");
        assertEquals(Set.of("all"), authenticator.verify(KEY, SECRET).orElseThrow().scopes());
        store.delete(KEY);
        create(SECRET, "statements/read");
        now.set(RECHECK / 2);
        authenticator.remembered(KEY, SECRET); // its confirmation finds another credential
        assertNull(authenticator.remembered(KEY, SECRET));
        Principal again = authenticator.verify(KEY, SECRET).orElseThrow();
        assertEquals(Set.of("statements/read"), again.scopes());
        assertEquals(2, derivations.get());
    }

    @Test
    void aKeyCreatedAgainWithAnotherSecretAnswersOnlyToTheNewOne() {
        create(SECRET, "all");
        assertTrue(authenticator.verify(KEY, SECRET).isPresent());
        store.delete(KEY);
        create("the-new-secret-0123", "statements/read");
        assertEquals(Set.of("statements/read"), authenticator.verify(KEY, "the-new-secret-0123").orElseThrow().scopes());
        assertNotNull(authenticator.remembered(KEY, SECRET), "until its recheck the old one is remembered");
        now.set(RECHECK);
        assertNull(authenticator.remembered(KEY, SECRET));
        assertEquals(Optional.empty(), authenticator.verify(KEY, SECRET));
        assertEquals(3, derivations.get());
        assertEquals(Set.of("statements/read"), authenticator.verify(KEY, "the-new-secret-0123").orElseThrow().scopes());
        assertEquals(3, derivations.get(), "the new one is confirmed against the store without a derivation");
        assertNotNull(authenticator.remembered(KEY, "the-new-secret-0123"));
    }

    @Test
    void aSecretFollowedByNulsDerivesTheSameHashButIsRefused() {
        create(SECRET, "all");
        byte[] salt = new byte[16];
        assertEquals(java.util.HexFormat.of().formatHex(CredentialAuthenticator.pbkdf2(SECRET, salt, 1000)),
                java.util.HexFormat.of().formatHex(CredentialAuthenticator.pbkdf2(SECRET + "\0", salt, 1000)),
                "the reason: HMAC pads short keys with zeros");
        assertEquals(Optional.empty(), authenticator.verify(KEY, SECRET + "\0"));
        assertTrue(authenticator.verify(KEY, SECRET).isPresent());
    }

    @Test
    void secretsAndKeysThatCouldNotBePresentedExactlyAreNotCreated() {
        byte[] authority = ActorWriter.write(new Agent(KEY, new Ifi(Ifi.Kind.ACCOUNT, AdminCredential.AUTHORITY_HOME_PAGE, KEY)));
        assertThrows(IllegalArgumentException.class,
                () -> CredentialAuthenticator.newCredential(KEY, SECRET + "\0", Set.of("all"), authority));
        assertThrows(IllegalArgumentException.class,
                () -> CredentialAuthenticator.newCredential(KEY, "x".repeat(65), Set.of("all"), authority));
        assertThrows(IllegalArgumentException.class,
                () -> CredentialAuthenticator.newCredential("a:b", SECRET, Set.of("all"), authority));
    }
}
