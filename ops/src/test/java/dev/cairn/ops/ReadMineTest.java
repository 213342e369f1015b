package dev.cairn.ops;

import dev.cairn.auth.AdminCredential;
import static dev.cairn.ops.Statements.COMPLETED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The statements/read/mine scope (xAPI 1.0.3 Communication 4.2: "only Statements written by the Client itself")
 * through every way GET /statements can return statements. Credential "mine" stores S and its own StatementRef M to S;
 * another credential stores R, a StatementRef to S, and V, which voids mine's T. R and V match every filter S and T
 * match (Comm 2.1.3, Filter Conditions for StatementRefs), but they are not mine's: only S and M may come back.
 */
class ReadMineTest extends LrsOnEachDatabase {
    private static final String SECRET = "mine-secret-123";
    private static final String ACTIVITY = "http://example.com/course/mine";
    private static final String REGISTRATION = "0a7e8d3e-3b7a-4b8c-9d1e-2f3a4b5c6d7e";
    private static final String OTHER_VERB = "http://example.com/verbs/confirmed";

    private String mine;
    private String s;
    private String m;
    private String r;
    private String t;
    private String v;
    private Instant before;

    @BeforeEach
    void store() throws Exception {
        mine = "mine-" + UUID.randomUUID();
        lrs.credentials("create", "--scope", "statements/write,statements/read/mine", "--key", mine, "--secret", SECRET);
        before = Instant.now().minusSeconds(1).truncatedTo(ChronoUnit.MILLIS);
        s = UUID.randomUUID().toString();
        t = UUID.randomUUID().toString();
        m = UUID.randomUUID().toString();
        r = UUID.randomUUID().toString();
        v = UUID.randomUUID().toString();
        assertEquals(204, asMine(lrs.request("/xapi/statements?statementId=" + s).header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(learnerStatement(s)))).statusCode());
        assertEquals(204, asMine(lrs.request("/xapi/statements?statementId=" + t).header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(learnerStatement(t)))).statusCode());
        assertEquals(204, asMine(lrs.request("/xapi/statements?statementId=" + m).header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(ref(m, OTHER_VERB, s)))).statusCode());
        // The other credential is the test's own (scope all), whose authority differs from mine's.
        assertEquals(204, lrs.put(r, ref(r, OTHER_VERB, s)).statusCode());
        assertEquals(204, lrs.put(v, ref(v, "http://adlnet.gov/expapi/verbs/voided", t)).statusCode());
    }

    private static String learnerStatement(String id) {
        return "{\"id\":\"" + id + "\",\"actor\":{\"mbox\":\"mailto:learner@example.com\"},\"verb\":{\"id\":\"" + COMPLETED
                + "\"},\"object\":{\"id\":\"" + ACTIVITY + "\"},\"context\":{\"registration\":\"" + REGISTRATION
                + "\",\"instructor\":{\"mbox\":\"mailto:teacher@example.com\"},\"contextActivities\":{\"parent\":"
                + "[{\"id\":\"http://example.com/program\"}]}}}";
    }

    private static String ref(String id, String verb, String target) {
        return "{\"id\":\"" + id + "\",\"actor\":{\"mbox\":\"mailto:reviewer@example.com\"},\"verb\":{\"id\":\"" + verb
                + "\"},\"object\":{\"objectType\":\"StatementRef\",\"id\":\"" + target + "\"}}";
    }

    private HttpResponse<String> asMine(HttpRequest.Builder request) throws Exception {
        return lrs.send(request.setHeader("Authorization", TestLrs.basic(mine, SECRET)));
    }

    private HttpResponse<String> getAsMine(String query) throws Exception {
        return asMine(lrs.request("/xapi/statements" + query).GET());
    }

    private static String enc(String v) {
        return URLEncoder.encode(v, StandardCharsets.UTF_8);
    }

    private static List<String> ids(String statementResult) throws Exception {
        List<String> ids = new ArrayList<>();
        for (JsonNode st : TestLrs.JSON.readTree(statementResult).get("statements")) {
            ids.add(st.get("id").asText());
        }
        return ids;
    }

    private static List<String> ids(HttpResponse<String> response) throws Exception {
        assertEquals(200, response.statusCode(), response.body());
        return ids(response.body());
    }

    /** Newest first: M was stored after S. */
    private List<String> mineNewestFirst() {
        return List.of(m, s);
    }

    @Test
    void aPlainGetReturnsOnlyTheCredentialsOwnStatements() throws Exception {
        assertEquals(mineNewestFirst(), ids(getAsMine("")));
        assertEquals(List.of(v, r, m, s), ids(lrs.get("/xapi/statements")), "a credential with all reads all but T");
    }

    @Test
    void everyFilterReturnsOnlyTheCredentialsOwnStatements() throws Exception {
        String agent = enc("{\"mbox\":\"mailto:learner@example.com\"}");
        String teacher = enc("{\"mbox\":\"mailto:teacher@example.com\"}");
        for (String query : List.of("?verb=" + enc(COMPLETED), "?agent=" + agent, "?activity=" + enc(ACTIVITY),
                "?registration=" + REGISTRATION, "?agent=" + teacher + "&related_agents=true",
                "?activity=" + enc("http://example.com/program") + "&related_activities=true",
                "?since=" + before, "?until=" + Instant.now().plusSeconds(60).truncatedTo(ChronoUnit.MILLIS),
                "?verb=" + enc(COMPLETED) + "&agent=" + agent + "&activity=" + enc(ACTIVITY))) {
            assertEquals(mineNewestFirst(), ids(getAsMine(query)), query);
        }
    }

    @Test
    void relatedAgentsOfTheOtherCredentialsAuthorityFindNothingOfTheirs() throws Exception {
        String admin = enc("{\"objectType\":\"Agent\",\"account\":{\"homePage\":\"" + AdminCredential.AUTHORITY_HOME_PAGE
                + "\",\"name\":\"" + TestLrs.KEY + "\"}}");
        assertEquals(List.of(), ids(getAsMine("?agent=" + admin + "&related_agents=true")));
        assertEquals(List.of(m), ids(getAsMine("?verb=" + enc(OTHER_VERB))));
    }

    @Test
    void everyFormatReturnsOnlyTheCredentialsOwnStatements() throws Exception {
        for (String format : List.of("exact", "ids", "canonical")) {
            assertEquals(mineNewestFirst(), ids(getAsMine("?format=" + format)), format);
        }
    }

    @Test
    void ascendingReturnsOnlyTheCredentialsOwnStatements() throws Exception {
        assertEquals(List.of(s, m), ids(getAsMine("?ascending=true")));
        assertEquals(List.of(s, m), ids(getAsMine("?ascending=true&verb=" + enc(COMPLETED))));
    }

    @Test
    void bothVersionsReturnOnlyTheCredentialsOwnStatements() throws Exception {
        for (String version : List.of("1.0.3", "2.0.0")) {
            assertEquals(mineNewestFirst(), ids(asMine(lrs.request("/xapi/statements?verb=" + enc(COMPLETED))
                    .setHeader("X-Experience-API-Version", version).GET())), version);
        }
    }

    /** Pages of one statement each, full, and their more links: each of mine once, nothing of the other's. */
    @Test
    void moreLinksPageThroughOnlyTheCredentialsOwnStatements() throws Exception {
        for (String query : List.of("?limit=1", "?limit=1&verb=" + enc(COMPLETED), "?limit=1&ascending=true")) {
            List<String> seen = new ArrayList<>();
            HttpResponse<String> page = getAsMine(query);
            while (true) {
                List<String> ids = ids(page);
                String more = TestLrs.json(page).get("more").asText();
                seen.addAll(ids);
                if (more.isEmpty()) {
                    break;
                }
                assertEquals(1, ids.size(), "a page that has more is full: " + query);
                page = asMine(lrs.request(more).GET());
            }
            assertEquals(query.contains("ascending") ? List.of(s, m) : mineNewestFirst(), seen, query);
        }
    }

    @Test
    void attachmentsTrueReturnsOnlyTheCredentialsOwnStatements() throws Exception {
        HttpResponse<String> multipart = getAsMine("?attachments=true&verb=" + enc(COMPLETED));
        assertEquals(200, multipart.statusCode(), multipart.body());
        String type = multipart.headers().firstValue("Content-Type").orElseThrow();
        assertTrue(type.startsWith("multipart/mixed; boundary="), type);
        String part = multipart.body().split("--" + type.substring("multipart/mixed; boundary=".length()))[1];
        assertEquals(mineNewestFirst(), ids(part.substring(part.indexOf("\r\n\r\n") + 4).trim()));
    }

    @Test
    void theAlternateRequestSyntaxReturnsOnlyTheCredentialsOwnStatements() throws Exception {
        for (String form : List.of("", "&verb=" + enc(COMPLETED))) {
            HttpResponse<String> get = lrs.http.send(HttpRequest.newBuilder(URI.create(lrs.base() + "/xapi/statements?method=GET"))
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .POST(HttpRequest.BodyPublishers.ofString("Authorization=" + enc(TestLrs.basic(mine, SECRET))
                            + "&X-Experience-API-Version=1.0.3" + form)).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(mineNewestFirst(), ids(get), form);
        }
    }

    /** A StatementRef stored before its target gains the target's keys when it arrives, but not its authority. */
    @Test
    void aReferrerStoredBeforeItsTargetIsNotTheTargetsCredentials() throws Exception {
        String late = UUID.randomUUID().toString();
        String early = UUID.randomUUID().toString();
        assertEquals(204, lrs.put(early, ref(early, OTHER_VERB, late)).statusCode());
        assertEquals(204, asMine(lrs.request("/xapi/statements?statementId=" + late).header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(learnerStatement(late)))).statusCode());
        assertEquals(List.of(late, early, v, r, m, s), ids(lrs.get("/xapi/statements?verb=" + enc(COMPLETED))));
        assertEquals(List.of(late, m, s), ids(getAsMine("?verb=" + enc(COMPLETED))));
        assertEquals(List.of(late, m, s), ids(getAsMine("")));
    }

    /**
     * Attachments are stored once by their SHA-2, whoever sent them. A statement of mine that names another
     * credential's attachment by its sha2 with a fileUrl needs no part, so it is stored; its attachments=true must
     * not then carry the other credential's bytes (the invariant table's "read-mine" rows show the same out of
     * process).
     */
    @Test
    void aStatementNamingAnotherCredentialsAttachmentByItsHashDoesNotGetItsBytes() throws Exception {
        byte[] theirs = "another credential's private note".getBytes(StandardCharsets.UTF_8);
        String stored = UUID.randomUUID().toString();
        assertEquals(200, lrs.send(lrs.request("/xapi/statements").header("Content-Type", "multipart/mixed; boundary="
                + AttachmentApiTest.BOUNDARY).POST(HttpRequest.BodyPublishers.ofByteArray(AttachmentApiTest.multipart(
                AttachmentApiTest.statement(stored, AttachmentApiTest.attachment("http://example.com/usage",
                        "text/plain", theirs, null)), new Object[] {"text/plain", AttachmentApiTest.sha256(theirs),
                        theirs})))).statusCode());
        String borrowing = UUID.randomUUID().toString();
        HttpResponse<String> posted = asMine(lrs.request("/xapi/statements").header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(AttachmentApiTest.statement(borrowing,
                        AttachmentApiTest.attachment("http://example.com/usage", "text/plain", theirs,
                                "http://example.com/elsewhere")))));
        if (posted.statusCode() != 200) { // refusing such a statement is a fix too: nothing of theirs can come back
            assertEquals(4, posted.statusCode() / 100, posted.body());
            return;
        }
        for (String query : List.of("?statementId=" + borrowing + "&attachments=true", "?attachments=true")) {
            HttpResponse<String> read = getAsMine(query);
            assertEquals(200, read.statusCode(), read.body());
            assertFalse(read.body().contains("another credential's private note"), query + ": " + read.body());
        }
    }

    @Test
    void statementIdAndVoidedStatementIdFindOnlyTheCredentialsOwnStatements() throws Exception {
        assertEquals(200, getAsMine("?statementId=" + s).statusCode());
        assertEquals(200, getAsMine("?statementId=" + m).statusCode());
        assertEquals(200, getAsMine("?voidedStatementId=" + t).statusCode());
        assertEquals(404, getAsMine("?statementId=" + r).statusCode());
        assertEquals(404, getAsMine("?statementId=" + v).statusCode());
        assertEquals(404, getAsMine("?statementId=" + t).statusCode(), "voided");
        assertEquals(200, lrs.get("/xapi/statements?statementId=" + r).statusCode());

        String theirs = UUID.randomUUID().toString();
        assertEquals(204, lrs.put(theirs, learnerStatement(theirs)).statusCode());
        String voiding = UUID.randomUUID().toString();
        assertEquals(204, lrs.put(voiding, ref(voiding, "http://adlnet.gov/expapi/verbs/voided", theirs)).statusCode());
        assertEquals(200, lrs.get("/xapi/statements?voidedStatementId=" + theirs).statusCode());
        assertEquals(404, getAsMine("?voidedStatementId=" + theirs).statusCode());
    }
}
