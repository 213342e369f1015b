package dev.cairn.ops;

import dev.cairn.auth.CredentialAuthenticator;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Base64;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;

/**
 * A credential's life seen over HTTP, on each database: what a process remembers of a verified secret is checked
 * against the credential as stored now, so a revoked key created again answers only to its new secret, with its
 * new scopes, in this process and in another one sharing the database, within the time the README promises.
 */
class CredentialLifecycleTest extends LrsOnEachDatabase {
    private static final String KEY = "lifecycle-key";
    private static final String OLD_SECRET = "old-secret-0123456789";
    private static final String NEW_SECRET = "new-secret-9876543210";
    /** The README's promise (5 s) and a margin for a loaded machine. */
    private static final long PROMISE_MILLIS = CredentialAuthenticator.RECHECK_MILLIS + 2_000;

    private static String basic(String userPass) {
        return "Basic " + Base64.getEncoder().encodeToString(userPass.getBytes(StandardCharsets.UTF_8));
    }

    private int status(int port, String authorization, String method) throws Exception {
        HttpRequest.Builder r = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/xapi/statements"))
                .header("X-Experience-API-Version", "1.0.3").header("Authorization", authorization);
        r = method.equals("GET") ? r.GET() : r.header("Content-Type", "application/json").POST(
                HttpRequest.BodyPublishers.ofString(Statements.statement("l@example.com", Statements.COMPLETED,
                        "http://example.com/lifecycle")));
        return lrs.http.send(r.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    /** Uses the old secret until it is refused; fails when that takes longer than the promise. */
    private void assertOldSecretRefusedInTime(int port) throws Exception {
        long deadline = System.nanoTime() + PROMISE_MILLIS * 1_000_000;
        int status;
        do {
            status = status(port, basic(KEY + ":" + OLD_SECRET), "GET");
            if (status == 401) {
                return;
            }
            Thread.sleep(100);
        } while (System.nanoTime() < deadline);
        assertEquals(401, status, "the revoked secret still works after " + PROMISE_MILLIS + " ms");
    }

    private void revokeAndCreateAgain() {
        lrs.credentials("revoke", KEY);
        lrs.credentials("create", "--key", KEY, "--secret", NEW_SECRET, "--scope", "statements/read");
    }

    private void assertNewSecretHasOnlyTheNewScopes(int port) throws Exception {
        assertEquals(200, status(port, basic(KEY + ":" + NEW_SECRET), "GET"));
        assertEquals(403, status(port, basic(KEY + ":" + NEW_SECRET), "POST"));
    }

    @Test
    void aKeyRevokedAndCreatedAgainAnswersOnlyToItsNewSecretWithItsNewScopes() throws Exception {
        int port = lrs.cairn.port();
        lrs.credentials("create", "--key", KEY, "--secret", OLD_SECRET, "--scope", "all");
        assertEquals(200, status(port, basic(KEY + ":" + OLD_SECRET), "POST"));

        revokeAndCreateAgain();

        assertNewSecretHasOnlyTheNewScopes(port);
        assertOldSecretRefusedInTime(port);
        assertNewSecretHasOnlyTheNewScopes(port);
    }

    @Test
    void anotherProcessOnTheSameDatabaseSeesTheRevocationAndTheNewCredential() throws Exception {
        lrs.credentials("create", "--key", KEY, "--secret", OLD_SECRET, "--scope", "all");
        try (Cairn query = Cairn.start(TestLrs.settings(data, database.url()), EnumSet.of(Role.QUERY),
                Clock.systemUTC())) {
            assertEquals(200, status(query.port(), basic(KEY + ":" + OLD_SECRET), "GET"));

            revokeAndCreateAgain();

            assertOldSecretRefusedInTime(query.port());
            assertEquals(200, status(query.port(), basic(KEY + ":" + NEW_SECRET), "GET"));
            assertEquals(403, status(lrs.cairn.port(), basic(KEY + ":" + NEW_SECRET), "POST"));
        }
    }

    @Test
    void aSecretWithTrailingNulBytesIsRefusedAndLeavesTheRealSecretWorking() throws Exception {
        int port = lrs.cairn.port();
        String real = TestLrs.KEY + ":" + TestLrs.SECRET;
        assertEquals(401, status(port, basic(real + "\0"), "GET"));
        assertEquals(401, status(port, basic(real + "\0\0\0"), "GET"));
        assertEquals(200, status(port, basic(real), "GET"));
        assertEquals(401, status(port, basic(real + "\0"), "GET"), "refused while the real secret is remembered");
        assertEquals(200, status(port, basic(real), "GET"));
    }

    /** Decoding the header leniently would turn the byte 0xFF into U+FFFD, a character a real secret may hold. */
    @Test
    void aSecretThatIsNotValidUtf8IsRefused() throws Exception {
        lrs.credentials("create", "--key", KEY, "--secret", "secret-\uFFFD-0123456789", "--scope", "all");
        byte[] prefix = (KEY + ":secret-").getBytes(StandardCharsets.UTF_8);
        byte[] suffix = "-0123456789".getBytes(StandardCharsets.UTF_8);
        byte[] presented = new byte[prefix.length + 1 + suffix.length];
        System.arraycopy(prefix, 0, presented, 0, prefix.length);
        presented[prefix.length] = (byte) 0xff;
        System.arraycopy(suffix, 0, presented, prefix.length + 1, suffix.length);
        assertEquals(401, status(lrs.cairn.port(), "Basic " + Base64.getEncoder().encodeToString(presented), "GET"));
        assertEquals(200, status(lrs.cairn.port(), basic(KEY + ":secret-\uFFFD-0123456789"), "GET"));
    }
}
