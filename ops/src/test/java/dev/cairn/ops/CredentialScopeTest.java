package dev.cairn.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.store.TestDatabase;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Credentials made with {@code cairn credentials}, and the scopes every endpoint enforces (403 without one). */
class CredentialScopeTest {
    @TempDir
    Path data;
    TestDatabase database;
    TestLrs lrs;

    @BeforeEach
    void start() throws Exception {
        database = TestDatabase.create("sqlite", data);
        lrs = new TestLrs(data, database.url());
    }

    @AfterEach
    void stop() {
        if (lrs != null) {
            lrs.close();
        }
        database.close();
    }

    private int status(String credential, String method, String path, String body) throws Exception {
        String[] ks = credential.split(":", 2);
        HttpRequest.Builder r = lrs.request(path).setHeader("Authorization", TestLrs.basic(ks[0], ks[1]))
                .header("Content-Type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        return lrs.http.send(r.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    private record Case(String method, String path, String body) {
    }

    private static final String STATEMENT = Statements.statement("s@example.com", Statements.COMPLETED, "http://example.com/a");
    private static final Case WRITE_STATEMENT = new Case("POST", "/xapi/statements", STATEMENT);
    private static final Case READ_STATEMENTS = new Case("GET", "/xapi/statements", null);
    private static final Case WRITE_STATE = new Case("PUT", DocumentApiTest.state("s"), "{}");
    private static final Case READ_STATE = new Case("GET", DocumentApiTest.state(null), null);
    private static final Case WRITE_PROFILE = new Case("PUT", DocumentApiTest.agentProfile("p") , "{}");
    private static final Case READ_PROFILE = new Case("GET", DocumentApiTest.activityProfile("p"), null);
    private static final Case READ_ACTIVITY = new Case("GET", "/xapi/activities?activityId=http://example.com/a", null);
    private static final Case EXPORT = new Case("GET", "/admin/export", null);
    private static final List<Case> ALL_CASES = List.of(WRITE_STATEMENT, READ_STATEMENTS, WRITE_STATE, READ_STATE,
            WRITE_PROFILE, READ_PROFILE, READ_ACTIVITY, EXPORT);
    private static final List<Case> XAPI_CASES = ALL_CASES.subList(0, ALL_CASES.size() - 1);

    private void assertScope(String scope, List<Case> allowed) throws Exception {
        String credential = lrs.credentials("create", "--scope", scope);
        for (Case c : ALL_CASES) {
            int status = status(credential, c.method(), c.path(), c.body());
            if (allowed.contains(c)) {
                assertNotEquals(403, status, scope + " should allow " + c);
                assertNotEquals(401, status, scope + " should allow " + c);
            } else {
                assertEquals(403, status, scope + " should not allow " + c);
            }
        }
    }

    @Test
    void statementsWriteOnlyWritesStatements() throws Exception {
        assertScope("statements/write", List.of(WRITE_STATEMENT));
    }

    @Test
    void statementsReadOnlyReadsStatements() throws Exception {
        assertScope("statements/read", List.of(READ_STATEMENTS));
    }

    @Test
    void allReadReadsEverythingAndWritesNothing() throws Exception {
        assertScope("all/read", List.of(READ_STATEMENTS, READ_STATE, READ_PROFILE, READ_ACTIVITY));
    }

    @Test
    void stateReadsAndWritesOnlyState() throws Exception {
        assertScope("state", List.of(WRITE_STATE, READ_STATE));
    }

    @Test
    void profileReadsAndWritesProfilesAndDefinitions() throws Exception {
        assertScope("profile", List.of(WRITE_PROFILE, READ_PROFILE, READ_ACTIVITY));
    }

    @Test
    void allDoesEverythingXapiDoesButNotTheAdministrativeApi() throws Exception {
        assertScope("all", XAPI_CASES);
    }

    @Test
    void adminReachesTheAdministrativeApiAndNothingOfXapi() throws Exception {
        assertScope("admin", List.of(EXPORT));
    }

    @Test
    void aCreatedCredentialIsListedWithItsScopesAndARevokedOneIsRefused() throws Exception {
        String credential = lrs.credentials("create", "--scope", "statements/read,statements/write", "--name", "LMS");
        String key = credential.split(":")[0];
        String list = lrs.credentials("list");
        assertTrue(list.contains(key + "\tstatements/read,statements/write"), list);
        assertTrue(list.contains("\"name\":\"LMS\""), list);
        assertEquals(200, status(credential, "GET", "/xapi/statements", null));
        lrs.credentials("revoke", key);
        lrs.close();
        lrs = new TestLrs(data, database.url());
        assertEquals(401, status(credential, "GET", "/xapi/statements", null));
    }

    @Test
    void statementsReadMineReturnsOnlyTheStatementsTheCredentialStored() throws Exception {
        String mine = lrs.credentials("create", "--scope", "statements/write,statements/read/mine");
        String other = lrs.credentials("create", "--scope", "statements/write");
        String[] ks = mine.split(":", 2);
        HttpResponse<String> own = lrs.http.send(lrs.request("/xapi/statements").setHeader("Authorization", TestLrs.basic(ks[0], ks[1]))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(STATEMENT)).build(),
                HttpResponse.BodyHandlers.ofString());
        String ownId = TestLrs.json(own).get(0).asText();
        String[] os = other.split(":", 2);
        HttpResponse<String> theirs = lrs.http.send(lrs.request("/xapi/statements").setHeader("Authorization", TestLrs.basic(os[0], os[1]))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(STATEMENT)).build(),
                HttpResponse.BodyHandlers.ofString());
        String theirId = TestLrs.json(theirs).get(0).asText();

