package dev.cairn.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cairn.bench.FuzzRequest.Body;
import dev.cairn.bench.FuzzRequest.Builder;
import dev.cairn.bench.FuzzRequest.DocWrite;
import dev.cairn.bench.FuzzRequest.Expect;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Base64;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.function.Function;

/**
 * The fuzzer's cases: case {@code i} of seed {@code s} is always the same requests. A case is a valid request of one
 * resource and method (a template), the setup requests it needs (the document it updates, the statement it voids),
 * and one mutation of it; about one case in twelve is sent unmutated, as a control that must succeed. Each case uses
 * ids of its own, so cases can run concurrently and the data check can account for every write.
 */
final class FuzzCases {
    static final ObjectMapper JSON = new ObjectMapper();
    private static final String VOIDED = "http://adlnet.gov/expapi/verbs/voided";
    /** Stands in a statement's JSON text for where a mutation puts its bytes (replaced by nothing otherwise). */
    private static final String MARK = "~MARK~";
    private static final String BIG = "~BIG~";
    static final String BOUNDARY = "fuzz-boundary-27182818";

    /** What a template's request is, so that only mutations that mean something for it are drawn. */
    enum Trait { STATEMENT_JSON, DOC_JSON, DOC_MERGE, DOC_BYTES, MULTIPART, STATEMENT_QUERY, SINGLE_QUERY, DOC_QUERY,
        AUTH, ALT, PRECONDITION, PROFILE_PUT, READ }

    /** A case: its setup requests and the request under test (which may depend on the setup's answers). */
    record Case(int index, String resource, List<FuzzRequest> setup, Function<List<RawHttp.Answer>, FuzzRequest> main) {
    }

    /** A template made concrete: the valid request (still editable) and what a mutation may change in it. */
    final class Base {
        final List<FuzzRequest> setup = new ArrayList<>();
        final Builder main;
        final Set<Trait> traits;
        /** The body's JSON, for mutations of its structure; {@link #embed} puts JSON bytes back into the body. */
        JsonNode json;
        Function<byte[], Body> embed;
        String etag;

        Base(Builder main, Set<Trait> traits) {
            this.main = main;
            this.traits = traits;
        }

        boolean has(Trait t) {
            return traits.contains(t);
        }

        /** Replaces the JSON in the body with these bytes. */
        void setJson(byte[] bytes) {
            main.body = embed.apply(bytes);
        }

        /** The body's JSON text with the mark replaced by {@code inserted} (raw bytes). */
        byte[] jsonWith(byte[] inserted) {
            byte[] text = serialize(json);
            return replace(text, MARK.getBytes(StandardCharsets.UTF_8), inserted);
        }
    }

    /** A mutation: its kind (category/detail), weight, where it applies, and what it does (returning the expectation). */
    record Mutation(String kind, int weight, java.util.function.Predicate<Base> applies, Apply apply) {
    }

    interface Apply {
        /** Edits the base's request (or sets {@code post} to edit its built bytes); returns what to expect of it. */
        Expect apply(SplittableRandom r, Base b, Post post);
    }

    /** Edits of the built bytes: for mutations of the framing itself. */
    static final class Post {
        Function<FuzzRequest, FuzzRequest> edit = Function.identity();
    }

    private final String host;
    private final String key;
    private final String secret;
    private final long maxBody;
    private final long seed;
    private final List<Mutation> mutations = new ArrayList<>();

    FuzzCases(String host, String key, String secret, long maxBody, long seed) {
        this.host = host;
        this.key = key;
        this.secret = secret;
        this.maxBody = maxBody;
        this.seed = seed;
        defineMutations();
    }

    String basic(String credential) {
        return "Basic " + Base64.getEncoder().encodeToString(credential.getBytes(StandardCharsets.ISO_8859_1));
    }

    String auth() {
        return basic(key + ":" + secret);
    }

    // ------------------------------------------------------------------------------------------------ cases

