package dev.cairn.xapi;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.base.ParserBase;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * The strict statement parser: reads UTF-8 bytes with Jackson's streaming API straight into the immutable model
 * and validates as it goes. Any rule broken throws an {@link XapiException} naming the JSON path. Use the static
 * entry points: each thread reuses one instance and its scratch arrays, so that a call allocates little beyond the
 * model it returns.
 */
public final class StatementParser {
    // Duplicate names are found by fieldName() against the names already read in the same object, which costs no
    // allocation, instead of Jackson's STRICT_DUPLICATE_DETECTION, which builds a HashSet per object.
    private static final JsonFactory FACTORY = new JsonFactory();
    private static final Set<String> INTERACTION_TYPES = Set.of("true-false", "choice", "fill-in", "long-fill-in",
            "matching", "performance", "sequencing", "likert", "numeric", "other");

    // Properties an object-like value (Activity, Agent, Group, StatementRef, SubStatement) may carry.
    private static final int ID = 1, DEFINITION = 1 << 1, OBJECT_TYPE = 1 << 2, NAME = 1 << 3, MBOX = 1 << 4,
            SHA1 = 1 << 5, OPENID = 1 << 6, ACCOUNT = 1 << 7, MEMBER = 1 << 8, ACTOR = 1 << 9, VERB = 1 << 10,
            OBJECT = 1 << 11, RESULT = 1 << 12, CONTEXT = 1 << 13, TIMESTAMP = 1 << 14, ATTACHMENTS = 1 << 15,
            STORED = 1 << 16, VERSION = 1 << 17, AUTHORITY = 1 << 18;
    private static final int AGENT_PROPS = OBJECT_TYPE | NAME | MBOX | SHA1 | OPENID | ACCOUNT;
    private static final int GROUP_PROPS = AGENT_PROPS | MEMBER;
    private static final int ACTIVITY_PROPS = OBJECT_TYPE | ID | DEFINITION;
    private static final int REF_PROPS = OBJECT_TYPE | ID;
    private static final int SUB_PROPS = OBJECT_TYPE | ACTOR | VERB | OBJECT | RESULT | CONTEXT | TIMESTAMP | ATTACHMENTS;
    private static final String[] PROP_NAMES = {"id", "definition", "objectType", "name", "mbox", "mbox_sha1sum",
            "openid", "account", "member", "actor", "verb", "object", "result", "context", "timestamp", "attachments",
            "stored", "version", "authority"};
    /** Properties that identify an Agent or Group; in object position they need an explicit objectType. */
    private static final int ACTOR_ONLY_PROPS = MBOX | SHA1 | OPENID | ACCOUNT | MEMBER;

    /** objectType values, returned as these constants instead of a String per value. */
    private static final String[] OBJECT_TYPES = {"Agent", "Group", "Activity", "StatementRef", "SubStatement"};

    /** Which kinds of object-like values a position accepts. */
    private enum Expect { ACTOR, AGENT, GROUP, AUTHORITY, ACTIVITY, STATEMENT_REF, OBJECT, SUB_OBJECT }

    /** One instance per thread (HTTP workers, import parsers), reused by every call on that thread. */
    private static final ThreadLocal<StatementParser> CACHED = ThreadLocal.withInitial(StatementParser::new);

    private XapiVersion version;
    /** Whether a timestamp needs its UTC offset: by the rules of xAPI 2.0, but not when re-reading stored JSON. */
    private boolean offsetRequired;
    private byte[] source;
    private final JsonPath path = new JsonPath();
    private JsonParser p;
    private final DocumentStream documents = new DocumentStream(FACTORY);
    private boolean busy;
    /** The (start, end) offsets of the current statement's kept members; copied out at its end. */
    private int[] members = new int[16];
    /** Scratch for the alternating tags and values of a language map; copied out at its end. */
    private Object[] languages = new Object[8];
    /** Offsets of the context activities sent as a single object in the current statement: (start, end) pairs. */
    private int[] wraps = new int[8];
    private int wrapCount;
    /** The names read so far in each open object, by nesting depth; see {@link #fieldName()}. */
    private String[][] names = new String[8][];
    /** Their hash codes, scanned instead of the Strings: different names nearly always differ in their hash. */
    private int[][] hashes = new int[8][];
    /**
     * Per depth, one bit per name read (bit = hash mod 64): a name whose bit is clear is new without a scan,
     * which is nearly every name of an object with a handful of them.
     */
    private long[] masks = new long[8];
    /** For objects with many names (large extensions), a hash set per depth replaces the linear scan. */
    private java.util.HashSet<String>[] bigNames;

    private StatementParser() {
    }

    /** This thread's instance, or a fresh one should a parse on this thread be under way already. */
    private static StatementParser acquire(byte[] source, XapiVersion version, boolean stored) {
        StatementParser parser = CACHED.get();
        if (parser.busy) {
            parser = new StatementParser();
        }
        parser.busy = true;
        parser.source = source;
        parser.version = version;
        parser.offsetRequired = !stored && version == XapiVersion.V2_0_0;
        parser.path.reset();
        return parser;
    }

    /** Drops the references to this call's input, so that an idle thread does not keep a large body alive. */
    private void release() {
        source = null;
        p = null;
        bigNames = null;
        busy = false;
    }

    /** Parses a POST body: one statement object or an array of them. */
    @SuppressWarnings("unchecked")
    public static List<ParsedStatement> parseBatch(byte[] body, XapiVersion version) {
        return (List<ParsedStatement>) parse(body, version, Content.STATEMENTS, false);
    }

    /** Parses a PUT body: exactly one statement object. */
    public static ParsedStatement parseOne(byte[] body, XapiVersion version) {
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
        StatementParser parser = acquire(body, version, stored);
        try {
            return parser.run(content);
        } finally {
            parser.release();
        }
    }

