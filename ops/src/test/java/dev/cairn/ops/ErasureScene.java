package dev.cairn.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cairn.store.Database;
import java.io.IOException;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * The data the erasure tests erase a person from: Ada's statements, statements of others naming her (as object,
 * instructor, in a free-text answer, in a name), a StatementRef to hers, her voiding of Bob's, an attachment, State
 * documents; and what the tests look for afterwards, in the answers, the files and the rows.
 */
final class ErasureScene {
    static final String ADA = "ada.lovelace@example.com";
    static final String ADA_AGENT = "{\"mbox\":\"mailto:" + ADA + "\"}";
    static final String ACTIVITY = "http://example.com/course/1";

    /** The statements of the scene, by role. */
    final Map<String, String> ids = new LinkedHashMap<>();
    /** The exact form of statements the erasure must leave byte for byte, by role. */
    final Map<String, String> exact = new HashMap<>();

    static String agent(String mbox, String name) {
        return "{\"objectType\":\"Agent\",\"name\":\"" + name + "\",\"mbox\":\"mailto:" + mbox + "\"}";
    }

    String post(TestLrs lrs, String role, String body) throws Exception {
        String id = UUID.randomUUID().toString();
        HttpResponse<String> r = lrs.put(id, "{\"id\":\"" + id + "\"," + body.substring(1));
        assertEquals(204, r.statusCode(), role + ": " + r.body());
        ids.put(role, id);
        return id;
    }

    static String statement(String actor, String verb, String object, String more) {
        return "{\"actor\":" + actor + ",\"verb\":{\"id\":\"" + verb + "\"},\"object\":" + object + more + "}";
    }

    /** Ada's statements, statements of others naming her, and statements of others that do not. */
    void play(TestLrs lrs) throws Exception {
        String activity = "{\"id\":\"" + ACTIVITY + "\"}";
        String defined = "{\"id\":\"" + ACTIVITY + "\",\"definition\":{\"name\":{\"en-US\":\"The course\"},"
                + "\"description\":{\"en-US\":\"notes by " + ADA + "\"},"
                + "\"extensions\":{\"http://example.com/weight\":0.0001}}}"; // a number a merge writes as 1.0E-4
        String adaHers = post(lrs, "ada's", statement(agent(ADA, "Ada Lovelace"), Statements.COMPLETED, defined, ""));
        post(lrs, "about ada", statement(agent("bob@example.com", "Bob"), Statements.COMPLETED,
                agent(ADA, "Ada Lovelace"), ""));
        post(lrs, "ada instructs", statement(agent("bob@example.com", "Bob"), Statements.ATTEMPTED, activity,
                ",\"context\":{\"instructor\":" + agent(ADA, "Ada") + "},\"result\":{\"response\":\"asked " + ADA
                        + ".\"}"));
        post(lrs, "refers to ada's", statement(agent("bob@example.com", "Bob"), Statements.COMPLETED,
                "{\"objectType\":\"StatementRef\",\"id\":\"" + adaHers + "\"}", ""));
        String bobs = post(lrs, "bob's", statement(agent("bob@example.com", "Bob"), Statements.ATTEMPTED, activity, ""));
        post(lrs, "ada voids bob's", statement(agent(ADA, "Ada"), "http://adlnet.gov/expapi/verbs/voided",
                "{\"objectType\":\"StatementRef\",\"id\":\"" + bobs + "\"}", ""));
        post(lrs, "carol's", statement(agent("carol@example.com", "Carol"), Statements.COMPLETED, activity, ""));
        post(lrs, "ada with dave", statement(agent(ADA, "Ada"), Statements.ATTEMPTED, activity,
                ",\"context\":{\"instructor\":" + agent("dave@example.com", "Dave Teacher") + "}"));
        post(lrs, "erin names ada", statement(agent("erin@example.com", "Erin, ask " + ADA), Statements.COMPLETED,
                activity, ""));
        byte[] essay = ("the essay of " + ADA).getBytes(StandardCharsets.UTF_8);
        String withEssay = UUID.randomUUID().toString();
        ids.put("ada's essay", withEssay);
        byte[] body = AttachmentApiTest.multipart("{\"id\":\"" + withEssay + "\"," + statement(agent(ADA, "Ada"),
                Statements.COMPLETED, activity, ",\"attachments\":[" + AttachmentApiTest.attachment(
                        "http://example.com/essay", "text/plain", essay, null) + "]").substring(1),
                new Object[] {"text/plain", AttachmentApiTest.sha256(essay), essay});
        assertEquals(200, lrs.send(lrs.request("/xapi/statements").header("Content-Type", "multipart/mixed; boundary="
                + AttachmentApiTest.BOUNDARY).POST(HttpRequest.BodyPublishers.ofByteArray(body))).statusCode());
        for (String who : List.of(ADA, "bob@example.com")) {
            assertEquals(204, lrs.send(lrs.request(state(who)).header("Content-Type", "text/plain")
                    .PUT(HttpRequest.BodyPublishers.ofString("progress of " + who))).statusCode());
        }
        for (String role : List.of("refers to ada's", "carol's")) {
            exact.put(role, lrs.get("/xapi/statements?format=exact&statementId=" + ids.get(role)).body());
        }
    }

    static String state(String mbox) {
        return "/xapi/activities/state?activityId=" + URLEncoder.encode(ACTIVITY, StandardCharsets.UTF_8) + "&agent="
                + URLEncoder.encode("{\"mbox\":\"mailto:" + mbox + "\"}", StandardCharsets.UTF_8) + "&stateId=s";
    }

    /** Whether any file under {@code dir} holds {@code text} (each one that does is printed). */
    static boolean anyFileHolds(Path dir, String text) throws IOException {
        byte[] needle = text.getBytes(StandardCharsets.UTF_8);
        boolean found = false;
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.filter(Files::isRegularFile).toList()) {
                if (dev.cairn.xapi.AnyOf.of(List.of(needle)).in(Files.readAllBytes(p))) {
                    System.out.println(p + " holds '" + text + "'");
                    found = true;
                }
            }
        }
        return found;
    }

    /** Whether any statement row of the database at {@code url} holds {@code text}. */
    static boolean anyRowHolds(String url, String text) throws Exception {
        try (Database db = Database.open(url); Connection c = db.reader();
             PreparedStatement ps = c.prepareStatement("SELECT json FROM statement"); ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                if (new String(rs.getBytes(1), StandardCharsets.UTF_8).contains(text)) {
                    return true;
                }
            }
        }
        return false;
    }
}
