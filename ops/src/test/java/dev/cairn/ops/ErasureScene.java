package dev.cairn.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

    /**
     * Statements stored before and after the end of a retention period, which it returns. Gone (who voids one of
     * Pupil's), Pupil and Pupil's Teacher appear only before it; Stays before it as "Old Name" and after it as "New
     * Name", in a statement that refers to one of Gone's; Late before it alone, and after it as the instructor of a
     * statement of Ada's; Keeper before it as "Keeper Old" and after it as "Keeper" in a statement Stays voids (voided
     * statements leave the match index, but not the names); an activity is defined only before it. Ada has a statement
     * with Teacher as instructor before it: erased first ({@link #ADA_AGENT}), her statements leave residues that name
     * Teacher (before the end) and Late (after it).
     */
    long playRetention(TestLrs lrs) throws Exception {
        String activity = "{\"id\":\"" + ACTIVITY + "\"}";
        String gones = post(lrs, "gone's", statement(agent("gone@example.com", "Gone Learner"), Statements.COMPLETED,
                "{\"id\":\"http://example.com/old-course\",\"definition\":{\"name\":{\"en-US\":\"The old course\"}}}", ""));
        String pupils = post(lrs, "pupil's", statement(agent("pupil@example.com", "Pupil"), Statements.ATTEMPTED,
                activity, ",\"context\":{\"instructor\":" + agent("teacher@example.com", "Teacher") + "}"));
        post(lrs, "gone voids pupil's", statement(agent("gone@example.com", "Gone Learner"),
                "http://adlnet.gov/expapi/verbs/voided", "{\"objectType\":\"StatementRef\",\"id\":\"" + pupils + "\"}",
                ""));
        post(lrs, "ada with teacher", statement(agent(ADA, "Ada"), Statements.ATTEMPTED, activity,
                ",\"context\":{\"instructor\":" + agent("teacher@example.com", "Teacher") + "}"));
        post(lrs, "stays, before", statement(agent("stays@example.com", "Old Name"), Statements.COMPLETED, activity, ""));
        post(lrs, "late's", statement(agent("late@example.com", "Late"), Statements.COMPLETED, activity, ""));
        post(lrs, "keeper, before", statement(agent("keeper@example.com", "Keeper Old"), Statements.COMPLETED, activity,
                ""));
        Thread.sleep(20);
        long end = System.currentTimeMillis();
        Thread.sleep(20);
        post(lrs, "stays, after", statement(agent("stays@example.com", "New Name"), Statements.COMPLETED, activity, ""));
        post(lrs, "refers to gone's", statement(agent("stays@example.com", "New Name"), Statements.COMPLETED,
                "{\"objectType\":\"StatementRef\",\"id\":\"" + gones + "\"}", ""));
        post(lrs, "ada with late", statement(agent(ADA, "Ada"), Statements.ATTEMPTED, activity,
                ",\"context\":{\"instructor\":" + agent("late@example.com", "Late Teacher") + "}"));
        String keepers = post(lrs, "keeper's, after", statement(agent("keeper@example.com", "Keeper"),
                Statements.COMPLETED, activity, ""));
        post(lrs, "stays voids keeper's", statement(agent("stays@example.com", "New Name"),
                "http://adlnet.gov/expapi/verbs/voided", "{\"objectType\":\"StatementRef\",\"id\":\"" + keepers
                        + "\"}", ""));
        for (String role : List.of("stays, after", "refers to gone's")) {
            exact.put(role, lrs.get("/xapi/statements?format=exact&statementId=" + ids.get(role)).body());
        }
        return end;
    }

    /** The statements a retention period ending at {@link #playRetention}'s end removes. */
    static final List<String> EXPIRED = List.of("gone's", "pupil's", "gone voids pupil's", "stays, before", "late's",
            "keeper, before");

    /**
     * The ids a retention period ending at {@link #playRetention}'s end chooses once Ada is erased: the expired
     * statements', and that of her tombstone stored before it (whose residue names Teacher).
     */
    List<String> expiredIds() {
        List<String> out = new java.util.ArrayList<>();
        EXPIRED.forEach(role -> out.add(ids.get(role)));
        out.add(ids.get("ada with teacher"));
        return out;
    }

    /**
     * What Ada's erasure then a retention period ending at {@link #playRetention}'s end (or the removal of
     * {@link #expiredIds} by id) leave: the statements stored after it, byte for byte; the names of Stays (both), of
     * Late (both: a kept residue names Late) and of Keeper (both: a kept, voided statement names Keeper); the old
     * activity's definition; and no trace of Gone, Pupil or Teacher in any file of {@code data}.
     */
    void assertRetained(TestLrs lrs, Path data) throws Exception {
        for (String role : EXPIRED) {
            assertEquals(404, lrs.get("/xapi/statements?statementId=" + ids.get(role)).statusCode(), role);
            assertEquals(404, lrs.get("/xapi/statements?voidedStatementId=" + ids.get(role)).statusCode(), role);
        }
        for (String role : List.of("stays, after", "refers to gone's")) {
            assertEquals(exact.get(role), lrs.get("/xapi/statements?format=exact&statementId=" + ids.get(role)).body(),
                    role + " is byte for byte as it was");
        }
        assertEquals(List.of("New Name", "Old Name"), names(lrs, "stays@example.com"));
        assertEquals(List.of("Late", "Late Teacher"), names(lrs, "late@example.com"));
        assertEquals(List.of("Keeper", "Keeper Old"), names(lrs, "keeper@example.com"), "a voided statement keeps Keeper");
        assertEquals(List.of(), names(lrs, "gone@example.com"));
        assertEquals(List.of(), names(lrs, "teacher@example.com"));
        assertEquals("The old course", TestLrs.json(lrs.get("/xapi/activities?activityId="
                + URLEncoder.encode("http://example.com/old-course", StandardCharsets.UTF_8))).path("definition")
                .path("name").path("en-US").asText(), "an activity's definition is the activity's, kept");
        for (String gone : List.of("gone@example.com", "Gone Learner", "pupil@example.com", "teacher@example.com")) {
            assertFalse(anyFileHolds(data, gone), gone + " is in no file");
        }
        assertTrue(anyFileHolds(data, "stays@example.com"));
    }

    /** The names /agents gives the agent with this mailbox, sorted. */
    static List<String> names(TestLrs lrs, String mbox) throws Exception {
        HttpResponse<String> r = lrs.get("/xapi/agents?agent=" + URLEncoder.encode("{\"mbox\":\"mailto:" + mbox
                + "\"}", StandardCharsets.UTF_8));
        assertEquals(200, r.statusCode(), r.body());
        List<String> out = new java.util.ArrayList<>();
        TestLrs.json(r).path("name").forEach(n -> out.add(n.asText()));
        java.util.Collections.sort(out);
        return out;
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