    private Object run(Content content) {
        boolean readToTheEnd = false;
        if (DocumentStream.wideEncoding(source)) {
            throw new XapiException("$", "json.encoding", "the body is in UTF-16 or UTF-32; send JSON in UTF-8");
        }
        try {
            p = documents.open(source);
            JsonToken t = p.nextToken();
            if (t == null) {
                throw new XapiException("$", "json.empty", content == Content.ACTOR
                        ? "the value is empty; send an Agent or Group as JSON" : "the body is empty; send JSON");
            }
            Object value = switch (content) {
                case STATEMENTS -> t == JsonToken.START_ARRAY ? batch() : List.of(statement(true));
                case STATEMENT -> statement(false);
                case ACTOR -> objectLike(Expect.ACTOR);
                case DEFINITION -> definition();
            };
            for (int i = tokenOffset() + 1; i < source.length; i++) {
                if (!isSpace(source[i])) {
                    throw new XapiException("$", "json.trailing", "unexpected content after the end of the JSON value ("
                            + lineAndColumn(i) + ")");
                }
            }
            readToTheEnd = true;
            return value;
        } catch (JsonParseException e) {
            long at = e.getLocation().getByteOffset();
            String where = at >= 0 ? lineAndColumn(Math.min(documents.offset(at), source.length))
                    : "line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr();
            throw new XapiException(path.format(), "json.malformed", "malformed JSON: " + e.getOriginalMessage()
                    + " (" + where + ")");
        } catch (IOException e) {
            throw new XapiException(path.format(), "json.malformed", "malformed JSON: " + e.getMessage());
        } finally {
            finish(readToTheEnd);
        }
    }