        HttpResponse<String> page = lrs.http.send(lrs.request("/xapi/statements?verb=" + Statements.COMPLETED)
                .setHeader("Authorization", TestLrs.basic(ks[0], ks[1])).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(1, TestLrs.json(page).get("statements").size(), page.body());
        assertEquals(ownId, TestLrs.json(page).get("statements").get(0).get("id").asText());
        assertEquals(200, status(mine, "GET", "/xapi/statements?statementId=" + ownId, null));
        assertEquals(404, status(mine, "GET", "/xapi/statements?statementId=" + theirId, null));
        assertEquals(2, TestLrs.json(lrs.get("/xapi/statements")).get("statements").size());
    }

    /** xAPI 1.0.3 Communication 4.2: without "define", the LRS keeps the ids and does not update its activities or agents. */
    @Test
    void withoutTheDefineScopeStatementsLeaveDefinitionsAndNamesAlone() throws Exception {
        String writer = lrs.credentials("create", "--scope", "statements/write");
        String definer = lrs.credentials("create", "--scope", "statements/write,define");
        assertEquals(200, status(writer, "POST", "/xapi/statements",
                Statements.statement("w@example.com", Statements.COMPLETED, "http://example.com/by-writer")));
        assertEquals(200, status(definer, "POST", "/xapi/statements",
                Statements.statement("d@example.com", Statements.COMPLETED, "http://example.com/by-definer")));

        String byWriter = lrs.get("/xapi/activities?activityId=http://example.com/by-writer").body();
        String byDefiner = lrs.get("/xapi/activities?activityId=http://example.com/by-definer").body();
        assertTrue(!byWriter.contains("An activity"), byWriter);
        assertTrue(byDefiner.contains("An activity"), byDefiner);
        String writerAgent = lrs.get("/xapi/agents?agent=" + java.net.URLEncoder.encode(
                "{\"mbox\":\"mailto:w@example.com\"}", StandardCharsets.UTF_8)).body();
        String definerAgent = lrs.get("/xapi/agents?agent=" + java.net.URLEncoder.encode(
                "{\"mbox\":\"mailto:d@example.com\"}", StandardCharsets.UTF_8)).body();
        assertTrue(!writerAgent.contains("Learner"), writerAgent);
        assertTrue(definerAgent.contains("Learner"), definerAgent);
    }

    @Test
    void anUnknownScopeIsRefusedByTheCommand() {
        assertEquals(2, Main.run("credentials", "create", "--scope", "everything", "--data", data.toString(),
                "--db", database.url()));
    }
}
