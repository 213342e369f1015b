package dev.cairn.xapi;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonToken;
import dev.cairn.xapi.ObjectGrammar.Expect;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

/**
 * The strict statement parser: reads UTF-8 bytes with Jackson's streaming API straight into the immutable model
 * and validates as it goes. Any rule broken throws an {@link XapiException} naming the JSON path. Use the static
 * entry points: each thread reuses one instance and its scratch arrays, so that a call allocates little beyond the
 * model it returns.
 *
 * <p>The strict JSON underneath (UTF-8, duplicate names, offsets) is {@link JsonReader}'s; the grammar reads like
 * the specification, section by section: the Statement (Data 2.4) here, actors and objects in
 * {@link ObjectGrammar}, the context in {@link ContextGrammar}, and verb, definition, result, attachments and
 * the typed values in {@link LeafGrammar}.
 */
public final class StatementParser {
    /** One instance per thread (HTTP workers, import parsers), reused by every call on that thread. */
    private static final ThreadLocal<StatementParser> CACHED = ThreadLocal.withInitial(StatementParser::new);

    private final JsonReader in = new JsonReader();
    private final JsonPath path = in.path();
    private final LeafGrammar leaves = new LeafGrammar(in);
    private final ObjectGrammar objects = new ObjectGrammar(in, leaves);
    private final ContextGrammar contexts = objects.contexts();
    private boolean busy;
    /** The (start, end) offsets of the current statement's kept members; copied out at its end. */
    private int[] members = new int[16];

    private StatementParser() {
    }

    /** This thread's instance, or a fresh one should a parse on this thread be under way already. */
    private static StatementParser acquire(XapiVersion version, boolean stored) {
        StatementParser parser = CACHED.get();
        if (parser.busy) {
            parser = new StatementParser();
        }
        parser.busy = true;
        parser.leaves.begin(version, stored);
        return parser;
    }

    /** Drops the references to this call's input, so that an idle thread does not keep a large body alive. */
    private void release() {
        in.release();
        busy = false;
    }

    /** Parses a POST body: one statement object or an array of them. */
    @SuppressWarnings("unchecked")
    public static List<ParsedStatement> parseBatch(byte[] body, XapiVersion version) {
        JsonReader.refuseNul(body);
        return (List<ParsedStatement>) parse(body, version, Content.STATEMENTS, false);
    }

    /** Parses a PUT body: exactly one statement object. */
    public static ParsedStatement parseOne(byte[] body, XapiVersion version) {
        JsonReader.refuseNul(body);
        return (ParsedStatement) parse(body, version, Content.STATEMENT, false);
    }

    /**
     * Re-reads a statement Cairn stored (the log, the tables), whichever version it was accepted under: the
     * rules of 2.0, which allow everything 1.0.3 does, but for the timestamp offset 2.0 requires and 1.0.3 does not.
     */
    public static ParsedStatement parseStored(byte[] json) {
        return (ParsedStatement) parse(json, XapiVersion.V2_0_0, Content.STATEMENT, true);
    }

    /**
     * Parses an Agent or identified Group given as a query parameter ({@code agent=}); {@code where} names the
     * parameter in errors.
     */
    public static Actor parseActor(byte[] json, XapiVersion version, String where) {
        try {
            JsonReader.refuseNul(json);
            return (Actor) parse(json, version, Content.ACTOR, false);
        } catch (XapiException e) {
            throw new XapiException(where + " " + e.where(), e.code(), e.getMessage());
        }
    }

    /**
     * Parses an Activity Definition object, such as the LRS's canonical definition of an activity, with the
     * rules a definition inside a statement follows.
     */
    public static ActivityDefinition parseActivityDefinition(byte[] json) {
        return (ActivityDefinition) parse(json, XapiVersion.V2_0_0, Content.DEFINITION, false);
    }

    /** What a body holds, by entry point. */
    private enum Content { STATEMENTS, STATEMENT, ACTOR, DEFINITION }

    private static Object parse(byte[] body, XapiVersion version, Content content, boolean stored) {
        StatementParser parser = acquire(version, stored);
        try {
            return parser.run(body, content);
        } finally {
            parser.release();
        }
    }

    private Object run(byte[] body, Content content) {
        in.begin(body);
        boolean readToTheEnd = false;
        try {
            JsonToken t = in.open();
            if (t == null) {
                throw new XapiException("$", "json.empty", content == Content.ACTOR
                        ? "the value is empty; send an Agent or Group as JSON" : "the body is empty; send JSON");
            }
            Object value = switch (content) {
                case STATEMENTS -> t == JsonToken.START_ARRAY ? batch() : List.of(statement(true));
                case STATEMENT -> statement(false);
                case ACTOR -> objects.read(Expect.ACTOR);
                case DEFINITION -> leaves.definition();
            };
            in.expectEnd();
            readToTheEnd = true;
            return value;
        } catch (JsonParseException e) {
            throw in.malformed(e);
        } catch (IOException e) {
            throw in.malformed(e);
        } finally {
            in.end(readToTheEnd);
        }
    }