    private List<ParsedStatement> batch() throws IOException {
        List<ParsedStatement> out = new ArrayList<>();
        path.pushIndex(0);
        int i = 0;
        while (p.nextToken() != JsonToken.END_ARRAY) {
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
        if (p.currentToken() != JsonToken.START_OBJECT) {
            throw new XapiException("$", "property.type", arrayAllowed
                    ? "expected a statement object or an array of statements" : "expected a statement object");
        }
        return topStatement();
    }

    private void finish(boolean readToTheEnd) {
        try {
            documents.finish(p, readToTheEnd);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** "line L, column C" (both from 1) of a byte offset in the body, for errors. */
    private String lineAndColumn(int offset) {
        int line = 1;
        int lineStart = 0;
        for (int i = 0; i < offset; i++) {
            if (source[i] == '\n') {
                line++;
                lineStart = i + 1;
            }
        }
        return "line " + line + ", column " + (offset - lineStart + 1);
    }

    private ParsedStatement topStatement() throws IOException {
        expectStart();
        wrapCount = 0;
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
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            int start = tokenOffset();
            if (memberCount > 0 && members[memberCount - 1] < 0) {
                members[memberCount - 1] = endBefore(start, true);
            }
            String name = fieldName();
            p.nextToken();
            path.pushName(name);
            boolean keep = true;
            switch (name) {
                case "id" -> id = uuidValue();
                case "actor" -> actor = (Actor) objectLike(Expect.ACTOR);
                case "verb" -> verb = verb();
                case "object" -> object = objectLike(Expect.OBJECT);
                case "result" -> result = result();
                case "context" -> context = context();
                case "timestamp" -> timestamp = timestamp();
                case "stored" -> {
                    stored = timestamp();
                    keep = false;
                }
                case "authority" -> {
                    authority = (Actor) objectLike(Expect.AUTHORITY);
                    keep = false;
                }
                case "version" -> statementVersion = statementVersion();
                case "attachments" -> attachments = attachments();
                default -> throw unknown(name, "a Statement");
            }
            path.pop();
            if (keep) {
                if (memberCount + 2 > members.length) {
                    members = java.util.Arrays.copyOf(members, members.length * 2);
                }
                members[memberCount++] = start;
                members[memberCount++] = -1;
            }
        }
        if (memberCount > 0 && members[memberCount - 1] < 0) {
            members[memberCount - 1] = endBefore(tokenOffset(), false);
        }
        requireProperty(actor, "actor", "a Statement");
        requireProperty(verb, "verb", "a Statement");
        requireProperty(object, "object", "a Statement");
        checkContextAgainstObject(context, object);
        checkVoiding(verb, object);
        Statement s = new Statement(id, actor, verb, object, result, context, timestamp, stored, authority,
                statementVersion, attachments);
        return new ParsedStatement(s, source, java.util.Arrays.copyOf(members, memberCount),
                wrapCount == 0 ? ParsedStatement.NO_WRAPS : java.util.Arrays.copyOf(wraps, wrapCount));
    }

    /**
     * The byte offset of the current token (a field name's offset is where its quote starts). Jackson's
     * currentTokenLocation() would allocate a JsonLocation per call; its token offset points one byte into the
     * token, and for a field name into the value after it, from where the name's opening quote is found.
     */
    private int tokenOffset() {
        int token = documents.offset(((ParserBase) p).getTokenCharacterOffset()) - 1;
        return p.currentToken() == JsonToken.FIELD_NAME ? nameStart(token) : token;
    }

    /** The opening quote of the name before the value at {@code value}: back over the colon and the name. */
    private int nameStart(int value) {
        int i = value - 1;
        while (source[i] != ':') {
            i--;
        }
        i--;
        while (source[i] != '"') {
            i--;
        }
        // A name sent without escapes starts its length before its closing quote; an unescaped quote there can
        // only be the opening one, since a name's content holds no unescaped quote.
        int plain = i - p.getParsingContext().getCurrentName().length() - 1;
        if (plain >= 0 && source[plain] == '"' && !escaped(plain)) {
            return plain;
        }
        // Back to the quote not escaped by an odd run of backslashes.
        do {
            i--;
            while (source[i] != '"') {
                i--;
            }
        } while (escaped(i));
        return i;
    }

    private boolean escaped(int quote) {
        int backslashes = 0;
        for (int i = quote - 1; source[i] == '\\'; i--) {
            backslashes++;
        }
        return (backslashes & 1) != 0;
    }

    /**
     * The name of the current property, rejected when the same object already had it (property.duplicate). Names
     * come from Jackson's symbol table, so the same name is usually the same instance and the scan is a few
     * reference comparisons.
     */
    @SuppressWarnings("unchecked")
    private String fieldName() {
        JsonStreamContext ctx = p.getParsingContext();
        String name = ctx.getCurrentName();
        int depth = ctx.getNestingDepth();
        int index = ctx.getCurrentIndex();
        if (depth >= names.length) {
            names = java.util.Arrays.copyOf(names, Math.max(depth + 1, names.length * 2));
            hashes = java.util.Arrays.copyOf(hashes, names.length);
            masks = java.util.Arrays.copyOf(masks, names.length);
        }
        String[] seen = names[depth];
        if (index < 16) {
            if (seen == null) {
                seen = names[depth] = new String[16];
                hashes[depth] = new int[16];
            }
            int[] seenHashes = hashes[depth];
            int hash = name.hashCode();
            long bit = 1L << hash;
            if (index == 0) {
                masks[depth] = bit;
            } else {
                if ((masks[depth] & bit) != 0) {
                    for (int i = 0; i < index; i++) {
                        if (seenHashes[i] == hash && seen[i].equals(name)) {
                            throw duplicate(name);
                        }
                    }
                }
                masks[depth] |= bit;
            }
            seen[index] = name;
            seenHashes[index] = hash;
            return name;
        }
        if (bigNames == null || bigNames.length <= depth) {
            bigNames = java.util.Arrays.copyOf(bigNames == null ? new java.util.HashSet[0] : bigNames, names.length);
        }
        if (index == 16) {
            bigNames[depth] = new java.util.HashSet<>(java.util.Arrays.asList(seen));
        }
        if (!bigNames[depth].add(name)) {
            throw duplicate(name);
        }
        return name;
    }

    private XapiException duplicate(String name) {
        return new XapiException(path.format(name), "property.duplicate", "property '" + name
                + "' appears twice in the same object (" + lineAndColumn(tokenOffset()) + ")");
    }

    /** The offset just past a member's value, found from the start of the next token. */
    private int endBefore(int next, boolean comma) {
        int i = next - 1;
        while (isSpace(source[i])) {
            i--;
        }
        if (comma && source[i] == ',') {
            i--;
            while (isSpace(source[i])) {
                i--;
            }
        }
        return i + 1;
    }

    private static boolean isSpace(byte b) {
        return b == ' ' || b == '\n' || b == '\r' || b == '\t';
    }

    private void checkVoiding(Verb verb, StatementObject object) {
        if (verb.isVoiding() && !(object instanceof StatementRef)) {
            throw new XapiException(path.format("object"), "voiding.object", "a voiding statement (verb " + Verb.VOIDED
                    + ") must have a StatementRef object naming the statement it voids");
        }
    }

    private void checkContextAgainstObject(Context context, StatementObject object) {
        if (context != null && !(object instanceof Activity)) {
            if (context.revision() != null) {
                throw new XapiException(path.format("context") + ".revision", "context.revision",
                        "context.revision is only allowed when the statement's object is an Activity");
            }
            if (context.platform() != null) {
                throw new XapiException(path.format("context") + ".platform", "context.platform",
                        "context.platform is only allowed when the statement's object is an Activity");
            }
        }
    }

    /**
     * Data 2.4.10: "1.0" or "1.0.x" (x a number); a 2.0.0 request also accepts "2.0" or "2.0.x" (the 2.0 suite
     * still sends 1.0.x versions and expects them stored).
     */
    private String statementVersion() throws IOException {
        String v = string();
        if (isVersion(v, '1') || (version == XapiVersion.V2_0_0 && isVersion(v, '2'))) {
            return v;
        }
        throw new XapiException(path.format(), "version.unsupported", "statement version '" + v
                + "' is not supported; use 1.0.x" + (version == XapiVersion.V2_0_0 ? " or 2.0.x" : ""));
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

    // ---- Actor, Activity, StatementRef, SubStatement -------------------------------------------------------

    /**
     * Reads any object-like value in one pass, collecting every property any of the object types may have, then
     * decides the type from objectType and rejects properties that type does not allow.
     */
    private StatementObject objectLike(Expect expect) throws IOException {
        expectStart();
        int seen = 0;
        String objectType = null, id = null, name = null, mbox = null, sha1 = null, openid = null;
        String[] account = null;
        ActivityDefinition definition = null;
        List<Agent> members = null;
        Actor actor = null;
        Verb verb = null;
        StatementObject object = null;
        Result result = null;
        Context context = null;
        String timestamp = null;
        List<Attachment> attachments = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String prop = fieldName();
            p.nextToken();
            path.pushName(prop);
            int bit;
            switch (prop) {
                case "objectType" -> { bit = OBJECT_TYPE; objectType = objectType(); }
                case "id" -> { bit = ID; id = string(); }
                case "definition" -> { bit = DEFINITION; definition = definition(); }
                case "name" -> { bit = NAME; name = string(); }
                case "mbox" -> { bit = MBOX; mbox = mbox(); }
                case "mbox_sha1sum" -> { bit = SHA1; sha1 = sha1(); }
                case "openid" -> { bit = OPENID; openid = iri(); }
                case "account" -> { bit = ACCOUNT; account = account(); }
                case "member" -> { bit = MEMBER; members = members(); }
                case "actor" -> { bit = ACTOR; actor = (Actor) objectLike(Expect.ACTOR); }
                case "verb" -> { bit = VERB; verb = verb(); }
                case "object" -> { bit = OBJECT; object = objectLike(Expect.SUB_OBJECT); }
                case "result" -> { bit = RESULT; result = result(); }
                case "context" -> { bit = CONTEXT; context = context(); }
                case "timestamp" -> { bit = TIMESTAMP; timestamp = timestamp(); }
                case "attachments" -> { bit = ATTACHMENTS; attachments = attachments(); }
                // Statement properties no object may carry (a SubStatement "MUST NOT have" them, Data 2.4.4.3);
                // recognised here so the error names the rule rather than an unknown property.
                case "stored" -> { bit = STORED; p.skipChildren(); }
                case "version" -> { bit = VERSION; p.skipChildren(); }
                case "authority" -> { bit = AUTHORITY; p.skipChildren(); }
                default -> throw unknown(prop, describe(expect));
            }
            seen |= bit;
            path.pop();
        }
        String type = objectType != null ? objectType : defaultType(expect, seen);
        if (type.equals("Agent") && (seen & MEMBER) != 0) {
            throw new XapiException(path.format("member"), "agent.member", "an Agent cannot have 'member'; "
                    + "a Group must say so with \"objectType\": \"Group\"");
        }
        switch (type) {
            case "Agent", "Group" -> {
                if (expect == Expect.ACTIVITY || expect == Expect.STATEMENT_REF
                        || (expect == Expect.AGENT && type.equals("Group"))
                        || (expect == Expect.GROUP && type.equals("Agent"))) {
                    throw wrongType(type, expect);
                }
                boolean group = type.equals("Group");
                allowOnly(seen, group ? GROUP_PROPS : AGENT_PROPS, type);
                Ifi ifi = ifi(mbox, sha1, openid, account, group);
                if (!group) {
                    return new Agent(name, ifi);
                }
                if (ifi == null && (members == null || members.isEmpty())) {
                    throw new XapiException(path.format(), "group.anonymous_without_members",
                            "an anonymous Group (one without an IFI) must list its members in 'member'");
                }
                Group g = new Group(name, ifi, members == null ? List.of() : members);
                if (expect == Expect.AUTHORITY && (ifi != null || g.members().size() != 2)) {
                    throw new XapiException(path.format(), "authority.group", "a Group as authority must be an anonymous "
                            + "OAuth consumer group of exactly two Agents");
                }
                return g;
            }
            case "Activity" -> {
                if (expect != Expect.OBJECT && expect != Expect.SUB_OBJECT && expect != Expect.ACTIVITY) {
                    throw wrongType(type, expect);
                }
                allowOnly(seen, ACTIVITY_PROPS, type);
                requireProperty(id, "id", "an Activity");
                if (!Iris.isAbsolute(id)) {
                    throw new XapiException(path.format() + ".id", "iri.invalid", "Activity id '" + id + "' is not an absolute IRI");
                }
                return new Activity(id, definition);
            }
            case "StatementRef" -> {
                if (expect != Expect.OBJECT && expect != Expect.SUB_OBJECT && expect != Expect.STATEMENT_REF) {
                    throw wrongType(type, expect);
                }
                allowOnly(seen, REF_PROPS, type);
                requireProperty(id, "id", "a StatementRef");
                return new StatementRef(uuid(id, "id"));
            }
            case "SubStatement" -> {
                if (expect != Expect.OBJECT) {
                    throw new XapiException(path.format() + ".objectType", "substatement.position", expect == Expect.SUB_OBJECT
                            ? "a SubStatement cannot contain another SubStatement"
                            : "a SubStatement is not allowed here");
                }
                allowOnly(seen, SUB_PROPS, type);
                requireProperty(actor, "actor", "a SubStatement");
                requireProperty(verb, "verb", "a SubStatement");
                requireProperty(object, "object", "a SubStatement");
                checkContextAgainstObject(context, object);
                return new SubStatement(actor, verb, object, result, context, timestamp, attachments);
            }
            default -> throw new XapiException(path.format() + ".objectType", "object_type.invalid", "objectType '" + type
                    + "' is not one of " + allowedTypes(expect));
        }
    }

    /**
     * The type of an object-like value without objectType. Only an Agent (Data 2.4.2.1) and an Activity
     * (Data 2.4.4.1) may leave it out: a Group (Data 2.4.2.2), a StatementRef (Data 2.4.4.3), a SubStatement
     * (Data 2.4.4.3) and an Agent or Group used as object (Data 2.4.4.2) must state it.
     */
    private String defaultType(Expect expect, int seen) {
        return switch (expect) {
            case ACTOR, AGENT, AUTHORITY -> "Agent";
            case GROUP -> throw new XapiException(path.format("objectType"), "property.missing",
                    "a Group must have \"objectType\": \"Group\"");
            case STATEMENT_REF -> throw new XapiException(path.format("objectType"), "property.missing",
                    "a StatementRef must have \"objectType\": \"StatementRef\"");
            case ACTIVITY -> "Activity";
            case OBJECT, SUB_OBJECT -> {
                if ((seen & ACTOR_ONLY_PROPS) != 0) {
                    throw new XapiException(path.format("objectType"), "property.missing", "an Agent or Group "
                            + "used as object must have \"objectType\": \"Agent\" or \"Group\"");
                }
                if ((seen & (ACTOR | VERB | OBJECT)) != 0) {
                    throw new XapiException(path.format("objectType"), "property.missing",
                            "a SubStatement must have \"objectType\": \"SubStatement\"");
                }
                yield "Activity";
            }
        };
    }

    private static String describe(Expect expect) {
        return switch (expect) {
            case ACTOR, AUTHORITY -> "an Agent or Group";
            case AGENT -> "an Agent";
            case GROUP -> "a Group";
            case ACTIVITY -> "an Activity";
            case STATEMENT_REF -> "a StatementRef";
            case OBJECT, SUB_OBJECT -> "a statement object";
        };
    }

    private static String allowedTypes(Expect expect) {
        return switch (expect) {
            case ACTOR, AUTHORITY -> "Agent, Group";
            case AGENT -> "Agent";
            case GROUP -> "Group";
            case ACTIVITY -> "Activity";
            case STATEMENT_REF -> "StatementRef";
            case OBJECT -> "Activity, Agent, Group, StatementRef, SubStatement";
            case SUB_OBJECT -> "Activity, Agent, Group, StatementRef";
        };
    }

    private XapiException wrongType(String type, Expect expect) {
        return new XapiException(path.format("objectType"), "object_type.invalid", "objectType '" + type
                + "' is not allowed here; expected " + allowedTypes(expect));
    }

    private void allowOnly(int seen, int allowed, String type) {
        int extra = seen & ~allowed;
        if (extra != 0) {
            String prop = PROP_NAMES[Integer.numberOfTrailingZeros(extra)];
            throw new XapiException(path.format(prop), "property.not_allowed",
                    "property '" + prop + "' is not allowed in " + (type.startsWith("A") ? "an " : "a ") + type);
        }
    }

    private Ifi ifi(String mbox, String sha1, String openid, String[] account, boolean group) {
        int count = (mbox != null ? 1 : 0) + (sha1 != null ? 1 : 0) + (openid != null ? 1 : 0) + (account != null ? 1 : 0);
        if (count > 1) {
            throw new XapiException(path.format(), "ifi.multiple", "an " + (group ? "identified Group" : "Agent")
                    + " must have exactly one of mbox, mbox_sha1sum, openid, account; found " + count);
        }
        if (count == 0) {
            if (group) {
                return null;
            }
            throw new XapiException(path.format(), "ifi.missing",
                    "an Agent must have exactly one of mbox, mbox_sha1sum, openid, account");
        }
        if (mbox != null) {
            return new Ifi(Ifi.Kind.MBOX, mbox, null);
        }
        if (sha1 != null) {
            return new Ifi(Ifi.Kind.MBOX_SHA1SUM, sha1, null);
        }
        if (openid != null) {
            return new Ifi(Ifi.Kind.OPENID, openid, null);
        }
        return new Ifi(Ifi.Kind.ACCOUNT, account[0], account[1]);
    }

    private List<Agent> members() throws IOException {
        expectArrayStart();
        List<Agent> out = new ArrayList<>();
        path.pushIndex(0);
        while (p.nextToken() != JsonToken.END_ARRAY) {
            path.setIndex(out.size());
            out.add((Agent) objectLike(Expect.AGENT));
        }
        path.pop();
        return Collections.unmodifiableList(out);
    }

    private String mbox() throws IOException {
        String v = string();
        if (!Iris.isMailto(v)) {
            throw new XapiException(path.format(), "mbox.invalid",
                    "mbox '" + v + "' must be a mailto IRI such as mailto:learner@example.com");
        }
        return v;
    }

    private String sha1() throws IOException {
        String v = string();
        if (!Hashes.isSha1Hex(v)) {
            throw new XapiException(path.format(), "mbox_sha1sum.invalid",
                    "mbox_sha1sum must be the 40 hexadecimal digits of a SHA-1 hash");
        }
        return v;
    }

    private String[] account() throws IOException {
        expectStart();
        String homePage = null, name = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String prop = fieldName();
            p.nextToken();
            path.pushName(prop);
            switch (prop) {
                case "homePage" -> homePage = iri();
                case "name" -> name = string();
                default -> throw unknown(prop, "an account");
            }
            path.pop();
        }
        requireProperty(homePage, "homePage", "an account");
        requireProperty(name, "name", "an account");
        return new String[] {homePage, name};
    }

    private Verb verb() throws IOException {
        expectStart();
        String id = null;
        Map<String, String> display = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String prop = fieldName();
            p.nextToken();
            path.pushName(prop);
            switch (prop) {
                case "id" -> id = iri();
                case "display" -> display = languageMap();
                default -> throw unknown(prop, "a Verb");
            }
            path.pop();
        }
        requireProperty(id, "id", "a Verb");
        return new Verb(id, display);
    }

