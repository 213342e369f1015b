package dev.cairn.xapi;

import com.fasterxml.jackson.core.JsonToken;
import dev.cairn.xapi.ObjectGrammar.Expect;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.BiFunction;

/** The Context of a statement (Data 2.4.6), with its context activities and, in xAPI 2.0, its typed entries. */
final class ContextGrammar {
    /**
     * A list of typed context entries (xAPI 2.0 Data 2.4.6: contextAgents, contextGroups): objects with an
     * objectType, one actor and relevantTypes.
     */
    private record TypedEntries<A extends Actor, E>(String objectType, String actorProperty, Expect expect,
                                                    String code, String describe, BiFunction<A, List<String>, E> make) {
    }

    private static final TypedEntries<Agent, ContextAgent> AGENTS = new TypedEntries<>("contextAgent", "agent",
            Expect.AGENT, "context_agent.object_type", "a contextAgents entry", ContextAgent::new);
    private static final TypedEntries<Group, ContextGroup> GROUPS = new TypedEntries<>("contextGroup", "group",
            Expect.GROUP, "context_group.object_type", "a contextGroups entry", ContextGroup::new);

    private final JsonReader in;
    private final JsonPath path;
    private final LeafGrammar leaves;
    private final ObjectGrammar objects;
    /** Offsets of the context activities sent as a single object in the current statement: (start, end) pairs. */
    private int[] wraps = new int[8];
    private int wrapCount;

    ContextGrammar(JsonReader in, LeafGrammar leaves, ObjectGrammar objects) {
        this.in = in;
        this.path = in.path();
        this.leaves = leaves;
        this.objects = objects;
    }

    /** Starts a statement: no context activities sent as a single object yet. */
    void resetWraps() {
        wrapCount = 0;
    }

    /** The (start, end) offsets of the statement's context activities sent as a single object. */
    int[] wraps() {
        return wrapCount == 0 ? ParsedStatement.NO_WRAPS : Arrays.copyOf(wraps, wrapCount);
    }

    /** Data 2.4.6: revision and platform only in the context of a statement (or SubStatement) about an Activity. */
    void checkAgainstObject(Context context, StatementObject object) {
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

    Context context() throws IOException {
        in.expectObject();
        UUID registration = null;
        Actor instructor = null;
        Group team = null;
        ContextActivities activities = null;
        String revision = null, platform = null, language = null;
        StatementRef statement = null;
        Map<String, Object> extensions = null;
        List<ContextAgent> contextAgents = null;
        List<ContextGroup> contextGroups = null;
        for (String prop; (prop = in.nextName()) != null; ) {
            path.pushName(prop);
            switch (prop) {
                case "registration" -> registration = leaves.uuidValue();
                case "instructor" -> instructor = (Actor) objects.read(Expect.ACTOR);
                case "team" -> team = (Group) objects.read(Expect.GROUP);
                case "contextActivities" -> activities = contextActivities();
                case "revision" -> revision = in.string();
                case "platform" -> platform = in.string();
                case "language" -> {
                    language = in.string();
                    if (!LanguageTags.isValid(language)) {
                        throw new XapiException(path.format(), "language.invalid",
                                "language '" + language + "' is not an RFC 5646 language tag");
                    }
                }
                case "statement" -> statement = (StatementRef) objects.read(Expect.STATEMENT_REF);
                case "extensions" -> extensions = leaves.extensions();
                case "contextAgents" -> {
                    if (leaves.version() != XapiVersion.V2_0_0) {
                        throw in.unknown(prop, "a Context in xAPI 1.0.3");
                    }
                    contextAgents = typedEntries(AGENTS);
                }
                case "contextGroups" -> {
                    if (leaves.version() != XapiVersion.V2_0_0) {
                        throw in.unknown(prop, "a Context in xAPI 1.0.3");
                    }
                    contextGroups = typedEntries(GROUPS);
                }
                default -> throw in.unknown(prop, "a Context");
            }
            path.pop();
        }
        return new Context(registration, instructor, team, activities, revision, platform, language, statement,
                extensions, contextAgents, contextGroups);
    }

    private ContextActivities contextActivities() throws IOException {
        in.expectObject();
        List<Activity> parent = null, grouping = null, category = null, other = null;
        for (String prop; (prop = in.nextName()) != null; ) {
            path.pushName(prop);
            switch (prop) {
                case "parent" -> parent = activityList();
                case "grouping" -> grouping = activityList();
                case "category" -> category = activityList();
                case "other" -> other = activityList();
                default -> throw in.unknown(prop, "contextActivities");
            }
            path.pop();
        }
        return new ContextActivities(parent, grouping, category, other);
    }

    private List<Activity> activityList() throws IOException {
        if (in.token() == JsonToken.START_OBJECT) {
            // Data 2.4.6.2: the LRS returns a single object as an array of one; remember where it sits so that the
            // exact writer can add the brackets without re-serializing it.
            int start = in.tokenOffset();
            Activity single = (Activity) objects.read(Expect.ACTIVITY);
            if (wrapCount + 2 > wraps.length) {
                wraps = Arrays.copyOf(wraps, wraps.length * 2);
            }
            wraps[wrapCount++] = start;
            wraps[wrapCount++] = in.tokenOffset() + 1;
            return List.of(single);
        }
        in.expectArray();
        path.pushIndex(0);
        if (in.next() == JsonToken.END_ARRAY) {
            path.pop();
            return List.of();
        }
        Activity first = (Activity) objects.read(Expect.ACTIVITY);
        if (in.next() == JsonToken.END_ARRAY) {
            // The usual case, one activity per key: no ArrayList.
            path.pop();
            return List.of(first);
        }
        List<Activity> out = new ArrayList<>();
        out.add(first);
        do {
            path.setIndex(out.size());
            out.add((Activity) objects.read(Expect.ACTIVITY));
        } while (in.next() != JsonToken.END_ARRAY);
        path.pop();
        return Collections.unmodifiableList(out);
    }

    /** The array of typed entries of {@code kind}: each with its objectType, its actor and relevantTypes. */
    @SuppressWarnings("unchecked")
    private <A extends Actor, E> List<E> typedEntries(TypedEntries<A, E> kind) throws IOException {
        in.expectArray();
        List<E> out = new ArrayList<>();
        path.pushIndex(0);
        while (in.next() != JsonToken.END_ARRAY) {
            path.setIndex(out.size());
            in.expectObject();
            String objectType = null;
            A actor = null;
            List<String> types = null;
            for (String prop; (prop = in.nextName()) != null; ) {
                path.pushName(prop);
                if (prop.equals("objectType")) {
                    objectType = in.string();
                } else if (prop.equals(kind.actorProperty())) {
                    actor = (A) objects.read(kind.expect());
                } else if (prop.equals("relevantTypes")) {
                    types = leaves.iriArray();
                } else {
                    throw in.unknown(prop, kind.describe());
                }
                path.pop();
            }
            if (!kind.objectType().equals(objectType)) {
                throw new XapiException(path.format() + ".objectType", kind.code(),
                        kind.describe() + " must have objectType '" + kind.objectType() + "'");
            }
            in.requireProperty(actor, kind.actorProperty(), kind.describe());
            out.add(kind.make().apply(actor, types));
        }
        path.pop();
        return Collections.unmodifiableList(out);
    }
}
