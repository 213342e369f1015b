package dev.cairn.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * A mixed load over HTTP of everything projection turns into rows, for the rebuild invariant: plain statements and
 * batches; StatementRefs in every arrival order (the referrer before its target, a chain arriving out of order, a
 * cycle of two, a referrer and its target in one batch); voiding statements, one stored before its target and one
 * voiding a link of a chain; statements with attachments (multipart/mixed, one content shared by many); State (with
 * registrations), Activity Profile and Agent Profile documents put, merged with POST and deleted, States one at a time
 * and several at once; activity definitions that change and agents known by two names. Each round writes every kind
 * with ids and values of its own (from the seed); {@link #reads} are requests whose answers show what was written.
 */
final class MixedLoad {
    /** A request (under the xAPI URL) and what its answer must be. */
    record Read(String what, String path, int status, Predicate<String> body) {
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String VERBS = "http://adlnet.gov/expapi/verbs/";
    private static final String VOIDED = VERBS + "voided";
    private static final String[] VERB = {"completed", "attempted", "experienced", "commented"};
    private static final String EX = "http://example.com/mixed/";
    private static final int COURSES = 5;
    private static final int LEARNERS = 3;
    private static final int BATCH = 10;
    private static final String SHARED_ATTACHMENT = "an attachment many statements share\n";

    private final XapiClient xapi;
    private final SplittableRandom random;
    private final Map<String, Integer> counts = new LinkedHashMap<>();
    private final List<String> unexpected = new ArrayList<>();
    private final List<Read> reads = new ArrayList<>();

    private MixedLoad(XapiClient xapi, long seed) {
        this.xapi = xapi;
        this.random = new SplittableRandom(seed);
        for (String kind : List.of("statements", "batches", "StatementRefs referrer first", "StatementRefs in chains",
                "StatementRefs in cycles", "StatementRefs in batches", "voiding", "voiding before the target",
                "with an attachment", "definition changes", "State PUT", "State POST", "State DELETE",
                "State multiple DELETE", "Activity Profile PUT", "Activity Profile POST", "Activity Profile DELETE",
                "Agent Profile PUT", "Agent Profile POST", "Agent Profile DELETE")) {
            counts.put(kind, 0);
        }
    }

    /** Writes {@code rounds} rounds of every kind, one request at a time, through {@code xapi}. */
    static MixedLoad write(XapiClient xapi, int rounds, long seed) throws IOException, InterruptedException {
        MixedLoad load = new MixedLoad(xapi, seed);
        for (int r = 0; r < rounds; r++) {
            load.plain(r);
            load.batch(r);
            load.referrerFirst(r);
            load.chain(r);
            load.cycle(r);
            load.voidedBeforeStored(r);
            load.attachment(r);
            load.state(r);
            load.profile(r, "Activity Profile", "/activities/profile?activityId=" + XapiClient.encode(course(r)));
            load.profile(r, "Agent Profile", "/agents/profile?agent=" + XapiClient.encode(mbox(learner(r))));
        }
        load.lastReads(rounds);
        return load;
    }

    List<Read> reads() {
        return reads;
    }

    /** The row: every write answered with its success status; the counts of each kind written. */
    InvariantRow row(String dialect, int rounds) {
        String written = counts.entrySet().stream().map(e -> e.getKey() + " " + e.getValue())
                .collect(Collectors.joining(", "));
        return new InvariantRow(dialect, "mixed load over HTTP, " + rounds + " rounds of every kind",
                "every write answered 200 (POST statements) or 204", written + "; " + unexpected.size()
                + " other answers" + (unexpected.isEmpty() ? "" : ": " + unexpected.get(0)), unexpected.isEmpty());
    }

    private UUID uuid() {
        return FuzzCases.uuid(random);
    }

    private static String learner(int r) {
        return "learner-" + r % LEARNERS;
    }

    private static String course(int r) {
        return EX + "course/" + r % COURSES;
    }

    /** Activities whose definitions change: each is defined again every other round. */
    private static String defined(int r) {
        return EX + "defined/" + r % 2;
    }

    private static String mbox(String name) {
        return "{\"mbox\":\"mailto:" + name + "@example.com\"}";
    }

    private static String agent(String name, String displayName) {
        return "{\"mbox\":\"mailto:" + name + "@example.com\",\"name\":\"" + displayName + "\"}";
    }

    private static String activity(String id) {
        return "{\"objectType\":\"Activity\",\"id\":\"" + id + "\"}";
    }

    private static String ref(UUID target) {
        return "{\"objectType\":\"StatementRef\",\"id\":\"" + target + "\"}";
    }

    private static String statement(UUID id, String actor, String verb, String object, String more) {
        return "{" + (id == null ? "" : "\"id\":\"" + id + "\",") + "\"actor\":" + actor + ",\"verb\":{\"id\":\""
                + (verb.startsWith("http") ? verb : VERBS + verb) + "\"},\"object\":" + object + more + "}";
    }

    /**
     * Plain statements: one PUT with a changed activity definition (voided after), one POST, one by an identified
     * Group.
     */
    private void plain(int r) throws IOException, InterruptedException {
        String name = "\"en-US\":\"Revision " + r + "\"" + (r % 3 == 0 ? ",\"de-DE\":\"Revision " + r + "\"" : "");
        String definition = "{\"name\":{" + name + "},\"type\":\"http://adlnet.gov/expapi/activities/course\""
                + (r % 2 == 1 ? ",\"description\":{\"en-US\":\"revised in round " + r + "\"}" : "") + "}";
        UUID id = uuid();
        String learner = learner(r);
        String object = "{\"objectType\":\"Activity\",\"id\":\"" + defined(r) + "\",\"definition\":" + definition + "}";
        if (expect("PUT statement", xapi.send("PUT", "/statements?statementId=" + id, "application/json",
                bytes(statement(id, agent(learner, "Learner " + learner), VERB[r % 4], object, ""))), 204)) {
            count("statements", 1);
            count("definition changes", 1);
        }
        // The same agent by another name: /agents answers both.
        post(null, 1, statement(null, agent(learner, "L. " + learner), VERB[(r + 1) % 4], activity(course(r)),
                ",\"context\":{\"registration\":\"" + uuid() + "\"}"));
        post(null, 1, statement(null, "{\"objectType\":\"Group\",\"name\":\"Team " + r % 2 + "\",\"mbox\":"
                + "\"mailto:team-" + r % 2 + "@example.com\",\"member\":[" + agent(learner, "Learner " + learner)
                + "]}", VERB[2], activity(course(r)), ""));
        voiding(id);
    }

    /** A batch with a StatementRef to a statement later in it, one to a statement earlier, and a SubStatement. */
    private void batch(int r) throws IOException, InterruptedException {
        UUID[] ids = new UUID[BATCH];
        for (int i = 0; i < BATCH; i++) {
            ids[i] = uuid();
        }
        String registration = uuid().toString();
        List<String> statements = new ArrayList<>();
        for (int i = 0; i < BATCH; i++) {
            String object = switch (i) {
                case 3 -> ref(ids[7]);
                case 8 -> ref(ids[1]);
                case 5 -> "{\"objectType\":\"SubStatement\",\"actor\":" + agent("sub-" + r, "Sub " + r)
                        + ",\"verb\":{\"id\":\"" + VERBS + VERB[0] + "\"},\"object\":" + activity(EX + "sub/" + r) + "}";
                default -> activity(EX + "page/" + r + "/" + i);
            };
            statements.add(statement(ids[i], agent(learner(r + i), "Learner " + learner(r + i)), VERB[i % 4], object,
                    ",\"context\":{\"registration\":\"" + registration + "\",\"contextActivities\":{\"parent\":["
                            + activity(course(r)) + "]}}"));
        }
        if (post("batches", BATCH, "[" + String.join(",", statements) + "]")) {
            count("StatementRefs in batches", 2);
        }
        if (r == 0) {
            reads.add(new Read("a StatementRef matches through a target later in its batch", "/statements?activity="
                    + XapiClient.encode(EX + "page/0/7"), 200, returns(Set.of(ids[3], ids[7]), Set.of())));
        }
    }

    /** A StatementRef stored before its target. */
    private void referrerFirst(int r) throws IOException, InterruptedException {
        UUID referrer = uuid();
        UUID target = uuid();
        String activity = EX + "target/" + r;
        if (post("StatementRefs referrer first", 1, statement(referrer, agent("referrer-" + r, "Referrer"), VERB[3],
                ref(target), ""))) {
            post(null, 1, statement(target, agent("target-" + r, "Target"), VERB[0], activity(activity), ""));
        }
        if (r == 0) {
            reads.add(new Read("a StatementRef stored before its target matches through it", "/statements?activity="
                    + XapiClient.encode(activity), 200, returns(Set.of(referrer, target), Set.of())));
        }
    }

    /** A ← B ← C (C refers to B, B to A), stored C, A, B; in every third round B is voided after. */
    private void chain(int r) throws IOException, InterruptedException {
        UUID a = uuid();
        UUID b = uuid();
        UUID c = uuid();
        String activity = EX + "chain/" + r;
        post("StatementRefs in chains", 1, statement(c, agent("chain-c-" + r, "C"), VERB[1], ref(b), ""));
        post(null, 1, statement(a, agent("chain-a-" + r, "A"), VERB[0], activity(activity), ""));
        post("StatementRefs in chains", 1, statement(b, agent("chain-b-" + r, "B"), VERB[2], ref(a), ""));
        boolean voidB = r % 3 == 2;
        if (voidB) {
            voiding(b);
        }
        if (r == 0 || r == 2) {
            reads.add(new Read(voidB ? "a chain whose middle was voided: the middle leaves the matches, its referrer"
                    + " stays" : "a chain stored out of order matches through both targets", "/statements?activity="
                    + XapiClient.encode(activity), 200, voidB ? returns(Set.of(a, c), Set.of(b))
                    : returns(Set.of(a, b, c), Set.of())));
        }
    }

    /** X refers to Y and Y to X. */
    private void cycle(int r) throws IOException, InterruptedException {
        UUID x = uuid();
        UUID y = uuid();
        post("StatementRefs in cycles", 1, statement(x, agent("cycle-x-" + r, "X"), VERB[3], ref(y), ""));
        post("StatementRefs in cycles", 1, statement(y, agent("cycle-y-" + r, "Y"), VERB[3], ref(x), ""));
        if (r == 0) {
            reads.add(new Read("a cycle of two StatementRefs: each matches through the other", "/statements?agent="
                    + XapiClient.encode(mbox("cycle-x-0")), 200, returns(Set.of(x, y), Set.of())));
        }
    }

    /** A voiding statement stored before the statement it voids. */
    private void voidedBeforeStored(int r) throws IOException, InterruptedException {
        UUID target = uuid();
        String activity = EX + "voided-late/" + r;
        UUID voiding = voiding(target);
        if (voiding != null) {
            count("voiding before the target", 1);
        }
        post(null, 1, statement(target, agent(learner(r), "Learner " + learner(r)), VERB[0], activity(activity), ""));
        if (r == 0) {
            reads.add(new Read("a statement voided before it was stored, by voidedStatementId",
                    "/statements?voidedStatementId=" + target, 200, body -> target.toString().equals(
                    json(body).path("id").asText())));
            reads.add(new Read("the same statement by statementId", "/statements?statementId=" + target, 404,
                    body -> true));
            reads.add(new Read("its voiding statement matches through it, the voided statement does not",
                    "/statements?activity=" + XapiClient.encode(activity), 200, returns(Set.of(voiding), Set.of(target))));
        }
    }

    /** Posts a statement voiding {@code target}; returns its id, or null when it was not stored. */
    private UUID voiding(UUID target) throws IOException, InterruptedException {
        UUID id = uuid();
        return post("voiding", 1, statement(id, agent("admin", "Admin"), VOIDED, ref(target), "")) ? id : null;
    }

    /** A statement with a text attachment, in every other round the one content they share. */
    private void attachment(int r) throws IOException, InterruptedException {
        byte[] content = (r % 2 == 0 ? SHARED_ATTACHMENT : "the attachment of round " + r + "\n")
                .getBytes(StandardCharsets.UTF_8);
        String hash = HexFormat.of().formatHex(FuzzCases.sha256(content));
        UUID id = uuid();
        String json = statement(id, agent(learner(r), "Learner " + learner(r)), VERB[1], activity(course(r)),
                ",\"attachments\":[{\"usageType\":\"" + EX + "usage\",\"display\":{\"en-US\":\"a file\"},"
                        + "\"contentType\":\"text/plain\",\"length\":" + content.length + ",\"sha2\":\"" + hash + "\"}]");
        HttpResponse<String> answer = xapi.send("POST", "/statements", "multipart/mixed; boundary=" + FuzzCases.BOUNDARY,
                FuzzCases.multipartBody(bytes(json), "text/plain", hash, content, true));
        if (expect("POST statement with an attachment", answer, 200)) {
            count("statements", 1);
            count("with an attachment", 1);
        }
        if (r == 0) {
            reads.add(new Read("a statement with its attachment", "/statements?attachments=true&statementId=" + id,
                    200, body -> body.contains(SHARED_ATTACHMENT) && body.contains(hash)));
        }
    }

    /**
     * State: one merged twice under a registration, one put and deleted, two under another registration deleted
     * together.
     */
    private void state(int r) throws IOException, InterruptedException {
        String states = "/activities/state?activityId=" + XapiClient.encode(course(r)) + "&agent="
                + XapiClient.encode(mbox(learner(r)));
        String bookmark = states + "&stateId=bookmark&registration=" + uuid();
        document("State PUT", "PUT", bookmark, "{\"chapter\":1}");
        document("State POST", "POST", bookmark, "{\"progress\":" + r + "}");
        document("State POST", "POST", bookmark, "{\"page\":2}");
        String scratch = states + "&stateId=scratch-" + r;
        document("State PUT", "PUT", scratch, "{\"scratch\":" + r + "}");
        document("State DELETE", "DELETE", scratch, null);
        String together = states + "&registration=" + uuid();
        document("State PUT", "PUT", together + "&stateId=a", "{\"a\":" + r + "}");
        document("State PUT", "PUT", together + "&stateId=b", "{\"b\":" + r + "}");
        document("State multiple DELETE", "DELETE", together, null);
        if (r == 0) {
            reads.add(new Read("a State merged by two POSTs", bookmark, 200,
                    body -> json(body).equals(json("{\"chapter\":1,\"progress\":0,\"page\":2}"))));
            reads.add(new Read("a State deleted alone", scratch, 404, body -> true));
            reads.add(new Read("the State ids of a registration whose States were deleted together", together, 200,
                    body -> json(body).isArray() && json(body).isEmpty()));
        }
    }

    /**
     * A profile put new, put again with If-Match, merged into a profile every round shares, and deleted the round
     * after.
     */
    private void profile(int r, String kind, String profiles) throws IOException, InterruptedException {
        String own = profiles + "&profileId=profile-" + r;
        document(kind + " PUT", "PUT", own, "{\"v\":1}", "If-None-Match", "*");
        HttpResponse<String> read = xapi.get(own);
        if (expect("GET " + kind, read, 200)) {
            document(kind + " PUT", "PUT", own, "{\"v\":2,\"round\":" + r + "}", "If-Match",
                    read.headers().firstValue("ETag").orElse("\"none\""));
        }
        document(kind + " POST", "POST", profiles + "&profileId=shared", "{\"round-" + r + "\":" + r + "}");
        if (r > 0) {
            String previous = kind.startsWith("Activity") ? "/activities/profile?activityId="
                    + XapiClient.encode(course(r - 1)) : "/agents/profile?agent=" + XapiClient.encode(mbox(learner(r - 1)));
            document(kind + " DELETE", "DELETE", previous + "&profileId=profile-" + (r - 1), null);
        }
    }

    /** Reads of what every round changed: the definition, the merged profiles, the agent's names. */
    private void lastReads(int rounds) {
        int last = rounds - 1;
        reads.add(new Read("the definition of an activity given " + (last / 2 + 1) + " times, changed each time",
                "/activities?activityId=" + XapiClient.encode(defined(last)), 200, body -> ("Revision " + last)
                .equals(json(body).path("definition").path("name").path("en-US").asText())));
        reads.add(new Read("an Activity Profile merged by POSTs of several rounds", "/activities/profile?activityId="
                + XapiClient.encode(course(0)) + "&profileId=shared", 200, merged(rounds, COURSES)));
        reads.add(new Read("an Agent Profile merged by POSTs of several rounds", "/agents/profile?agent="
                + XapiClient.encode(mbox(learner(0))) + "&profileId=shared", 200, merged(rounds, LEARNERS)));
        reads.add(new Read("an agent known by two names", "/agents?agent=" + XapiClient.encode(mbox(learner(0))), 200,
                body -> json(body).path("name").toString().contains("\"Learner learner-0\"")
                        && json(body).path("name").toString().contains("\"L. learner-0\"")));
    }

    /** A profile's content: "round-r": r of every round r that merged into it (every {@code every}th from 0). */
    private static Predicate<String> merged(int rounds, int every) {
        StringBuilder expected = new StringBuilder("{");
        for (int r = 0; r < rounds; r += every) {
            expected.append(r == 0 ? "" : ",").append("\"round-").append(r).append("\":").append(r);
        }
        JsonNode want = json(expected.append('}').toString());
        return body -> json(body).equals(want);
    }

    /** A statement page that holds every id of {@code in} and none of {@code out}. */
    private static Predicate<String> returns(Set<UUID> in, Set<UUID> out) {
        return body -> {
            Set<String> ids = new HashSet<>();
            json(body).path("statements").forEach(s -> ids.add(s.path("id").asText()));
            return in.stream().allMatch(id -> ids.contains(id.toString()))
                    && out.stream().noneMatch(id -> ids.contains(id.toString()));
        };
    }

    private static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (IOException e) {
            throw new UncheckedIOException("not JSON: " + text, e);
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** POSTs statements ({@code n} of them); counts them, and the request under {@code kind} (null: none). */
    private boolean post(String kind, int n, String json) throws IOException, InterruptedException {
        if (!expect("POST statements", xapi.send("POST", "/statements", "application/json", bytes(json)), 200)) {
            return false;
        }
        count("statements", n);
        if (kind != null) {
            count(kind, 1);
        }
        return true;
    }

    /** A document write ({@code body} null: none), counted under {@code kind}; {@code headers}: name, value, ... */
    private void document(String kind, String method, String path, String body, String... headers)
            throws IOException, InterruptedException {
        if (expect(kind, xapi.send(method, path, body == null ? null : "application/json",
                body == null ? null : bytes(body), headers), 204)) {
            count(kind, 1);
        }
    }

    private boolean expect(String what, HttpResponse<String> answer, int status) {
        if (answer.statusCode() == status) {
            return true;
        }
        unexpected.add(what + " " + answer.request().uri().getRawPath() + ": " + answer.statusCode() + " "
                + answer.body().substring(0, Math.min(200, answer.body().length())));
        return false;
    }

    private void count(String kind, int n) {
        counts.merge(kind, n, Integer::sum);
    }
}