    Case generate(int index) {
        SplittableRandom r = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + index * 0xBF58476D1CE4E5B9L + 1);
        Base b = template(r, r.nextInt(TEMPLATES));
        String resource = b.main.resource;
        if (b.has(Trait.READ) && b.main.path.contains("/more/")) {
            // the more link comes from the setup's answer: mutations of it are drawn once it is known
            long mutationSeed = r.nextLong();
            boolean control = r.nextInt(12) == 0;
            return new Case(index, resource, b.setup, answers -> {
                String more = moreOf(answers.get(0));
                b.main.path = more.isEmpty() ? "/xapi/statements" : more.split("\\?")[0];
                if (more.contains("?")) {
                    b.main.query.add(more.substring(more.indexOf('?') + 1));
                }
                return mutate(new SplittableRandom(mutationSeed), b, control);
            });
        }
        boolean control = r.nextInt(12) == 0;
        FuzzRequest main = mutate(r, b, control);
        return new Case(index, resource, b.setup, answers -> main);
    }

    private FuzzRequest mutate(SplittableRandom r, Base b, boolean control) {
        if (control) {
            b.main.expect = Expect.ACCEPT;
            return b.main.build("none");
        }
        List<Mutation> fit = mutations.stream().filter(m -> m.applies().test(b)).toList();
        int total = fit.stream().mapToInt(Mutation::weight).sum();
        int pick = r.nextInt(total);
        Mutation m = fit.get(0);
        for (Mutation candidate : fit) {
            pick -= candidate.weight();
            if (pick < 0) {
                m = candidate;
                break;
            }
        }
        Post post = new Post();
        b.main.expect = m.apply().apply(r, b, post);
        return post.edit.apply(b.main.build(m.kind()));
    }

    private static String moreOf(RawHttp.Answer a) {
        try {
            JsonNode more = JSON.readTree(a.body()).get("more");
            return more == null ? "" : more.asText();
        } catch (Exception e) {
            return "";
        }
    }

    // -------------------------------------------------------------------------------------------- templates

    private static final int TEMPLATES = 30;

    private Base template(SplittableRandom r, int t) {
        String v = r.nextInt(4) == 0 ? "1.0.3" : "2.0.0";
        return switch (t) {
            case 0, 1 -> statementPut(r, v);
            case 2 -> statementPost(r, v, 1);
            case 3 -> statementPost(r, v, 2 + r.nextInt(4));
            case 4 -> multipart(r, v);
            case 5 -> voiding(r, v);
            case 6 -> statementRef(r, v);
            case 7 -> statementGetById(r, v, false);
            case 8 -> statementGetById(r, v, true);
            case 9, 10 -> statementQuery(r, v, "GET");
            case 11 -> statementQuery(r, v, "HEAD");
            case 12 -> more(r, v);
            case 13 -> documentWrite(r, v, docKind(r), "PUT");
            case 14 -> documentWrite(r, v, docKind(r), "POST");
            case 15 -> documentRead(r, v, docKind(r), "GET");
            case 16 -> documentRead(r, v, docKind(r), "HEAD");
            case 17 -> documentIds(r, v, docKind(r));
            case 18 -> documentDelete(r, v, docKind(r));
            case 19, 20 -> documentPrecondition(r, v, docKind(r));
            case 21 -> documentMerge(r, v, docKind(r));
            case 22 -> activities(r, v);
            case 23 -> agents(r, v);
            case 24 -> about(r, v);
            case 25, 26 -> altStatementPut(r);
            case 27 -> altStatementGet(r);
            case 28 -> altDocument(r);
            default -> statementPostWithoutId(r, v);
        };
    }

    private Builder builder(String resource, String version) {
        Builder b = new Builder(resource, host, auth());
        b.version = version;
        return b;
    }

    private static String hex(SplittableRandom r) {
        return Long.toHexString(r.nextLong());
    }

    private static UUID uuid(SplittableRandom r) {
        return new UUID((r.nextLong() & ~0xF000L) | 0x4000L, (r.nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L);
    }

    /** An Agent or Group as a statement's actor may be (an anonymous Group too). */
    ObjectNode agent(SplittableRandom r) {
        return agent(r, r.nextInt(5));
    }

    /** An Agent with an IFI, as the agent parameters of queries and the Agents resource take it. */
    String queryAgent(SplittableRandom r) {
        return agent(r, r.nextInt(4)).toString().replace(MARK, "");
    }

    private ObjectNode agent(SplittableRandom r, int kind) {
        ObjectNode a = JSON.createObjectNode();
        switch (kind) {
            case 0 -> {
                a.put("objectType", "Agent");
                a.put("mbox", "mailto:fuzz-" + r.nextInt(50) + "@example.com");
                a.put("name", "Fuzz " + MARK);
            }
            case 1 -> {
                ObjectNode acc = a.putObject("account");
                acc.put("homePage", "http://example.com/home");
                acc.put("name", "fuzz-" + r.nextInt(50));
            }
            case 2 -> a.put("openid", "http://example.com/openid/" + r.nextInt(50));
            case 3 -> a.put("mbox_sha1sum", HexFormat.of().formatHex(sha1(("m" + r.nextInt(50)).getBytes(StandardCharsets.UTF_8))));
            default -> {
                a.put("objectType", "Group");
                a.put("name", "Team " + r.nextInt(10));
                ArrayNode member = a.putArray("member");
                member.addObject().put("mbox", "mailto:member-" + r.nextInt(50) + "@example.com");
            }
        }
        return a;
    }

    private static String activityId(SplittableRandom r) {
        return "http://example.com/fuzz/activity/" + r.nextInt(40);
    }

    private static String verbId(SplittableRandom r) {
        return "http://example.com/fuzz/verb/" + r.nextInt(10);
    }

    ObjectNode statement(SplittableRandom r, UUID id, String version) {
        ObjectNode s = JSON.createObjectNode();
        if (id != null) {
            s.put("id", id.toString());
        }
        s.set("actor", agent(r));
        ObjectNode verb = s.putObject("verb");
        verb.put("id", verbId(r));
        verb.putObject("display").put("en-US", "fuzzed " + MARK);
        ObjectNode object = s.putObject("object");
        object.put("objectType", "Activity");
        object.put("id", activityId(r));
        ObjectNode def = object.putObject("definition");
        def.putObject("name").put("en-US", "Activity " + r.nextInt(100));
        def.putObject("description").put("en-US", BIG);
        if (r.nextBoolean()) {
            ObjectNode result = s.putObject("result");
            result.putObject("score").put("scaled", r.nextInt(101) / 100.0);
            result.put("success", r.nextBoolean());
            result.put("duration", "PT" + r.nextInt(100) + "S");
        }
        if (r.nextBoolean()) {
            ObjectNode context = s.putObject("context");
            context.put("registration", uuid(r).toString());
            context.putObject("contextActivities").putArray("parent").addObject().put("id", activityId(r));
            context.putObject("extensions").put("http://example.com/ext/n", r.nextInt(1000));
        }
        s.put("timestamp", "2024-0" + (1 + r.nextInt(9)) + "-1" + r.nextInt(10) + "T10:00:00.000Z");
        if (version.equals("1.0.3") && r.nextBoolean()) {
            s.put("version", "1.0.3");
        }
        return s;
    }

    static byte[] serialize(JsonNode n) {
        try {
            byte[] text = JSON.writeValueAsBytes(n);
            return replace(text, BIG.getBytes(StandardCharsets.UTF_8), "a long description".getBytes(StandardCharsets.UTF_8));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static byte[] clean(byte[] text) {
        return replace(text, MARK.getBytes(StandardCharsets.UTF_8), new byte[0]);
    }

    private Base jsonBase(Builder main, JsonNode json, Set<Trait> traits) {
        Base b = new Base(main, traits);
        b.json = json;
        b.embed = bytes -> Body.bytes(bytes);
        b.setJson(clean(serialize(json)));
        return b;
    }

    /** A setup PUT of a fresh statement; returns its id. */
    private UUID setupStatement(SplittableRandom r, Base b, String v) {
        UUID id = uuid(r);
        Builder s = builder("statements PUT", v).method("PUT").path("/xapi/statements").param("statementId", id.toString());
        s.json(new String(clean(serialize(statement(r, id, v))), StandardCharsets.UTF_8));
        s.statementIds.add(id);
        b.setup.add(s.build("setup"));
        return id;
    }

    private Base statementPut(SplittableRandom r, String v) {
        UUID id = uuid(r);
        Builder m = builder("statements PUT", v).method("PUT").path("/xapi/statements").param("statementId", id.toString());
        m.contentType = "application/json";
        m.statementIds.add(id);
        return jsonBase(m, statement(r, r.nextInt(3) == 0 ? null : id, v), EnumSet.of(Trait.STATEMENT_JSON, Trait.AUTH));
    }

    private Base statementPost(SplittableRandom r, String v, int n) {
        Builder m = builder(n == 1 ? "statements POST" : "statements POST batch", v).method("POST").path("/xapi/statements");
        m.contentType = "application/json";
        m.statementPost = true;
        JsonNode json;
        if (n == 1) {
            UUID id = uuid(r);
            m.statementIds.add(id);
            json = statement(r, id, v);
        } else {
            ArrayNode a = JSON.createArrayNode();
            for (int i = 0; i < n; i++) {
                UUID id = uuid(r);
                m.statementIds.add(id);
                a.add(statement(r, id, v));
            }
            json = a;
        }
        return jsonBase(m, json, EnumSet.of(Trait.STATEMENT_JSON, Trait.AUTH));
    }

    private Base statementPostWithoutId(SplittableRandom r, String v) {
        Builder m = builder("statements POST (no id)", v).method("POST").path("/xapi/statements");
        m.contentType = "application/json";
        m.statementPost = true;
        return jsonBase(m, statement(r, null, v), EnumSet.of(Trait.STATEMENT_JSON, Trait.AUTH));
    }

    private Base multipart(SplittableRandom r, String v) {
        UUID id = uuid(r);
        byte[] content = ("attachment " + hex(r) + "\n").repeat(1 + r.nextInt(20)).getBytes(StandardCharsets.UTF_8);
        String hash = HexFormat.of().formatHex(sha256(content));
        ObjectNode s = statement(r, id, v);
        ObjectNode att = s.putArray("attachments").addObject();
        att.put("usageType", "http://example.com/fuzz/usage");
        att.putObject("display").put("en-US", "a file");
        att.put("contentType", "text/plain");
        att.put("length", content.length);
        att.put("sha2", hash);
        Builder m = builder("statements POST multipart", v).method("POST").path("/xapi/statements");
        m.contentType = "multipart/mixed; boundary=" + BOUNDARY;
        m.statementPost = true;
        m.statementIds.add(id);
        Base b = new Base(m, EnumSet.of(Trait.STATEMENT_JSON, Trait.MULTIPART, Trait.AUTH));
        b.json = s;
        b.embed = json -> Body.bytes(multipartBody(json, "text/plain", hash, content, true));
        b.setJson(clean(serialize(s)));
        return b;
    }

    static byte[] multipartBody(byte[] json, String partType, String hash, byte[] content, boolean close) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(("--" + BOUNDARY + "\r\nContent-Type: application/json\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        out.writeBytes(json);
        out.writeBytes(("\r\n--" + BOUNDARY + "\r\nContent-Type: " + partType + "\r\nContent-Transfer-Encoding: binary\r\n"
                + (hash == null ? "" : "X-Experience-API-Hash: " + hash + "\r\n") + "\r\n").getBytes(StandardCharsets.US_ASCII));
        out.writeBytes(content);
        out.writeBytes(("\r\n--" + BOUNDARY + (close ? "--\r\n" : "\r\n")).getBytes(StandardCharsets.US_ASCII));
        return out.toByteArray();
    }

    private Base voiding(SplittableRandom r, String v) {
        Builder m = builder("statements POST voiding", v).method("POST").path("/xapi/statements");
        m.contentType = "application/json";
        m.statementPost = true;
        Base tmp = new Base(m, EnumSet.noneOf(Trait.class));
        UUID target = setupStatement(r, tmp, v);
        UUID id = uuid(r);
        m.statementIds.add(id);
        ObjectNode s = JSON.createObjectNode();
        s.put("id", id.toString());
        s.set("actor", agent(r));
        s.putObject("verb").put("id", VOIDED).putObject("display").put("en-US", "voided " + MARK);
        s.putObject("object").put("objectType", "StatementRef").put("id", target.toString());
        Base b = jsonBase(m, s, EnumSet.of(Trait.STATEMENT_JSON, Trait.AUTH));
        b.setup.addAll(tmp.setup);
        return b;
    }

    private Base statementRef(SplittableRandom r, String v) {
        Builder m = builder("statements PUT StatementRef", v).method("PUT").path("/xapi/statements");
        Base tmp = new Base(m, EnumSet.noneOf(Trait.class));
        UUID target = setupStatement(r, tmp, v);
        UUID id = uuid(r);
        m.param("statementId", id.toString());
        m.contentType = "application/json";
        m.statementIds.add(id);
        ObjectNode s = statement(r, id, v);
        s.putObject("object").put("objectType", "StatementRef").put("id", target.toString());
        Base b = jsonBase(m, s, EnumSet.of(Trait.STATEMENT_JSON, Trait.AUTH));
        b.setup.addAll(tmp.setup);
        return b;
    }

    private Base statementGetById(SplittableRandom r, String v, boolean head) {
        Builder m = builder(head ? "statements HEAD statementId" : "statements GET statementId", v)
                .method(head ? "HEAD" : "GET").path("/xapi/statements");
        Base b = new Base(m, EnumSet.of(Trait.SINGLE_QUERY, Trait.AUTH, Trait.READ));
        UUID id = setupStatement(r, b, v);
        m.param("statementId", id.toString());
        if (r.nextBoolean()) {
            m.param("format", List.of("exact", "ids", "canonical").get(r.nextInt(3)));
        }
        if (r.nextInt(3) == 0) {
            m.param("attachments", r.nextBoolean() ? "true" : "false");
        }
        return b;
    }

    private Base statementQuery(SplittableRandom r, String v, String method) {
        Builder m = builder("statements " + method + " query", v).method(method).path("/xapi/statements");
        if (r.nextBoolean()) {
            m.param("verb", verbId(r));
        }
        if (r.nextInt(3) == 0) {
            m.param("agent", queryAgent(r));
        }
        if (r.nextInt(3) == 0) {
            m.param("activity", activityId(r));
        }
        if (r.nextInt(4) == 0) {
            m.param("related_agents", "true");
        }
        if (r.nextInt(4) == 0) {
            m.param("related_activities", r.nextBoolean() ? "true" : "false");
        }
        if (r.nextInt(4) == 0) {
            m.param("since", "2020-01-01T00:00:00Z");
        }
        if (r.nextInt(4) == 0) {
            m.param("until", "2099-01-01T00:00:00.000+02:00");
        }
        if (r.nextInt(5) == 0) {
            m.param("registration", uuid(r).toString());
        }
        m.param("limit", String.valueOf(1 + r.nextInt(20)));
        if (r.nextBoolean()) {
            m.param("format", List.of("exact", "ids", "canonical").get(r.nextInt(3)));
        }
        if (r.nextInt(4) == 0) {
            m.param("ascending", "true");
        }
        if (r.nextInt(5) == 0) {
            m.param("attachments", "true");
        }
        if (r.nextInt(3) == 0) {
            m.header("Accept-Language: en-US, fr;q=0.5");
        }
        return new Base(m, EnumSet.of(Trait.STATEMENT_QUERY, Trait.AUTH, Trait.READ));
    }

    private Base more(SplittableRandom r, String v) {
        Builder first = builder("statements GET more", v).path("/xapi/statements").param("limit", "1");
        Builder m = builder("statements GET more", v).path("/xapi/statements/more/");
        Base b = new Base(m, EnumSet.of(Trait.AUTH, Trait.READ));
        b.setup.add(first.build("setup"));
        return b;
    }

    private enum DocKind { STATE, ACTIVITY_PROFILE, AGENT_PROFILE }

    private static DocKind docKind(SplittableRandom r) {
        return DocKind.values()[r.nextInt(3)];
    }

    private static String docPath(DocKind k) {
        return switch (k) {
            case STATE -> "/xapi/activities/state";
            case ACTIVITY_PROFILE -> "/xapi/activities/profile";
            case AGENT_PROFILE -> "/xapi/agents/profile";
        };
    }

    private static String docLabel(DocKind k) {
        return switch (k) {
            case STATE -> "state";
            case ACTIVITY_PROFILE -> "activity profile";
            case AGENT_PROFILE -> "agent profile";
        };
    }

    /** The query of one fresh document of that kind, or of all of its documents when {@code id} is false. */
    private void docParams(SplittableRandom r, Builder b, DocKind k, String docId, boolean id) {
        String agent = "{\"mbox\":\"mailto:doc-" + hex(r) + "@example.com\"}";
        switch (k) {
            case STATE -> {
                b.param("activityId", "http://example.com/fuzz/doc/" + hex(r));
                b.param("agent", agent);
                if (r.nextInt(3) == 0) {
                    b.param("registration", uuid(r).toString());
                }
                if (id) {
                    b.param("stateId", docId);
                }
            }
            case ACTIVITY_PROFILE -> {
                b.param("activityId", "http://example.com/fuzz/doc/" + hex(r));
                if (id) {
                    b.param("profileId", docId);
                }
            }
            case AGENT_PROFILE -> {
                b.param("agent", agent);
                if (id) {
                    b.param("profileId", docId);
                }
            }
        }
    }

    private Builder docBuilder(String label, String v, String method, DocKind k, List<String> query) {
        Builder b = builder(docLabel(k) + " " + label, v).method(method).path(docPath(k));
        b.query.addAll(query);
        return b;
    }

    private static JsonNode docJson(SplittableRandom r) {
        ObjectNode d = JSON.createObjectNode();
        d.put("progress", r.nextInt(100));
        d.put("note", "doc " + MARK);
        d.putObject("nested").putArray("list").add(r.nextInt(10)).add("x");
        return d;
    }

    /** A setup PUT of a fresh JSON document at {@code query}; returns its ETag. */
    private String setupDocument(SplittableRandom r, Base b, String v, DocKind k, List<String> query) {
        Builder s = docBuilder("PUT", v, "PUT", k, query);
        byte[] body = clean(serialize(docJson(r)));
        s.body("application/json", body);
        s.header("If-None-Match: *"); // a profile is created with it (Comm 3.1); a State accepts it
        s.docAddress = s.target();
        s.docEffect = DocWrite.Effect.PUT;
        b.setup.add(s.build("setup"));
        return "\"" + HexFormat.of().formatHex(sha1(body)) + "\"";
    }

    private Base documentWrite(SplittableRandom r, String v, DocKind k, String method) {
        Builder m = builder(docLabel(k) + " " + method, v).method(method).path(docPath(k));
        docParams(r, m, k, "doc-" + hex(r), true);
        m.docAddress = m.target();
        m.docEffect = method.equals("PUT") ? DocWrite.Effect.PUT : DocWrite.Effect.MERGE;
        if (method.equals("PUT") && (k != DocKind.STATE || r.nextBoolean())) {
            m.header("If-None-Match: *");
        }
        if (method.equals("PUT") && r.nextInt(3) == 0) {
            byte[] bytes = new byte[r.nextInt(2000)];
            for (int i = 0; i < bytes.length; i++) {
                bytes[i] = (byte) r.nextInt(256);
            }
            m.body("application/octet-stream", bytes);
            Base b = new Base(m, EnumSet.of(Trait.DOC_BYTES, Trait.DOC_QUERY, Trait.AUTH));
            b.embed = Body::bytes;
            return b;
        }
        m.contentType = "application/json";
        Set<Trait> traits = EnumSet.of(Trait.DOC_JSON, Trait.DOC_QUERY, Trait.AUTH);
        if (method.equals("POST")) {
            traits.add(Trait.DOC_MERGE);
        }
        return jsonBase(m, docJson(r), traits);
    }

    private Base documentRead(SplittableRandom r, String v, DocKind k, String method) {
        Builder probe = new Builder("", host, null).path("/");
        docParams(r, probe, k, "doc-" + hex(r), true);
        Builder m = docBuilder(method, v, method, k, probe.query);
        Base b = new Base(m, EnumSet.of(Trait.DOC_QUERY, Trait.AUTH, Trait.READ));
        setupDocument(r, b, v, k, probe.query);
        return b;
    }

    private Base documentIds(SplittableRandom r, String v, DocKind k) {
        Builder probe = new Builder("", host, null).path("/");
        docParams(r, probe, k, null, false);
        Builder m = docBuilder("GET ids", v, "GET", k, probe.query);
        Base b = new Base(m, EnumSet.of(Trait.DOC_QUERY, Trait.AUTH, Trait.READ));
        if (r.nextBoolean()) {
            m.param("since", "2020-01-01T00:00:00.000Z");
        }
        return b;
    }

    private Base documentDelete(SplittableRandom r, String v, DocKind k) {
        Builder probe = new Builder("", host, null).path("/");
        docParams(r, probe, k, "doc-" + hex(r), true);
        Builder m = docBuilder("DELETE", v, "DELETE", k, probe.query);
        Base b = new Base(m, EnumSet.of(Trait.DOC_QUERY, Trait.AUTH, Trait.PRECONDITION));
        b.etag = setupDocument(r, b, v, k, probe.query);
        m.docAddress = m.target();
        m.docEffect = DocWrite.Effect.DELETE;
        if (r.nextBoolean()) {
            m.header("If-Match: " + b.etag);
        }
        return b;
    }

    private Base documentPrecondition(SplittableRandom r, String v, DocKind k) {
        Builder probe = new Builder("", host, null).path("/");
        docParams(r, probe, k, "doc-" + hex(r), true);
        Builder m = docBuilder("PUT If-Match", v, "PUT", k, probe.query);
        m.contentType = "application/json";
        Base tmp = new Base(m, EnumSet.noneOf(Trait.class));
        String etag = setupDocument(r, tmp, v, k, probe.query);
        m.docAddress = m.target();
        m.docEffect = DocWrite.Effect.PUT;
        m.header("If-Match: " + etag);
        Set<Trait> traits = EnumSet.of(Trait.DOC_JSON, Trait.DOC_QUERY, Trait.AUTH, Trait.PRECONDITION);
        if (k != DocKind.STATE || v.equals("2.0.0")) {
            traits.add(Trait.PROFILE_PUT);
        }
        Base b = jsonBase(m, docJson(r), traits);
        b.setup.addAll(tmp.setup);
        b.etag = etag;
        return b;
    }

    private Base documentMerge(SplittableRandom r, String v, DocKind k) {
        Builder probe = new Builder("", host, null).path("/");
        docParams(r, probe, k, "doc-" + hex(r), true);
        Builder m = docBuilder("POST merge", v, "POST", k, probe.query);
        m.contentType = "application/json";
        Base tmp = new Base(m, EnumSet.noneOf(Trait.class));
        String etag = setupDocument(r, tmp, v, k, probe.query);
        m.docAddress = m.target();
        m.docEffect = DocWrite.Effect.MERGE;
        Base b = jsonBase(m, docJson(r), EnumSet.of(Trait.DOC_JSON, Trait.DOC_MERGE, Trait.DOC_QUERY, Trait.AUTH,
                Trait.PRECONDITION));
        b.setup.addAll(tmp.setup);
        b.etag = etag;
        return b;
    }

    private Base activities(SplittableRandom r, String v) {
        Builder m = builder("activities GET", v).path("/xapi/activities").param("activityId", activityId(r));
        return new Base(m, EnumSet.of(Trait.AUTH, Trait.READ));
    }

    private Base agents(SplittableRandom r, String v) {
        Builder m = builder("agents GET", v).path("/xapi/agents").param("agent", queryAgent(r));
        return new Base(m, EnumSet.of(Trait.AUTH, Trait.READ));
    }

    private Base about(SplittableRandom r, String v) {
        Builder m = builder("about GET", v).path("/xapi/about");
        if (r.nextBoolean()) {
            m.authorization = null;
        }
        return new Base(m, EnumSet.of(Trait.READ));
    }

    /** Percent-encodes every byte but the unreserved ones: invalid UTF-8 stays the bytes it was. */
    static String percent(byte[] b) {
        StringBuilder s = new StringBuilder(b.length * 2);
        for (byte x : b) {
            int c = x & 0xFF;
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_'
                    || c == '.' || c == '~') {
                s.append((char) c);
            } else {
                s.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 15, 16)));
            }
        }
        return s.toString();
    }

    private static String form(String... pairs) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < pairs.length; i += 2) {
            if (!s.isEmpty()) {
                s.append('&');
            }
            s.append(pairs[i]).append('=').append(percent(pairs[i + 1].getBytes(StandardCharsets.UTF_8)));
        }
        return s.toString();
    }

    private Builder altBuilder(String resource, String path, String method) {
        Builder m = new Builder(resource, host, null).method("POST").path(path).param("method", method);
        m.version = null;
        m.contentType = "application/x-www-form-urlencoded";
        return m;
    }

    private Base altStatementPut(SplittableRandom r) {
        UUID id = uuid(r);
        Builder m = altBuilder("alternate syntax PUT statement", "/xapi/statements", "PUT");
        m.statementIds.add(id);
        String fields = form("statementId", id.toString(), "Authorization", auth(), "X-Experience-API-Version", "1.0.3",
                "Content-Type", "application/json");
        Base b = new Base(m, EnumSet.of(Trait.STATEMENT_JSON, Trait.ALT, Trait.AUTH));
        b.json = statement(r, id, "1.0.3");
        b.embed = json -> Body.bytes((fields + "&content=" + percent(json)).getBytes(StandardCharsets.US_ASCII));
        b.setJson(clean(serialize(b.json)));
        return b;
    }

    private Base altStatementGet(SplittableRandom r) {
        Builder m = altBuilder("alternate syntax GET statements", "/xapi/statements", "GET");
        m.body(m.contentType, form("verb", verbId(r), "limit", String.valueOf(1 + r.nextInt(5)), "Authorization", auth(),
                "X-Experience-API-Version", "1.0.3").getBytes(StandardCharsets.US_ASCII));
        return new Base(m, EnumSet.of(Trait.ALT, Trait.AUTH, Trait.READ));
    }

    private Base altDocument(SplittableRandom r) {
        Builder probe = new Builder("", host, null).path("/");
        String stateId = "doc-" + hex(r);
        String activity = "http://example.com/fuzz/doc/" + hex(r);
        String agent = "{\"mbox\":\"mailto:doc-" + hex(r) + "@example.com\"}";
        probe.param("activityId", activity).param("agent", agent).param("stateId", stateId);
        Builder m = altBuilder("alternate syntax PUT state", "/xapi/activities/state", "PUT");
        m.docAddress = "/xapi/activities/state?" + String.join("&", probe.query);
        m.docEffect = DocWrite.Effect.PUT;
        m.bodyIsDocument = false;
        String fields = form("activityId", activity, "agent", agent, "stateId", stateId, "Authorization", auth(),
                "X-Experience-API-Version", "1.0.3", "Content-Type", "application/json");
        Base b = new Base(m, EnumSet.of(Trait.DOC_JSON, Trait.ALT, Trait.AUTH));
        b.json = docJson(r);
        b.embed = json -> Body.bytes((fields + "&content=" + percent(json)).getBytes(StandardCharsets.US_ASCII));
        b.setJson(clean(serialize(b.json)));
        return b;
    }

    // -------------------------------------------------------------------------------------------- mutations

    private void add(String kind, int weight, java.util.function.Predicate<Base> applies, Apply apply) {
        mutations.add(new Mutation(kind, weight, applies, apply));
    }

    private static Expect refuseIf(boolean refuse) {
        return refuse ? Expect.REFUSE : Expect.ANY;
    }

    /** Whether a body's JSON must be valid for the request to be right (statements, and a merged document). */
    private static boolean jsonRequired(Base b) {
        return b.has(Trait.STATEMENT_JSON) || b.has(Trait.DOC_MERGE);
    }

    private static boolean hasJson(Base b) {
        return b.json != null;
    }

    private void defineMutations() {
        defineJsonMutations();
        defineStatementMutations();
        defineHeaderMutations();
        defineAuthMutations();
        defineQueryMutations();
        defineFramingMutations();
        defineMultipartMutations();
        defineDocumentMutations();
        defineAltMutations();
    }

    private void defineJsonMutations() {
        add("json/truncated", 6, FuzzCases::hasJson, (r, b, p) -> {
            byte[] text = clean(serialize(b.json));
            b.setJson(java.util.Arrays.copyOf(text, r.nextInt(text.length - 1)));
            return refuseIf(jsonRequired(b));
        });
        add("json/invalid-token", 5, FuzzCases::hasJson, (r, b, p) -> {
            byte[] text = clean(serialize(b.json));
            String[] junk = {"}", "]", ",", ":", "\"", "{", "tru", "nul", "01", "1e", "'", "NaN", "\\"};
            int at = r.nextInt(text.length);
            b.setJson(splice(text, at, 0, junk[r.nextInt(junk.length)].getBytes(StandardCharsets.UTF_8)));
            return Expect.ANY; // some insertions land inside a string and keep it valid
        });
        add("json/trailing-garbage", 3, FuzzCases::hasJson, (r, b, p) -> {
            b.setJson(concat(clean(serialize(b.json)), List.of(" {}", "x", "]", "\u0000").get(r.nextInt(4)).getBytes(StandardCharsets.UTF_8)));
            return refuseIf(jsonRequired(b));
        });
        add("json/empty", 2, FuzzCases::hasJson, (r, b, p) -> {
            b.setJson(new byte[0]);
            return refuseIf(jsonRequired(b));
        });
        add("json/not-an-object", 3, FuzzCases::hasJson, (r, b, p) -> {
            b.setJson(List.of("null", "42", "\"text\"", "true", "[1,2]", "[null]").get(r.nextInt(6)).getBytes(StandardCharsets.UTF_8));
            return refuseIf(jsonRequired(b));
        });
        add("utf8/invalid", 6, FuzzCases::hasJson, (r, b, p) -> {
            byte[][] bad = {{(byte) 0xC3, 0x28}, {(byte) 0xFF}, {(byte) 0x80}, {(byte) 0xE2, (byte) 0x82},
                    {(byte) 0xF8, (byte) 0x88, (byte) 0x80, (byte) 0x80, (byte) 0x80}, {(byte) 0xFE, (byte) 0xFF}};
            b.setJson(b.jsonWith(bad[r.nextInt(bad.length)]));
            return refuseIf(b.has(Trait.STATEMENT_JSON) || b.has(Trait.DOC_MERGE));
        });
        add("utf8/overlong", 4, FuzzCases::hasJson, (r, b, p) -> {
            byte[][] bad = {{(byte) 0xC0, (byte) 0xAF}, {(byte) 0xE0, (byte) 0x80, (byte) 0xAF},
                    {(byte) 0xF0, (byte) 0x80, (byte) 0x80, (byte) 0xAF}, {(byte) 0xC0, (byte) 0x80},
                    {(byte) 0xC1, (byte) 0xBF}};
            b.setJson(b.jsonWith(bad[r.nextInt(bad.length)]));
            return refuseIf(b.has(Trait.STATEMENT_JSON) || b.has(Trait.DOC_MERGE));
        });
        add("utf8/encoded-surrogate", 3, FuzzCases::hasJson, (r, b, p) -> {
            byte[][] bad = {{(byte) 0xED, (byte) 0xA0, (byte) 0x80}, {(byte) 0xED, (byte) 0xBF, (byte) 0xBF},
                    {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80}};
            b.setJson(b.jsonWith(bad[r.nextInt(bad.length)]));
            return refuseIf(b.has(Trait.STATEMENT_JSON) || b.has(Trait.DOC_MERGE));
        });
        add("json/lone-surrogate-escape", 3, FuzzCases::hasJson, (r, b, p) -> {
            String[] esc = {"\\uD800", "\\uDFFF", "\\uDC00\\uD800", "\\uD83D"};
            b.setJson(b.jsonWith(esc[r.nextInt(esc.length)].getBytes(StandardCharsets.US_ASCII)));
            return Expect.ANY;
        });
        add("json/control-char", 2, FuzzCases::hasJson, (r, b, p) -> {
            b.setJson(b.jsonWith(new byte[] {(byte) r.nextInt(32)}));
            return refuseIf(jsonRequired(b)); // raw control characters are not allowed in JSON strings
        });
        add("json/nesting-10000-closed", 3, FuzzCases::hasJson, (r, b, p) -> {
            String deep = r.nextBoolean() ? "[".repeat(10_000) + "]".repeat(10_000)
                    : "{\"a\":".repeat(10_000) + "1" + "}".repeat(10_000);
            b.setJson(nested(b, deep));
            return Expect.ANY;
        });
        add("json/nesting-10000-unclosed", 2, FuzzCases::hasJson, (r, b, p) -> {
            b.setJson(("[".repeat(10_000)).getBytes(StandardCharsets.US_ASCII));
            return refuseIf(jsonRequired(b));
        });
        add("json/duplicate-key", 4, FuzzCases::hasJson, (r, b, p) -> {
            byte[] text = clean(serialize(b.json));
            String s = new String(text, StandardCharsets.UTF_8);
            int brace = s.indexOf('{');
            String dup = b.has(Trait.STATEMENT_JSON) ? "\"verb\":{\"id\":\"http://example.com/dup\"}," : "\"progress\":1,";
            if (brace < 0) {
                return Expect.ANY;
            }
            b.setJson((s.substring(0, brace + 1) + dup + s.substring(brace + 1)).getBytes(StandardCharsets.UTF_8));
            return Expect.ANY;
        });
        java.util.function.Predicate<Base> plainJson = b -> hasJson(b) && !b.has(Trait.MULTIPART) && !b.has(Trait.ALT);
        add("size/near-limit", 1, plainJson, (r, b, p) -> {
            long[] below = {0, 1, 2, 100, 285, 2000, 70_000};
            sized(b, maxBody - below[r.nextInt(below.length)]);
            return Expect.ANY;
        });
        add("size/over-limit", 1, plainJson, (r, b, p) -> {
            long[] above = {1, 2, 1000, 1 << 20};
            sized(b, maxBody + above[r.nextInt(above.length)]);
            return Expect.REFUSE;
        });
        add("size/long-string", 2, FuzzCases::hasJson, (r, b, p) -> {
            // a string of some hundred KB inside the JSON: far under the limit, over any field's plausible size
            b.setJson(b.jsonWith("x".repeat(100_000 + r.nextInt(200_000)).getBytes(StandardCharsets.US_ASCII)));
            return Expect.ANY;
        });
    }

    /** The JSON with {@code deep} as an extension value (statements) or a property (documents). */
    private byte[] nested(Base b, String deep) {
        JsonNode copy = b.json.deepCopy();
        ObjectNode target = (ObjectNode) (copy.isArray() ? copy.get(0) : copy);
        String placeholder = "~DEEP~";
        if (b.has(Trait.STATEMENT_JSON)) {
            target.putObject("context").putObject("extensions").put("http://example.com/ext/deep", placeholder);
        } else {
            target.put("deep", placeholder);
        }
        return replace(clean(serialize(copy)), ("\"" + placeholder + "\"").getBytes(StandardCharsets.US_ASCII),
                deep.getBytes(StandardCharsets.US_ASCII));
    }

    /** Makes the body exactly {@code total} bytes long (its JSON padded inside a string), generated as it is sent. */
    private void sized(Base b, long total) {
        JsonNode copy = b.json.deepCopy();
        ObjectNode first = (ObjectNode) (copy.isArray() ? copy.get(0) : copy);
        if (!b.has(Trait.STATEMENT_JSON)) {
            first.put("big", BIG);
        } else if (!first.path("object").has("definition")) {
            first.putObject("result").put("response", BIG); // a voiding statement or a StatementRef
        }
        byte[] text = clean(rawJson(copy));
        int at = indexOf(text, BIG_BYTES);
        byte[] prefix = java.util.Arrays.copyOf(text, at);
        // the other statements of a batch carry the placeholder too: as ordinary text
        byte[] suffix = replace(java.util.Arrays.copyOfRange(text, at + BIG_BYTES.length, text.length), BIG_BYTES,
                "a long description".getBytes(StandardCharsets.US_ASCII));
        b.main.body = Body.filled(prefix, (byte) 'a', Math.max(0, total - prefix.length - suffix.length), suffix);
    }

    private static final byte[] BIG_BYTES = BIG.getBytes(StandardCharsets.US_ASCII);

    private static byte[] rawJson(JsonNode n) {
        try {
            return JSON.writeValueAsBytes(n);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private void defineStatementMutations() {
        java.util.function.Predicate<Base> st = b -> b.has(Trait.STATEMENT_JSON);
        add("statement/missing-field", 6, st, (r, b, p) -> {
            String[][] paths = {{"actor"}, {"verb"}, {"object"}, {"verb", "id"}, {"object", "id"}};
            String[] path = paths[r.nextInt(paths.length)];
            edit(b, s -> {
                ObjectNode parent = s;
                for (int i = 0; i < path.length - 1; i++) {
                    parent = (ObjectNode) parent.get(path[i]);
                }
                parent.remove(path[path.length - 1]);
            });
            return Expect.REFUSE;
        });
        add("statement/wrong-type", 6, st, (r, b, p) -> {
            int which = r.nextInt(8);
            edit(b, s -> {
                switch (which) {
                    case 0 -> s.put("actor", "Ada");
                    case 1 -> s.put("verb", 5);
                    case 2 -> ((ObjectNode) s.get("verb")).putArray("id").add(1);
                    case 3 -> ((ObjectNode) s.get("object")).putObject("id");
                    case 4 -> s.put("timestamp", 12);
                    case 5 -> s.putObject("result").put("success", "yes");
                    case 6 -> s.put("id", 42);
                    default -> s.putArray("context").add(1);
                }
            });
            return Expect.REFUSE;
        });
        add("statement/bad-value", 6, st, (r, b, p) -> {
            int which = r.nextInt(11);
            edit(b, s -> {
                switch (which) {
                    case 0 -> s.put("id", "not-a-uuid");
                    case 1 -> ((ObjectNode) s.get("verb")).put("id", "not an iri");
                    case 2 -> s.putObject("actor").put("mbox", "ada@example.com");
                    case 3 -> s.put("timestamp", "yesterday");
                    case 4 -> s.put("timestamp", "2024-02-30T00:00:00Z");
                    case 5 -> s.put("version", "1.1.0");
                    case 6 -> s.putObject("result").putObject("score").put("scaled", 1.5);
                    case 7 -> s.putObject("result").put("duration", "one minute");
                    case 8 -> ((ObjectNode) s.get("object")).put("objectType", "Nope");
                    case 9 -> ((ObjectNode) s.get("verb")).putObject("display").put("not a language tag!!", "x");
                    default -> s.putObject("context").put("registration", "7");
                }
            });
            return Expect.REFUSE;
        });
        add("statement/unknown-property", 3, st, (r, b, p) -> {
            edit(b, s -> s.put(List.of("foo", "Actor", "verb ", "__proto__").get(r.nextInt(4)), 1));
            return Expect.REFUSE;
        });
        add("statement/null-value", 3, st, (r, b, p) -> {
            edit(b, s -> s.putNull(List.of("result", "context", "timestamp").get(r.nextInt(3))));
            return Expect.REFUSE;
        });
        add("statement/two-ifis", 2, st, (r, b, p) -> {
            edit(b, s -> {
                ObjectNode a = s.putObject("actor");
                a.put("mbox", "mailto:one@example.com");
                a.put("openid", "http://example.com/two");
            });
            return Expect.REFUSE;
        });
        add("statement/timestamp-without-offset", 2, st, (r, b, p) -> {
            edit(b, s -> s.put("timestamp", "2024-03-01T10:00:00"));
            return Expect.ANY; // issue 16 item 17: the decision per version is pending
        });
    }

    /** Edits every statement of the body's JSON (the first of a batch), then puts the text back. */
    private static void edit(Base b, java.util.function.Consumer<ObjectNode> change) {
        JsonNode copy = b.json.deepCopy();
        change.accept((ObjectNode) (copy.isArray() ? copy.get(0) : copy));
        b.setJson(clean(serialize(copy)));
    }

    private void defineHeaderMutations() {
        add("header/content-type-missing", 3, b -> b.main.contentType != null, (r, b, p) -> {
            b.main.contentType = null;
            return refuseIf(b.has(Trait.MULTIPART) || b.has(Trait.ALT));
        });
        add("header/content-type-wrong", 4, b -> b.main.contentType != null || !b.has(Trait.READ), (r, b, p) -> {
            String[] types = {"text/plain", "application/xml", "application/jsonx", "multipart/mixed", ";;;",
                    "application/json; charset=latin1", "application/json; boundary=\"", "\u00ff/\u00fe"};
            int i = r.nextInt(types.length);
            boolean wasMultipart = b.has(Trait.MULTIPART);
            b.main.contentType = types[i];
            // a multipart body sent as anything but multipart/mixed, or JSON sent as multipart without a boundary
            return refuseIf(wasMultipart || b.has(Trait.ALT) || (b.has(Trait.STATEMENT_JSON) && i == 3));
        });
        add("header/version-missing", 4, b -> !b.has(Trait.ALT), (r, b, p) -> {
            b.main.version = null;
            return refuseIf(b.has(Trait.AUTH));
        });
        add("header/version-bad", 5, b -> !b.has(Trait.ALT), (r, b, p) -> {
            String[] bad = {"0.9", "0.95", "1.1.0", "3.0.0", "abc", "", "1.0.3\u0000", "2.0.0.0", "2", "\u00ff"};
            b.main.version = bad[r.nextInt(bad.length)];
            return refuseIf(b.has(Trait.AUTH));
        });
        add("header/version-odd", 2, b -> !b.has(Trait.ALT), (r, b, p) -> {
            String[] odd = {"1.0", "1.0.9", "2.0.0, 1.0.3", " 2.0.0 "};
            b.main.version = odd[r.nextInt(odd.length)];
            return Expect.ANY;
        });
        add("header/version-repeated", 2, b -> !b.has(Trait.ALT), (r, b, p) -> {
            b.main.header("X-Experience-API-Version: " + (r.nextBoolean() ? "1.0.3" : "9.9.9"));
            return Expect.ANY;
        });
        add("header/injection-crlf-in-param", 4, b -> !b.main.query.isEmpty(), (r, b, p) -> {
            String name = b.main.query.get(r.nextInt(b.main.query.size())).split("=")[0];
            String value = b.main.query.stream().filter(q -> q.startsWith(name + "=")).findFirst().orElseThrow()
                    .substring(name.length() + 1);
            b.main.setRaw(name, value + List.of("%0d%0aX-Injected:%20yes", "%0aX-Injected:%20yes",
                    "%0d%0a%0d%0a<html>", "%E5%98%8A%E5%98%8DX-Injected:%20yes").get(r.nextInt(4)));
            b.main.docAddressChanged = true;
            return refuseIf(name.equals("statementId") || name.equals("registration") || name.equals("method"));
        });
        add("header/injection-raw", 4, b -> true, (r, b, p) -> {
            int which = r.nextInt(8);
            switch (which) {
                case 0 -> b.main.header("X-Note: a\rX-Injected: yes");
                case 1 -> b.main.header("X-Note: a\u0000b");
                case 2 -> b.main.header("X-Note: first\r\n continued");
                case 3 -> b.main.header("X-Experience-API-Version : 2.0.0");
                case 4 -> b.main.header("NoColonHere");
                case 5 -> b.main.header("X-Note: \u00e9\u00ff\u0080");
                case 6 -> b.main.header("X-Long: " + "a".repeat(70_000));
                default -> {
                    for (int i = 0; i < 300; i++) {
                        b.main.header("X-Many-" + i + ": " + i);
                    }
                }
            }
            // RFC 9112 5.1: whitespace between a field name and the colon MUST get 400
            return which == 3 ? Expect.REFUSE : Expect.ANY;
        });
        add("header/accept-language-junk", 5, b -> b.has(Trait.STATEMENT_QUERY) || b.has(Trait.SINGLE_QUERY), (r, b, p) -> {
            String[] junk = {";", ";;;;;;", ",", ",,,,", "*;q=", "en;q=2", "en;q=-1", "\u00ff", "-", "en-", "*;q=0.5;;",
                    "a,".repeat(5000), "en;q=0.5,".repeat(2000), ";".repeat(3000), "x".repeat(8000)};
            b.main.headers.removeIf(h -> h.startsWith("Accept-Language"));
            b.main.header("Accept-Language: " + junk[r.nextInt(junk.length)]);
            b.main.setRaw("format", "canonical");
            return Expect.ANY;
        });
        add("header/host", 2, b -> true, (r, b, p) -> {
            boolean missing = r.nextBoolean();
            if (missing) {
                b.main.host = null;
            } else {
                b.main.header("Host: other.example");
            }
            return Expect.REFUSE; // RFC 9112 3.2: MUST 400 a request without Host or with two
        });
        add("header/expect-continue", 1, b -> !b.has(Trait.READ), (r, b, p) -> {
            b.main.header("Expect: 100-continue");
            return Expect.ANY;
        });
    }

    private void defineAuthMutations() {
        java.util.function.Predicate<Base> any = b -> !b.has(Trait.ALT);
        add("auth/missing", 3, any, (r, b, p) -> {
            b.main.authorization = null;
            return refuseIf(b.has(Trait.AUTH));
        });
        add("auth/malformed", 6, any, (r, b, p) -> {
            String[] bad = {"Basic", "Basic ", "Basic !!!not-base64!!!", basic("no-colon-here"), "Bearer abc.def.ghi",
                    "Basic " + Base64.getEncoder().encodeToString((key + ":" + secret).getBytes(StandardCharsets.UTF_8)) + "=x",
                    basic(":" + secret), basic(key + ":"), basic(":"), "Basic " + "QUFB".repeat(3000), "Digest x",
                    "Basic\u0000" + auth().substring(6), basic(key + ":" + secret).substring(0, 12)};
            b.main.authorization = bad[r.nextInt(bad.length)];
            return refuseIf(b.has(Trait.AUTH));
        });
        add("auth/nul-bytes", 3, any, (r, b, p) -> {
            String[] bad = {key + ":" + secret + "\u0000", key + ":" + secret + "\u0000\u0000", key + "\u0000:" + secret,
                    key + ":\u0000" + secret};
            b.main.authorization = basic(bad[r.nextInt(bad.length)]);
            return refuseIf(b.has(Trait.AUTH));
        });
        add("auth/wrong-secret", 2, any, (r, b, p) -> {
            b.main.authorization = basic(key + ":" + secret + "x");
            return refuseIf(b.has(Trait.AUTH));
        });
        add("auth/unknown-key", 3, any, (r, b, p) -> {
            b.main.authorization = basic("fuzz-unknown-" + hex(r) + ":" + secret);
            return refuseIf(b.has(Trait.AUTH));
        });
        add("auth/odd-but-valid", 2, any, (r, b, p) -> {
            b.main.authorization = List.of("basic " + auth().substring(6), "BASIC " + auth().substring(6),
                    "Basic  " + auth().substring(6)).get(r.nextInt(3));
            return Expect.ANY;
        });
        add("auth/repeated", 2, any, (r, b, p) -> {
            b.main.header("Authorization: " + basic(key + ":wrong"));
            return Expect.ANY;
        });
    }

    private void defineQueryMutations() {
        java.util.function.Predicate<Base> sq = b -> b.has(Trait.STATEMENT_QUERY);
        add("query/limit", 12, sq, (r, b, p) -> {
            String[] refused = {"%2B5", "-0", "-1", "%D9%A3", "%EF%BC%95", "1.5", "1e3", "", "0x10", "five", "%205", "5%20"};
            String[] accepted = {"2147483648", "99999999999999999999", "0", "00001"};
            if (r.nextInt(3) == 0) {
                b.main.setRaw("limit", accepted[r.nextInt(accepted.length)]);
                return Expect.ACCEPT;
            }
            b.main.setRaw("limit", refused[r.nextInt(refused.length)]);
            return Expect.REFUSE;
        });
        add("query/timestamp", 10, sq, (r, b, p) -> {
            String name = r.nextBoolean() ? "since" : "until";
            String[] refused = {"junk", "2020-13-45T00:00:00Z", "", "2020-01-01T25:00:00Z", "%00", "1577836800"};
            if (r.nextInt(3) == 0) {
                b.main.setRaw(name, List.of("2020-01-01T00:00:00", "2020-01-01", "2020-01-01T00:00").get(r.nextInt(3)));
                return Expect.ANY; // without an offset: issue 16 item 17
            }
            b.main.setRaw(name, refused[r.nextInt(refused.length)]);
            return Expect.REFUSE;
        });
        add("query/agent", 10, sq, (r, b, p) -> {
            String[] bad = {"{bad json", "{}", "{\"mbox\":\"x\"}", "[]", "\"ada\"", "{\"mbox\":\"mailto:a@b.c\",\"openid\":\"http://x\"}",
                    "{\"mbox\":\"mailto:a@b.c\",\"mbox\":\"mailto:d@e.f\"}", "{\"account\":{\"name\":\"x\"}}", "null",
                    "{\"objectType\":\"Group\"}"};
            b.main.setRaw("agent", java.net.URLEncoder.encode(bad[r.nextInt(bad.length)], StandardCharsets.UTF_8));
            return Expect.REFUSE;
        });
        add("query/iri-or-uuid", 4, sq, (r, b, p) -> {
            String name = List.of("verb", "activity", "registration").get(r.nextInt(3));
            b.main.setRaw(name, List.of("not%20an%20iri", "", "%00", "relative/path").get(r.nextInt(4)));
            return Expect.REFUSE;
        });
        add("query/boolean", 4, sq, (r, b, p) -> {
            String name = List.of("related_agents", "related_activities", "attachments", "ascending").get(r.nextInt(4));
            b.main.setRaw(name, List.of("TRUE", "1", "yes", "", "True", "false ").get(r.nextInt(6)).replace(" ", "%20"));
            return Expect.REFUSE;
        });
        add("query/format", 3, b -> b.has(Trait.STATEMENT_QUERY) || b.has(Trait.SINGLE_QUERY), (r, b, p) -> {
            b.main.setRaw("format", List.of("IDS", "junk", "", "exact,ids").get(r.nextInt(4)));
            return Expect.REFUSE;
        });
        add("query/unknown-or-case", 4, b -> b.has(Trait.STATEMENT_QUERY) || b.has(Trait.SINGLE_QUERY) || b.has(Trait.DOC_QUERY),
                (r, b, p) -> {
                    String[] bad = {"foo=1", "Verb=http%3A%2F%2Fexample.com%2Fv", "LIMIT=5", "Since=2020-01-01T00:00:00Z",
                            "statementid=" + uuid(r), "ActivityId=http%3A%2F%2Fx"};
                    b.main.query.add(bad[r.nextInt(bad.length)]);
                    b.main.docAddressChanged = true;
                    return Expect.REFUSE;
                });
        add("query/repeated", 3, b -> !b.main.query.isEmpty() && !b.has(Trait.ALT), (r, b, p) -> {
            b.main.query.add(b.main.query.get(r.nextInt(b.main.query.size())));
            b.main.docAddressChanged = true;
            return Expect.ANY;
        });
        add("query/single-with-filter", 3, b -> b.has(Trait.SINGLE_QUERY), (r, b, p) -> {
            b.main.query.add(List.of("verb=http%3A%2F%2Fexample.com%2Fv", "limit=1", "voidedStatementId=" + uuid(r),
                    "since=2020-01-01T00%3A00%3A00Z").get(r.nextInt(4)));
            return Expect.REFUSE;
        });
        add("query/statement-id", 3, b -> b.has(Trait.SINGLE_QUERY), (r, b, p) -> {
            b.main.setRaw("statementId", List.of("not-a-uuid", "", "%00", uuid(r).toString().toUpperCase(),
                    "{" + uuid(r) + "}").get(r.nextInt(5)));
            return Expect.ANY; // an unknown or malformed id: 400 or 404
        });
        add("query/bad-percent", 5, b -> !b.main.query.isEmpty(), (r, b, p) -> {
            String name = b.main.query.get(r.nextInt(b.main.query.size())).split("=")[0];
            b.main.setRaw(name, List.of("%", "%zz", "%C3%28", "%00", "%E0%80%AF", "%ED%A0%80", "%F", "a%2", "%%").get(r.nextInt(9)));
            b.main.docAddressChanged = true;
            return Expect.ANY;
        });
        add("query/raw-bytes", 2, b -> true, (r, b, p) -> {
            b.main.query.add(List.of("x=\u00ff", "x=a b", "x=\u007f", "x=\"<>", "x=\t").get(r.nextInt(5)));
            b.main.docAddressChanged = true;
            return Expect.ANY;
        });
        add("query/more-token", 16, b -> b.main.path.contains("/more/") || b.main.resource.endsWith("more"), (r, b, p) -> {
            int which = r.nextInt(5);
            String path = b.main.path;
            b.main.path = switch (which) {
                case 0 -> path.substring(0, Math.max(path.length() - 3, 1));
                case 1 -> path + "AAAA";
                case 2 -> "/xapi/statements/more/" + "%zz%00";
                case 3 -> "/xapi/statements/more/" + "A".repeat(5000);
                default -> path.replaceAll(".$", "_");
            };
            return Expect.ANY;
        });
        add("method/not-allowed", 4, b -> true, (r, b, p) -> {
            String[] methods = {"PATCH", "TRACE", "FOO", "PROPFIND", "DELETE", "PUT"};
            String m = methods[r.nextInt(methods.length)];
            boolean allowed = (m.equals("DELETE") && b.main.path.contains("/activities/state"))
                    || (m.equals("DELETE") && b.main.path.endsWith("/profile"))
                    || (m.equals("PUT") && (b.main.path.endsWith("/statements") || b.main.path.contains("/profile")
                    || b.main.path.contains("/state")));
            markDocument(b);
            b.main.method = m;
            return allowed ? Expect.ANY : Expect.REFUSE;
        });
        add("method/lowercase", 3, b -> true, (r, b, p) -> {
            markDocument(b);
            b.main.method = b.main.method.toLowerCase(java.util.Locale.ROOT);
            return Expect.REFUSE; // method names are case-sensitive (RFC 9110 9.1)
        });
        add("method/options", 1, b -> true, (r, b, p) -> {
            markDocument(b);
            b.main.method = "OPTIONS";
            return Expect.ANY;
        });
    }

    /** A request sent with another method may write the document it addresses: if accepted, its state is unknown. */
    private static void markDocument(Base b) {
        if (b.main.path.contains("/state") || b.main.path.endsWith("/profile")) {
            if (b.main.docAddress == null) {
                b.main.docAddress = b.main.target();
            }
            b.main.docAddressChanged = true;
        }
    }

    private void defineFramingMutations() {
        java.util.function.Predicate<Base> withBody = b -> b.main.body.length() > 0 && b.main.body.length() < (1 << 22);
        add("framing/duplicate-content-length", 3, withBody, (r, b, p) -> {
            boolean same = r.nextInt(3) == 0;
            long n = b.main.body.length();
            b.main.header("Content-Length: " + (same ? n : n - 1));
            b.main.docAddressChanged = !same;
            // RFC 9112 6.3: differing lengths are an unrecoverable framing error
            return same ? Expect.ANY : Expect.REFUSE;
        });
        add("framing/content-length-junk", 3, withBody, (r, b, p) -> {
            b.main.framing = "none";
            b.main.header("Content-Length: " + List.of("abc", "-1", "+" + b.main.body.length(), "1 2", "99999999999999999999",
                    "0x10", b.main.body.length() + ",").get(r.nextInt(7)));
            return Expect.REFUSE;
        });
        add("framing/length-and-chunked", 2, withBody, (r, b, p) -> {
            b.main.framing = "chunked";
            b.main.header("Content-Length: " + b.main.body.length());
            return Expect.ANY;
        });
        add("framing/chunked", 2, withBody, (r, b, p) -> {
            b.main.framing = "chunked";
            return Expect.ANY;
        });
        add("framing/chunk-size-bad", 4, withBody, (r, b, p) -> {
            byte[] body = b.main.bodyBytes();
            String[] sizes = {"zz", "-1", "FFFFFFFFFFFFFFFFFFFF", "0x10", " ", "1;ext=\"open", "+a"};
            String size = sizes[r.nextInt(sizes.length)];
            b.main.framing = "none";
            b.main.header("Transfer-Encoding: chunked");
            b.main.body = Body.bytes(concat((size + "\r\n").getBytes(StandardCharsets.US_ASCII), body,
                    "\r\n0\r\n\r\n".getBytes(StandardCharsets.US_ASCII)));
            b.main.docAddressChanged = true;
            return Expect.REFUSE;
        });
        add("framing/chunk-missing-crlf", 2, withBody, (r, b, p) -> {
            byte[] body = b.main.bodyBytes();
            b.main.framing = "none";
            b.main.header("Transfer-Encoding: chunked");
            b.main.body = Body.bytes(concat((Integer.toHexString(body.length) + "\r\n").getBytes(StandardCharsets.US_ASCII), body,
                    "XX0\r\n\r\n".getBytes(StandardCharsets.US_ASCII)));
            b.main.docAddressChanged = true;
            return Expect.REFUSE;
        });
        add("framing/transfer-coding-unknown", 4, withBody, (r, b, p) -> {
            String coding = List.of("gzip", "identity", "chunked, gzip", "x-custom", "gzip, chunked", "chunked, identity").get(r.nextInt(6));
            b.main.framing = "none";
            b.main.header("Transfer-Encoding: " + coding);
            if (coding.endsWith("chunked")) {
                b.main.body = FuzzRequest.Builder.chunked(b.main.bodyBytes());
            }
            b.main.docAddressChanged = true;
            return Expect.REFUSE; // 501 or 400 (RFC 9112 6.1); a coding Cairn cannot decode must not be processed
        });
        add("framing/request-line", 3, b -> true, (r, b, p) -> {
            int which = r.nextInt(8);
            p.edit = req -> {
                String head = new String(req.head, StandardCharsets.ISO_8859_1);
                int sp = head.indexOf(' ');
                int eol = head.indexOf("\r\n");
                String line = head.substring(0, eol);
                String rest = head.substring(eol);
                String target = line.substring(sp + 1, line.lastIndexOf(' '));
                String method = line.substring(0, sp);
                String newLine = switch (which) {
                    case 0 -> method + "  " + target + " HTTP/1.1";
                    case 1 -> method + "\t" + target + " HTTP/1.1";
                    case 2 -> method + " " + target + " HTTP/1.1 extra";
                    case 3 -> method + " " + target + " http/1.1";
                    case 4 -> method + " " + target + " HTTP/1.2";
                    case 5 -> method + " http://" + host + target + " HTTP/1.1";
                    case 6 -> method + " " + target + "\u0000 HTTP/1.1";
                    default -> method + " " + target.replaceFirst("^/", "") + " HTTP/1.1";
                };
                return req.withBytes((newLine + rest).getBytes(StandardCharsets.ISO_8859_1), req.body, Expect.ANY);
            };
            b.main.docAddressChanged = which != 5;
            return Expect.ANY;
        });
        add("framing/bare-lf", 2, b -> true, (r, b, p) -> {
            p.edit = req -> req.withBytes(new String(req.head, StandardCharsets.ISO_8859_1).replace("\r\n", "\n")
                    .getBytes(StandardCharsets.ISO_8859_1), req.body, req.expect);
            return Expect.ANY;
        });
        add("framing/long-target", 1, b -> true, (r, b, p) -> {
            b.main.query.add("pad=" + "a".repeat(100_000 + r.nextInt(100_000)));
            b.main.docAddressChanged = true;
            return Expect.ANY;
        });
    }

    private void defineMultipartMutations() {
        java.util.function.Predicate<Base> mp = b -> b.has(Trait.MULTIPART);
        add("multipart/wrong-hash", 20, mp, (r, b, p) -> {
            byte[] body = b.main.bodyBytes();
            String s = new String(body, StandardCharsets.ISO_8859_1);
            int at = s.indexOf("X-Experience-API-Hash: ") + 23;
            char c = s.charAt(at);
            b.main.body = Body.bytes((s.substring(0, at) + (c == '0' ? '1' : '0') + s.substring(at + 1)).getBytes(StandardCharsets.ISO_8859_1));
            return Expect.REFUSE;
        });
        add("multipart/hash-missing", 10, mp, (r, b, p) -> {
            String s = new String(b.main.bodyBytes(), StandardCharsets.ISO_8859_1).replaceFirst("X-Experience-API-Hash: [0-9a-f]+\r\n", "");
            b.main.body = Body.bytes(s.getBytes(StandardCharsets.ISO_8859_1));
            return Expect.REFUSE;
        });
        add("multipart/part-missing", 15, mp, (r, b, p) -> {
            String s = new String(b.main.bodyBytes(), StandardCharsets.ISO_8859_1);
            int second = s.indexOf("\r\n--" + BOUNDARY + "\r\nContent-Type: text/plain");
            b.main.body = Body.bytes((s.substring(0, second) + "\r\n--" + BOUNDARY + "--\r\n").getBytes(StandardCharsets.ISO_8859_1));
            return Expect.REFUSE;
        });
        add("multipart/unclosed", 15, mp, (r, b, p) -> {
            String s = new String(b.main.bodyBytes(), StandardCharsets.ISO_8859_1);
            b.main.body = Body.bytes(s.substring(0, s.lastIndexOf("--" + BOUNDARY)).getBytes(StandardCharsets.ISO_8859_1));
            return Expect.REFUSE;
        });
        add("multipart/truncated", 15, mp, (r, b, p) -> {
            byte[] body = b.main.bodyBytes();
            b.main.body = Body.bytes(java.util.Arrays.copyOf(body, r.nextInt(body.length - 10)));
            return Expect.REFUSE;
        });
        add("multipart/boundary", 20, mp, (r, b, p) -> {
            b.main.contentType = List.of("multipart/mixed", "multipart/mixed; boundary=", "multipart/mixed; boundary=other",
                    "multipart/mixed; boundary=\"" + BOUNDARY, "multipart/form-data; boundary=" + BOUNDARY,
                    "multipart/mixed; boundary=" + "b".repeat(5000)).get(r.nextInt(6));
            return Expect.REFUSE;
        });
        add("multipart/first-part-not-json", 10, mp, (r, b, p) -> {
            String s = new String(b.main.bodyBytes(), StandardCharsets.ISO_8859_1)
                    .replaceFirst("Content-Type: application/json", "Content-Type: text/plain");
            b.main.body = Body.bytes(s.getBytes(StandardCharsets.ISO_8859_1));
            return Expect.REFUSE;
        });
        add("multipart/extra-part", 10, mp, (r, b, p) -> {
            String s = new String(b.main.bodyBytes(), StandardCharsets.ISO_8859_1);
            String extra = "\r\n--" + BOUNDARY + "\r\nContent-Type: text/plain\r\nX-Experience-API-Hash: " + "ab".repeat(32)
                    + "\r\n\r\nunreferenced";
            int end = s.lastIndexOf("\r\n--" + BOUNDARY + "--");
            b.main.body = Body.bytes((s.substring(0, end) + extra + s.substring(end)).getBytes(StandardCharsets.ISO_8859_1));
            return Expect.ANY;
        });
        add("multipart/part-headers-junk", 10, mp, (r, b, p) -> {
            String s = new String(b.main.bodyBytes(), StandardCharsets.ISO_8859_1)
                    .replaceFirst("Content-Transfer-Encoding: binary", List.of("NoColon", "Content-Transfer-Encoding: base64",
                            "X: " + "h".repeat(20_000), "\u0000: \u0000").get(r.nextInt(4)));
            b.main.body = Body.bytes(s.getBytes(StandardCharsets.ISO_8859_1));
            return Expect.ANY;
        });
    }

    private void defineDocumentMutations() {
        add("document/if-match-wrong", 8, b -> b.has(Trait.PRECONDITION), (r, b, p) -> {
            b.main.headers.removeIf(h -> h.startsWith("If-Match"));
            b.main.header("If-Match: \"" + "0".repeat(40) + "\"");
            return Expect.REFUSE; // 412
        });
        add("document/if-none-match-existing", 6, b -> b.has(Trait.PRECONDITION) && !b.main.method.equals("DELETE"), (r, b, p) -> {
            b.main.headers.removeIf(h -> h.startsWith("If-Match"));
            b.main.header("If-None-Match: *");
            return Expect.REFUSE; // 412: the document exists
        });
        add("document/precondition-odd", 6, b -> b.has(Trait.PRECONDITION), (r, b, p) -> {
            b.main.headers.removeIf(h -> h.startsWith("If-Match"));
            String bare = b.etag.replace("\"", "");
            b.main.header(List.of("If-Match: " + bare, "If-Match: *", "If-Match: \"x\", " + b.etag, "If-Match: W/" + b.etag,
                    "If-Match: \"", "If-None-Match: " + b.etag, "If-Match: " + b.etag + "\r\nIf-Match: \"y\"",
                    "If-None-Match: \u00ff").get(r.nextInt(8)));
            return Expect.ANY;
        });
        add("document/put-existing-without-precondition", 4, b -> b.has(Trait.PROFILE_PUT), (r, b, p) -> {
            b.main.headers.removeIf(h -> h.startsWith("If-Match"));
            return Expect.REFUSE; // 409 (Comm 3.1; the 2.0 suite for State too)
        });
        add("document/merge-not-json", 6, b -> b.has(Trait.DOC_MERGE), (r, b, p) -> {
            if (r.nextBoolean()) {
                b.main.contentType = "text/plain";
                b.main.body = Body.bytes("plain text".getBytes(StandardCharsets.US_ASCII));
            } else {
                b.setJson("[1,2,3]".getBytes(StandardCharsets.US_ASCII));
            }
            return b.main.resource.contains("merge") ? Expect.REFUSE : Expect.ANY; // onto a JSON document: 400
        });
        add("document/params", 10, b -> b.has(Trait.DOC_QUERY), (r, b, p) -> {
            int which = r.nextInt(6);
            List<String> q = b.main.query;
            boolean read = b.main.method.equals("GET") || b.main.method.equals("HEAD");
            boolean state = b.main.path.contains("/state");
            b.main.docAddressChanged = true;
            switch (which) {
                case 0 -> q.removeIf(x -> x.startsWith("activityId=") || x.startsWith("agent="));
                case 1 -> b.main.setRaw(q.stream().anyMatch(x -> x.startsWith("agent=")) ? "agent" : "activityId",
                        List.of("%7Bbad", "%7B%7D", "not%20an%20iri", "").get(r.nextInt(4)));
                case 2 -> b.main.setRaw("registration", "not-a-uuid");
                case 3 -> b.main.setRaw("since", "junk");
                case 4 -> {
                    q.removeIf(x -> x.startsWith("stateId=") || x.startsWith("profileId="));
                    // without its id, a read lists the ids and a State DELETE deletes them all: both valid
                    return read || (state && b.main.method.equals("DELETE")) ? Expect.ANY : Expect.REFUSE;
                }
                default -> {
                    b.main.setRaw(state ? "stateId" : "profileId", "");
                    return Expect.ANY;
                }
            }
            return Expect.REFUSE;
        });
        add("document/content-type-odd", 4, b -> b.has(Trait.DOC_BYTES), (r, b, p) -> {
            b.main.contentType = List.of("application/json", "text/plain; charset=utf-8", "").get(r.nextInt(3));
            return Expect.ANY;
        });
    }

    private void defineAltMutations() {
        java.util.function.Predicate<Base> alt = b -> b.has(Trait.ALT);
        add("alt/method-param", 4, alt, (r, b, p) -> {
            b.main.setRaw("method", List.of("get", "PATCH", "", "HEAD", "PUT&method=GET", "POST%00").get(r.nextInt(6)));
            b.main.docAddressChanged = true;
            return Expect.REFUSE;
        });
        add("alt/extra-query-param", 2, alt, (r, b, p) -> {
            b.main.query.add("limit=1");
            return Expect.REFUSE;
        });
        add("alt/content-type", 3, alt, (r, b, p) -> {
            b.main.contentType = List.of("application/json", "text/plain", "multipart/form-data; boundary=x").get(r.nextInt(3));
            return Expect.REFUSE;
        });
        add("alt/version-2.0", 2, alt, (r, b, p) -> {
            b.main.version = "2.0.0";
            return Expect.REFUSE;
        });
        add("alt/form-junk", 5, alt, (r, b, p) -> {
            byte[] form = b.main.bodyBytes();
            String s = new String(form, StandardCharsets.US_ASCII);
            int which = r.nextInt(6);
            String out = switch (which) {
                case 0 -> s + "&content=%zz";
                case 1 -> s.replace("Authorization=", "Authorization=%");
                case 2 -> s.replaceAll("Authorization=[^&]*", "Authorization=" + percent(basic(key + ":" + secret + "\u0000").getBytes(StandardCharsets.US_ASCII)));
                case 3 -> s.replaceAll("X-Experience-API-Version=[^&]*", "X-Experience-API-Version=9.9.9");
                case 4 -> s.replaceAll("Authorization=[^&]*", "Authorization=");
                default -> s + "&" + "x=y&".repeat(20_000);
            };
            b.main.body = Body.bytes(out.getBytes(StandardCharsets.US_ASCII));
            return which == 5 || which == 0 && !b.has(Trait.STATEMENT_JSON) && !b.has(Trait.DOC_JSON) ? Expect.ANY : Expect.REFUSE;
        });
        add("alt/content-invalid-utf8", 4, b -> b.has(Trait.ALT) && b.json != null, (r, b, p) -> {
            b.setJson(b.jsonWith(new byte[][] {{(byte) 0xC3, 0x28}, {(byte) 0xFF}, {(byte) 0xC0, (byte) 0xAF}}[r.nextInt(3)]));
            return b.has(Trait.STATEMENT_JSON) ? Expect.REFUSE : Expect.ANY; // issue 16 item 15
        });
    }

    // ------------------------------------------------------------------------------------------------ bytes

    static byte[] replace(byte[] text, byte[] what, byte[] with) {
        int at = indexOf(text, what);
        if (at < 0) {
            return text;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(text.length + with.length);
        int from = 0;
        while (at >= 0) {
            out.write(text, from, at - from);
            out.writeBytes(with);
            from = at + what.length;
            at = indexOf(text, what, from);
        }
        out.write(text, from, text.length - from);
        return out.toByteArray();
    }

    static int indexOf(byte[] text, byte[] what) {
        return indexOf(text, what, 0);
    }

    static int indexOf(byte[] text, byte[] what, int from) {
        outer:
        for (int i = from; i <= text.length - what.length; i++) {
            for (int j = 0; j < what.length; j++) {
                if (text[i + j] != what[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    static byte[] splice(byte[] text, int at, int remove, byte[] insert) {
        return concat(java.util.Arrays.copyOf(text, at), insert, java.util.Arrays.copyOfRange(text, at + remove, text.length));
    }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    static byte[] sha1(byte[] b) {
        return digest("SHA-1", b);
    }

    static byte[] sha256(byte[] b) {
        return digest("SHA-256", b);
    }

    private static byte[] digest(String algorithm, byte[] b) {
        try {
            return MessageDigest.getInstance(algorithm).digest(b);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
