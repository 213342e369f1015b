package dev.cairn.xapi;

import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The Actor (Data 2.4.2: Agent, Group) and the statement object (Data 2.4.4: Activity, Agent, Group,
 * StatementRef, SubStatement), and every other place that holds one of them, read by one method that collects
 * what any of those types may carry and then decides which type it is.
 */
final class ObjectGrammar {
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
    enum Expect { ACTOR, AGENT, GROUP, AUTHORITY, ACTIVITY, STATEMENT_REF, OBJECT, SUB_OBJECT }

    private final JsonReader in;
    private final JsonPath path;
    private final LeafGrammar leaves;
    private final ContextGrammar contexts;

    ObjectGrammar(JsonReader in, LeafGrammar leaves) {
        this.in = in;
        this.path = in.path();
        this.leaves = leaves;
        this.contexts = new ContextGrammar(in, leaves, this);
    }

    ContextGrammar contexts() {
        return contexts;
    }

    /**
     * Reads any object-like value in one pass, collecting every property any of the object types may have, then
     * decides the type from objectType and rejects properties that type does not allow.
     */
    StatementObject read(Expect expect) throws IOException {
        in.expectObject();
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
        for (String prop; (prop = in.nextName()) != null; ) {
            path.pushName(prop);
            int bit;
            switch (prop) {
                case "objectType" -> { bit = OBJECT_TYPE; objectType = objectType(); }
                case "id" -> { bit = ID; id = in.string(); }
                case "definition" -> { bit = DEFINITION; definition = leaves.definition(); }
                case "name" -> { bit = NAME; name = in.string(); }
                case "mbox" -> { bit = MBOX; mbox = mbox(); }
                case "mbox_sha1sum" -> { bit = SHA1; sha1 = sha1(); }
                case "openid" -> { bit = OPENID; openid = leaves.iri(); }
                case "account" -> { bit = ACCOUNT; account = account(); }
                case "member" -> { bit = MEMBER; members = members(); }
                case "actor" -> { bit = ACTOR; actor = (Actor) read(Expect.ACTOR); }
                case "verb" -> { bit = VERB; verb = leaves.verb(); }
                case "object" -> { bit = OBJECT; object = read(Expect.SUB_OBJECT); }
                case "result" -> { bit = RESULT; result = leaves.result(); }
                case "context" -> { bit = CONTEXT; context = contexts.context(); }
                case "timestamp" -> { bit = TIMESTAMP; timestamp = leaves.timestamp(); }
                case "attachments" -> { bit = ATTACHMENTS; attachments = leaves.attachments(); }
                // Statement properties no object may carry (a SubStatement "MUST NOT have" them, Data 2.4.4.3);
                // recognised here so the error names the rule rather than an unknown property.
                case "stored" -> { bit = STORED; in.skipValue(); }
                case "version" -> { bit = VERSION; in.skipValue(); }
                case "authority" -> { bit = AUTHORITY; in.skipValue(); }
                default -> throw in.unknown(prop, describe(expect));
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
                in.requireProperty(id, "id", "an Activity");
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
                in.requireProperty(id, "id", "a StatementRef");
                return new StatementRef(leaves.uuid(id, "id"));
            }
            case "SubStatement" -> {
                if (expect != Expect.OBJECT) {
                    throw new XapiException(path.format() + ".objectType", "substatement.position", expect == Expect.SUB_OBJECT
                            ? "a SubStatement cannot contain another SubStatement"
                            : "a SubStatement is not allowed here");
                }
                allowOnly(seen, SUB_PROPS, type);
                in.requireProperty(actor, "actor", "a SubStatement");
                in.requireProperty(verb, "verb", "a SubStatement");
                in.requireProperty(object, "object", "a SubStatement");
                contexts.checkAgainstObject(context, object);
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
        in.expectArray();
        List<Agent> out = new ArrayList<>();
        path.pushIndex(0);
        while (in.next() != JsonToken.END_ARRAY) {
            path.setIndex(out.size());
            out.add((Agent) read(Expect.AGENT));
        }
        path.pop();
        return Collections.unmodifiableList(out);
    }

    private String mbox() throws IOException {
        String v = in.string();
        if (!Iris.isMailto(v)) {
            throw new XapiException(path.format(), "mbox.invalid",
                    "mbox '" + v + "' must be a mailto IRI such as mailto:learner@example.com");
        }
        return v;
    }

    private String sha1() throws IOException {
        String v = in.string();
        if (!Hashes.isSha1Hex(v)) {
            throw new XapiException(path.format(), "mbox_sha1sum.invalid",
                    "mbox_sha1sum must be the 40 hexadecimal digits of a SHA-1 hash");
        }
        return v;
    }

    private String[] account() throws IOException {
        in.expectObject();
        String homePage = null, name = null;
        for (String prop; (prop = in.nextName()) != null; ) {
            path.pushName(prop);
            switch (prop) {
                case "homePage" -> homePage = leaves.iri();
                case "name" -> name = in.string();
                default -> throw in.unknown(prop, "an account");
            }
            path.pop();
        }
        in.requireProperty(homePage, "homePage", "an account");
        in.requireProperty(name, "name", "an account");
        return new String[] {homePage, name};
    }

    /** An objectType value: one of {@link #OBJECT_TYPES} read from Jackson's buffer, else the value as a String. */
    private String objectType() throws IOException {
        String type = in.oneOf(OBJECT_TYPES);
        return type != null ? type : in.string();
    }
}