    private ActivityDefinition definition() throws IOException {
        expectStart();
        Map<String, String> name = null, description = null;
        String type = null, moreInfo = null, interactionType = null;
        List<String> pattern = null;
        List<InteractionComponent> choices = null, scale = null, sourceC = null, target = null, steps = null;
        Map<String, Object> extensions = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String prop = fieldName();
            p.nextToken();
            path.pushName(prop);
            switch (prop) {
                case "name" -> name = languageMap();
                case "description" -> description = languageMap();
                case "type" -> type = iri();
                case "moreInfo" -> moreInfo = iri();
                case "interactionType" -> {
                    interactionType = string();
                    if (!INTERACTION_TYPES.contains(interactionType)) {
                        throw new XapiException(path.format(), "interaction_type.invalid", "interactionType '"
                                + interactionType + "' is not one of " + String.join(", ", INTERACTION_TYPES));
                    }
                }
                case "correctResponsesPattern" -> pattern = stringArray();
                case "choices" -> choices = components();
                case "scale" -> scale = components();
                case "source" -> sourceC = components();
                case "target" -> target = components();
                case "steps" -> steps = components();
                case "extensions" -> extensions = extensions();
                default -> throw unknown(prop, "an Activity Definition");
            }
            path.pop();
        }
        checkComponents(interactionType, "choices", choices, "choice", "sequencing");
        checkComponents(interactionType, "scale", scale, "likert");
        checkComponents(interactionType, "source", sourceC, "matching");
        checkComponents(interactionType, "target", target, "matching");
        checkComponents(interactionType, "steps", steps, "performance");
        if (interactionType == null && pattern != null) {
            throw new XapiException(path.format() + ".correctResponsesPattern", "interaction.without_type",
                    "correctResponsesPattern needs an interactionType");
        }
        return new ActivityDefinition(name, description, type, moreInfo, interactionType, pattern, choices, scale,
                sourceC, target, steps, extensions);
    }

    private void checkComponents(String interactionType, String prop,
                                        List<InteractionComponent> list, String... types) {
        if (list == null) {
            return;
        }
        for (String t : types) {
            if (t.equals(interactionType)) {
                return;
            }
        }
        throw new XapiException(path.format(prop), "interaction.component", "'" + prop
                + "' is only allowed with interactionType " + String.join(" or ", types));
    }

    private List<InteractionComponent> components() throws IOException {
        expectArrayStart();
        List<InteractionComponent> out = new ArrayList<>();
        path.pushIndex(0);
        java.util.HashSet<String> ids = new java.util.HashSet<>();
        while (p.nextToken() != JsonToken.END_ARRAY) {
            path.setIndex(out.size());
            expectStart();
            String id = null;
            Map<String, String> description = null;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String prop = fieldName();
                p.nextToken();
                path.pushName(prop);
                switch (prop) {
                    case "id" -> id = string();
                    case "description" -> description = languageMap();
                    default -> throw unknown(prop, "an interaction component");
                }
                path.pop();
            }
            requireProperty(id, "id", "an interaction component");
            if (!ids.add(id)) {
                throw new XapiException(path.format() + ".id", "interaction.duplicate_id",
                        "interaction component id '" + id + "' appears twice");
            }
            out.add(new InteractionComponent(id, description));
        }
        path.pop();
        return Collections.unmodifiableList(out);
    }

    private Result result() throws IOException {
        expectStart();
        Score score = null;
        Boolean success = null, completion = null;
        String response = null, duration = null;
        Map<String, Object> extensions = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String prop = fieldName();
            p.nextToken();
            path.pushName(prop);
            switch (prop) {
                case "score" -> score = score();
                case "success" -> success = bool();
                case "completion" -> completion = bool();
                case "response" -> response = string();
                case "duration" -> {
                    duration = string();
                    if (!Durations.isValid(duration)) {
                        throw new XapiException(path.format(), "duration.invalid",
                                "duration '" + duration + "' is not an ISO 8601 duration such as PT1H30M");
                    }
                }
                case "extensions" -> extensions = extensions();
                default -> throw unknown(prop, "a Result");
            }
            path.pop();
        }
        return new Result(score, success, completion, response, duration, extensions);
    }

    private Score score() throws IOException {
        expectStart();
        BigDecimal scaled = null, raw = null, min = null, max = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String prop = fieldName();
            p.nextToken();
            path.pushName(prop);
            switch (prop) {
                case "scaled" -> scaled = number();
                case "raw" -> raw = number();
                case "min" -> min = number();
                case "max" -> max = number();
                default -> throw unknown(prop, "a Score");
            }
            path.pop();
        }
        if (scaled != null && (scaled.compareTo(BigDecimal.ONE) > 0 || scaled.compareTo(BigDecimal.ONE.negate()) < 0)) {
            throw new XapiException(path.format() + ".scaled", "score.scaled", "score.scaled must be between -1 and 1");
        }
        if (min != null && max != null && min.compareTo(max) >= 0) {
            throw new XapiException(path.format() + ".min", "score.min", "score.min must be less than score.max");
        }
        if (raw != null && ((min != null && raw.compareTo(min) < 0) || (max != null && raw.compareTo(max) > 0))) {
            throw new XapiException(path.format() + ".raw", "score.raw", "score.raw must lie between score.min and score.max");
        }
        return new Score(scaled, raw, min, max);
    }

    private Context context() throws IOException {
        expectStart();
        UUID registration = null;
        Actor instructor = null;
        Group team = null;
        ContextActivities activities = null;
        String revision = null, platform = null, language = null;
        StatementRef statement = null;
        Map<String, Object> extensions = null;
        List<ContextAgent> contextAgents = null;
        List<ContextGroup> contextGroups = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String prop = fieldName();
            p.nextToken();
            path.pushName(prop);
            switch (prop) {
                case "registration" -> registration = uuidValue();
                case "instructor" -> instructor = (Actor) objectLike(Expect.ACTOR);
                case "team" -> team = (Group) objectLike(Expect.GROUP);
                case "contextActivities" -> activities = contextActivities();
                case "revision" -> revision = string();
                case "platform" -> platform = string();
                case "language" -> {
                    language = string();
                    if (!LanguageTags.isValid(language)) {
                        throw new XapiException(path.format(), "language.invalid",
                                "language '" + language + "' is not an RFC 5646 language tag");
                    }
                }
                case "statement" -> statement = (StatementRef) objectLike(Expect.STATEMENT_REF);
                case "extensions" -> extensions = extensions();
                case "contextAgents" -> {
                    if (version != XapiVersion.V2_0_0) {
                        throw unknown(prop, "a Context in xAPI 1.0.3");
                    }
                    contextAgents = contextAgents();
                }
                case "contextGroups" -> {
                    if (version != XapiVersion.V2_0_0) {
                        throw unknown(prop, "a Context in xAPI 1.0.3");
                    }
                    contextGroups = contextGroups();
                }
                default -> throw unknown(prop, "a Context");
            }
            path.pop();
        }
        return new Context(registration, instructor, team, activities, revision, platform, language, statement,
                extensions, contextAgents, contextGroups);
    }

    private ContextActivities contextActivities() throws IOException {
        expectStart();
        List<Activity> parent = null, grouping = null, category = null, other = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String prop = fieldName();
            p.nextToken();
            path.pushName(prop);
            switch (prop) {
                case "parent" -> parent = activityList();
                case "grouping" -> grouping = activityList();
                case "category" -> category = activityList();
                case "other" -> other = activityList();
                default -> throw unknown(prop, "contextActivities");
            }
            path.pop();
        }
        return new ContextActivities(parent, grouping, category, other);
    }

    private List<Activity> activityList() throws IOException {
        if (p.currentToken() == JsonToken.START_OBJECT) {
            // Data 2.4.6.2: the LRS returns a single object as an array of one; remember where it sits so that the
            // exact writer can add the brackets without re-serializing it.
            int start = tokenOffset();
            Activity single = (Activity) objectLike(Expect.ACTIVITY);
            if (wrapCount + 2 > wraps.length) {
                wraps = java.util.Arrays.copyOf(wraps, wraps.length * 2);
            }
            wraps[wrapCount++] = start;
            wraps[wrapCount++] = tokenOffset() + 1;
            return List.of(single);
        }
        expectArrayStart();
        path.pushIndex(0);
        if (p.nextToken() == JsonToken.END_ARRAY) {
            path.pop();
            return List.of();
        }
        Activity first = (Activity) objectLike(Expect.ACTIVITY);
        if (p.nextToken() == JsonToken.END_ARRAY) {
            // The usual case, one activity per key: no ArrayList.
            path.pop();
            return List.of(first);
        }
        List<Activity> out = new ArrayList<>();
        out.add(first);
        do {
            path.setIndex(out.size());
            out.add((Activity) objectLike(Expect.ACTIVITY));
        } while (p.nextToken() != JsonToken.END_ARRAY);
        path.pop();
        return Collections.unmodifiableList(out);
    }

    private List<ContextAgent> contextAgents() throws IOException {
        expectArrayStart();
        List<ContextAgent> out = new ArrayList<>();
        path.pushIndex(0);
        while (p.nextToken() != JsonToken.END_ARRAY) {
            path.setIndex(out.size());
            expectStart();
            String objectType = null;
            Agent agent = null;
            List<String> types = null;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String prop = fieldName();
                p.nextToken();
                path.pushName(prop);
                switch (prop) {
                    case "objectType" -> objectType = string();
                    case "agent" -> agent = (Agent) objectLike(Expect.AGENT);
                    case "relevantTypes" -> types = iriArray();
                    default -> throw unknown(prop, "a contextAgents entry");
                }
                path.pop();
            }
            if (!"contextAgent".equals(objectType)) {
                throw new XapiException(path.format() + ".objectType", "context_agent.object_type",
                        "a contextAgents entry must have objectType 'contextAgent'");
            }
            requireProperty(agent, "agent", "a contextAgents entry");
            out.add(new ContextAgent(agent, types));
        }
        path.pop();
        return Collections.unmodifiableList(out);
    }

    private List<ContextGroup> contextGroups() throws IOException {
        expectArrayStart();
        List<ContextGroup> out = new ArrayList<>();
        path.pushIndex(0);
        while (p.nextToken() != JsonToken.END_ARRAY) {
            path.setIndex(out.size());
            expectStart();
            String objectType = null;
            Group group = null;
            List<String> types = null;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String prop = fieldName();
                p.nextToken();
                path.pushName(prop);
                switch (prop) {
                    case "objectType" -> objectType = string();
                    case "group" -> group = (Group) objectLike(Expect.GROUP);
                    case "relevantTypes" -> types = iriArray();
                    default -> throw unknown(prop, "a contextGroups entry");
                }
                path.pop();
            }
            if (!"contextGroup".equals(objectType)) {
                throw new XapiException(path.format() + ".objectType", "context_group.object_type",
                        "a contextGroups entry must have objectType 'contextGroup'");
            }
            requireProperty(group, "group", "a contextGroups entry");
            out.add(new ContextGroup(group, types));
        }
        path.pop();
        return Collections.unmodifiableList(out);
    }

    private List<Attachment> attachments() throws IOException {
        expectArrayStart();
        List<Attachment> out = new ArrayList<>();
        path.pushIndex(0);
        while (p.nextToken() != JsonToken.END_ARRAY) {
            path.setIndex(out.size());
            expectStart();
            String usageType = null, contentType = null, sha2 = null, fileUrl = null;
            Map<String, String> display = null, description = null;
            Long length = null;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String prop = fieldName();
                p.nextToken();
                path.pushName(prop);
                switch (prop) {
                    case "usageType" -> usageType = iri();
                    case "display" -> display = languageMap();
                    case "description" -> description = languageMap();
                    case "contentType" -> {
                        contentType = string();
                        if (!MediaTypes.isValid(contentType)) {
                            throw new XapiException(path.format(), "attachment.content_type", "contentType '"
                                    + contentType + "' is not an Internet Media Type such as text/plain");
                        }
                    }
                    case "length" -> {
                        if (p.currentToken() != JsonToken.VALUE_NUMBER_INT || p.getLongValue() < 0) {
                            throw new XapiException(path.format(), "attachment.length",
                                    "length must be a non-negative integer number of bytes");
                        }
                        length = p.getLongValue();
                    }
                    case "sha2" -> {
                        sha2 = string();
                        if (!Hashes.isHex(sha2)) {
                            throw new XapiException(path.format(), "attachment.sha2",
                                    "sha2 must be the hexadecimal SHA-2 hash of the attachment");
                        }
                    }
                    case "fileUrl" -> fileUrl = iri();
                    default -> throw unknown(prop, "an Attachment");
                }
                path.pop();
            }
            requireProperty(usageType, "usageType", "an Attachment");
            requireProperty(display, "display", "an Attachment");
            requireProperty(contentType, "contentType", "an Attachment");
            requireProperty(length, "length", "an Attachment");
            requireProperty(sha2, "sha2", "an Attachment");
            out.add(new Attachment(usageType, display, description, contentType, length, sha2, fileUrl));
        }
        path.pop();
        return Collections.unmodifiableList(out);
    }

    // ---- scalar and generic values ------------------------------------------------------------------------

    private Map<String, String> languageMap() throws IOException {
        expectStart();
        Object[] kv = languages;
        int n = 0;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String tag = fieldName();
            p.nextToken();
            path.pushName(tag);
            if (!LanguageTags.isValid(tag)) {
                throw new XapiException(path.format(), "language.invalid",
                        "'" + tag + "' is not an RFC 5646 language tag (e.g. en-US)");
            }
            if (n == kv.length) {
                kv = languages = java.util.Arrays.copyOf(kv, n * 2);
            }
            kv[n++] = tag;
            kv[n++] = string();
            path.pop();
        }
        return new SmallMap<>(java.util.Arrays.copyOf(kv, n));
    }

    private Map<String, Object> extensions() throws IOException {
        expectStart();
        Object[] kv = new Object[4];
        int n = 0;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String key = fieldName();
            p.nextToken();
            path.pushName(key);
            if (!Iris.isAbsolute(key)) {
                throw new XapiException(path.format(), "extension.key", "extension key '" + key
                        + "' is not an absolute IRI");
            }
            if (n == kv.length) {
                kv = java.util.Arrays.copyOf(kv, n * 2);
            }
            kv[n++] = key;
            kv[n++] = anyValue();
            path.pop();
        }
        return new SmallMap<>(n == kv.length ? kv : java.util.Arrays.copyOf(kv, n));
    }

    /** Any JSON value (extension values): maps, lists, strings, BigDecimal, Boolean, or {@link JsonNull}. */
    private Object anyValue() throws IOException {
        switch (p.currentToken()) {
            case START_OBJECT -> {
                Object[] kv = new Object[4];
                int n = 0;
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String k = fieldName();
                    p.nextToken();
                    if (n == kv.length) {
                        kv = java.util.Arrays.copyOf(kv, n * 2);
                    }
                    kv[n++] = k;
                    kv[n++] = anyValue();
                }
                return new SmallMap<>(n == kv.length ? kv : java.util.Arrays.copyOf(kv, n));
            }
            case START_ARRAY -> {
                List<Object> l = new ArrayList<>();
                while (p.nextToken() != JsonToken.END_ARRAY) {
                    l.add(anyValue());
                }
                return Collections.unmodifiableList(l);
            }
            case VALUE_STRING -> {
                return p.getText();
            }
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> {
                return p.getDecimalValue();
            }
            case VALUE_TRUE -> {
                return Boolean.TRUE;
            }
            case VALUE_FALSE -> {
                return Boolean.FALSE;
            }
            default -> {
                return JsonNull.INSTANCE;
            }
        }
    }

    private List<String> stringArray() throws IOException {
        expectArrayStart();
        List<String> out = new ArrayList<>();
        path.pushIndex(0);
        while (p.nextToken() != JsonToken.END_ARRAY) {
            path.setIndex(out.size());
            out.add(string());
        }
        path.pop();
        return Collections.unmodifiableList(out);
    }

    private List<String> iriArray() throws IOException {
        expectArrayStart();
        List<String> out = new ArrayList<>();
        path.pushIndex(0);
        while (p.nextToken() != JsonToken.END_ARRAY) {
            path.setIndex(out.size());
            out.add(iri());
        }
        path.pop();
        if (out.isEmpty()) {
            throw new XapiException(path.format(), "array.empty", "relevantTypes must list at least one IRI");
        }
        return Collections.unmodifiableList(out);
    }

    private String timestamp() throws IOException {
        String v = string();
        if (!Timestamps.isValid(v, offsetRequired)) {
            throw new XapiException(path.format(), "timestamp.invalid", "'" + v + "' is not "
                    + Timestamps.rule(version));
        }
        return v;
    }

    private String iri() throws IOException {
        String v = string();
        if (!Iris.isAbsolute(v)) {
            throw new XapiException(path.format(), "iri.invalid", "'" + v + "' is not an absolute IRI");
        }
        return v;
    }

    /** An objectType value: one of {@link #OBJECT_TYPES} read from Jackson's buffer, else the value as a String. */
    private String objectType() throws IOException {
        if (p.currentToken() == JsonToken.VALUE_STRING) {
            char[] text = p.getTextCharacters();
            int offset = p.getTextOffset();
            int length = p.getTextLength();
            for (String type : OBJECT_TYPES) {
                if (sameChars(type, text, offset, length)) {
                    return type;
                }
            }
        }
        return string();
    }

    private static boolean sameChars(String s, char[] text, int offset, int length) {
        if (s.length() != length) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            if (s.charAt(i) != text[offset + i]) {
                return false;
            }
        }
        return true;
    }

    private String string() throws IOException {
        JsonToken t = p.currentToken();
        if (t != JsonToken.VALUE_STRING) {
            throw typeError("a string", t);
        }
        return p.getText();
    }

    private Boolean bool() throws IOException {
        JsonToken t = p.currentToken();
        if (t == JsonToken.VALUE_TRUE) {
            return Boolean.TRUE;
        }
        if (t == JsonToken.VALUE_FALSE) {
            return Boolean.FALSE;
        }
        throw typeError("true or false", t);
    }

    private BigDecimal number() throws IOException {
        JsonToken t = p.currentToken();
        if (t != JsonToken.VALUE_NUMBER_INT && t != JsonToken.VALUE_NUMBER_FLOAT) {
            throw typeError("a number", t);
        }
        return p.getDecimalValue();
    }

    private void expectStart() {
        JsonToken t = p.currentToken();
        if (t != JsonToken.START_OBJECT) {
            throw typeError("an object", t);
        }
    }

    private void expectArrayStart() {
        JsonToken t = p.currentToken();
        if (t != JsonToken.START_ARRAY) {
            throw typeError("an array", t);
        }
    }

    private XapiException typeError(String expected, JsonToken actual) {
        if (actual == JsonToken.VALUE_NULL) {
            return new XapiException(path.format(), "property.null",
                    "null is not allowed; leave the property out instead");
        }
        return new XapiException(path.format(), "property.type", "expected " + expected + " but found "
                + describe(actual));
    }

    private static String describe(JsonToken t) {
        return switch (t) {
            case START_OBJECT -> "an object";
            case START_ARRAY -> "an array";
            case VALUE_STRING -> "a string";
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> "a number";
            case VALUE_TRUE, VALUE_FALSE -> "a boolean";
            default -> String.valueOf(t);
        };
    }

    private XapiException unknown(String prop, String in) {
        path.pop();
        return new XapiException(path.format(prop), "property.unknown",
                "'" + prop + "' is not a property of " + in + " (property names are case-sensitive)");
    }

    private void requireProperty(Object value, String prop, String in) {
        if (value == null) {
            throw new XapiException(path.format(prop), "property.missing", in + " must have '" + prop + "'");
        }
    }

    /** The current string value as a UUID, read from Jackson's buffer without making a String. */
    private UUID uuidValue() throws IOException {
        if (p.currentToken() == JsonToken.VALUE_STRING) {
            UUID u = Uuids.parse(p.getTextCharacters(), p.getTextOffset(), p.getTextLength());
            if (u != null) {
                return u;
            }
        }
        return uuid(string(), null);
    }

    /**
     * A UUID in standard string form; {@code child} names the property under the current path for the error
     * (null when the path already points at the value).
     */
    private UUID uuid(String v, String child) {
        if (!Uuids.isValid(v)) {
            throw new XapiException(child == null ? path.format() : path.format(child), "uuid.invalid", "'" + v
                    + "' is not a UUID in standard string form (8-4-4-4-12 hexadecimal digits)");
        }
        return UUID.fromString(v);
    }
}