    private List<ParsedStatement> batch() throws IOException {
        List<ParsedStatement> out = new ArrayList<>();
        path.pushIndex(0);
        int i = 0;
        while (in.next() != JsonToken.END_ARRAY) {
            path.setIndex(i++);
            out.add(topStatement());
        }
        path.pop();
        if (out.isEmpty()) {
            throw new XapiException("$", "batch.empty", "the statement array is empty");
        }
        return out;
    }

    private ParsedStatement statement(boolean arrayAllowed) throws IOException {
        if (in.token() != JsonToken.START_OBJECT) {
            throw new XapiException("$", "property.type", arrayAllowed
                    ? "expected a statement object or an array of statements" : "expected a statement object");
        }
        return topStatement();
    }

    private ParsedStatement topStatement() throws IOException {
        in.expectObject();
        contexts.resetWraps();
        int memberCount = 0;
        UUID id = null;
        Actor actor = null;
        Verb verb = null;
        StatementObject object = null;
        Result result = null;
        Context context = null;
        String timestamp = null;
        String stored = null;
        Actor authority = null;
        String statementVersion = null;
        List<Attachment> attachments = null;
        while (in.next() == JsonToken.FIELD_NAME) {
            int start = in.tokenOffset();
            if (memberCount > 0 && members[memberCount - 1] < 0) {
                members[memberCount - 1] = in.endBefore(start, true);
            }
            String name = in.name();
            in.next();
            path.pushName(name);
            boolean keep = true;
            switch (name) {
                case "id" -> id = leaves.uuidValue();
                case "actor" -> actor = (Actor) objects.read(Expect.ACTOR);
                case "verb" -> verb = leaves.verb();
                case "object" -> object = objects.read(Expect.OBJECT);
                case "result" -> result = leaves.result();
                case "context" -> context = contexts.context();
                case "timestamp" -> timestamp = leaves.timestamp();
                case "stored" -> {
                    stored = leaves.timestamp();
                    keep = false;
                }
                case "authority" -> {
                    authority = (Actor) objects.read(Expect.AUTHORITY);
                    keep = false;
                }
                case "version" -> statementVersion = statementVersion();
                case "attachments" -> attachments = leaves.attachments();
                default -> throw in.unknown(name, "a Statement");
            }
            path.pop();
            if (keep) {
                if (memberCount + 2 > members.length) {
                    members = Arrays.copyOf(members, members.length * 2);
                }
                members[memberCount++] = start;
                members[memberCount++] = -1;
            }
        }
        if (memberCount > 0 && members[memberCount - 1] < 0) {
            members[memberCount - 1] = in.endBefore(in.tokenOffset(), false);
        }
        in.requireProperty(actor, "actor", "a Statement");
        in.requireProperty(verb, "verb", "a Statement");
        in.requireProperty(object, "object", "a Statement");
        contexts.checkAgainstObject(context, object);
        checkVoiding(verb, object);
        Statement s = new Statement(id, actor, verb, object, result, context, timestamp, stored, authority,
                statementVersion, attachments);
        return new ParsedStatement(s, in.source(), Arrays.copyOf(members, memberCount), contexts.wraps());
    }

    private void checkVoiding(Verb verb, StatementObject object) {
        if (verb.isVoiding() && !(object instanceof StatementRef)) {
            throw new XapiException(path.format("object"), "voiding.object", "a voiding statement (verb " + Verb.VOIDED
                    + ") must have a StatementRef object naming the statement it voids");
        }
    }

    /**
     * Data 2.4.10: "1.0" or "1.0.x" (x a number); a 2.0.0 request also accepts "2.0" or "2.0.x" (the 2.0 suite
     * still sends 1.0.x versions and expects them stored).
     */
    private String statementVersion() throws IOException {
        String v = in.string();
        if (isVersion(v, '1') || (leaves.version() == XapiVersion.V2_0_0 && isVersion(v, '2'))) {
            return v;
        }
        throw new XapiException(path.format(), "version.unsupported", "statement version '" + v
                + "' is not supported; use 1.0.x" + (leaves.version() == XapiVersion.V2_0_0 ? " or 2.0.x" : ""));
    }

    /** {@code M.0} or {@code M.0.n} with n one or more digits. */
    private static boolean isVersion(String v, char major) {
        int n = v.length();
        if (n < 3 || v.charAt(0) != major || v.charAt(1) != '.' || v.charAt(2) != '0') {
            return false;
        }
        if (n == 3) {
            return true;
        }
        if (n == 4 || v.charAt(3) != '.') {
            return false;
        }
        for (int i = 4; i < n; i++) {
            if (v.charAt(i) < '0' || v.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }
}
