package dev.cairn.xapi;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * The walk shared by the {@code ids} and {@code canonical} writers: it reads a stored statement's JSON token by
 * token, in step with the statement's model (which tells the type of each object without looking ahead), copies
 * every value it has no rule for, and hands agents, groups, verbs and activities to the subclass. Context
 * activities come out as arrays whatever the input holds (Data 2.4.6.2).
 */
abstract class FormatWriter {
    static final JsonFactory FACTORY = new JsonFactory();

    JsonParser p;
    JsonGenerator g;

    /** Writes the statement in {@code json[off, off + len)}, whose model is {@code s}. */
    final byte[] run(byte[] json, int off, int len, Statement s) {
        ByteArrayBuilder out = new ByteArrayBuilder(len + 64);
        try (JsonParser parser = FACTORY.createParser(json, off, len);
             JsonGenerator generator = FACTORY.createGenerator(out)) {
            p = parser;
            g = generator;
            p.nextToken();
            statement(s);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            p = null;
            g = null;
        }
        return out.toByteArray();
    }

    /** At the value of an actor, authority, instructor, team or group member: consume it and write it. */
    abstract void actor(Actor a) throws IOException;

    /** At the value of a verb. */
    abstract void verb(Verb v) throws IOException;

    /** At the value of an Activity (statement object or context activity). */
    abstract void activity(Activity a, boolean asObject) throws IOException;

    private void statement(Statement s) throws IOException {
        expect(JsonToken.START_OBJECT);
        statementBody(s.actor(), s.authority(), s.verb(), s.object(), s.context());
    }

    /** The properties of a statement or SubStatement (which has no authority); everything else is copied. */
    private void statementBody(Actor actor, Actor authority, Verb verb, StatementObject object, Context context)
            throws IOException {
        g.writeStartObject();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            g.writeFieldName(name);
            p.nextToken();
            switch (name) {
                case "actor" -> actor(present(actor, name));
                case "authority" -> actor(present(authority, name));
                case "verb" -> verb(present(verb, name));
                case "object" -> object(present(object, name));
                case "context" -> context(present(context, name));
                default -> copy();
            }
        }
        g.writeEndObject();
    }

    private void object(StatementObject o) throws IOException {
        if (o instanceof Activity a) {
            activity(a, true);
        } else if (o instanceof Actor a) {
            actor(a);
        } else if (o instanceof SubStatement sub) {
            statementBody(sub.actor(), null, sub.verb(), sub.object(), sub.context());
        } else {
            copy();
        }
    }

    private void context(Context c) throws IOException {
        expect(JsonToken.START_OBJECT);
        g.writeStartObject();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            g.writeFieldName(name);
            p.nextToken();
            switch (name) {
                case "instructor" -> actor(present(c.instructor(), name));
                case "team" -> actor(present(c.team(), name));
                case "contextActivities" -> contextActivities(present(c.contextActivities(), name));
                case "contextAgents" -> contextEntries(present(c.contextAgents(), name), "agent");
                case "contextGroups" -> contextEntries(present(c.contextGroups(), name), "group");
                default -> copy();
            }
        }
        g.writeEndObject();
    }

    private void contextActivities(ContextActivities ca) throws IOException {
        g.writeStartObject();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            g.writeFieldName(name);
            p.nextToken();
            List<Activity> list = present(switch (name) {
                case "parent" -> ca.parent();
                case "grouping" -> ca.grouping();
                case "category" -> ca.category();
                default -> ca.other();
            }, name);
            g.writeStartArray();
            if (p.currentToken() == JsonToken.START_OBJECT) {
                activity(list.get(0), false);
            } else {
                int i = 0;
                while (p.nextToken() != JsonToken.END_ARRAY) {
                    activity(list.get(i++), false);
                }
            }
            g.writeEndArray();
        }
        g.writeEndObject();
    }

    /** contextAgents / contextGroups (xAPI 2.0): the agent or group of each entry is an actor; the rest is copied. */
    private void contextEntries(List<?> entries, String actorProperty) throws IOException {
        expect(JsonToken.START_ARRAY);
        g.writeStartArray();
        int i = 0;
        while (p.nextToken() != JsonToken.END_ARRAY) {
            Object entry = entries.get(i++);
            Actor actor = entry instanceof ContextAgent ca ? ca.agent() : ((ContextGroup) entry).group();
            g.writeStartObject();
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                g.writeFieldName(name);
                p.nextToken();
                if (name.equals(actorProperty)) {
                    actor(actor);
                } else {
                    copy();
                }
            }
            g.writeEndObject();
        }
        g.writeEndArray();
    }

    /** Copies the current value; numbers keep their text, so no precision is lost. */
    final void copy() throws IOException {
        switch (p.currentToken()) {
            case START_OBJECT -> {
                g.writeStartObject();
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    g.writeFieldName(p.currentName());
                    p.nextToken();
                    copy();
                }
                g.writeEndObject();
            }
            case START_ARRAY -> {
                g.writeStartArray();
                while (p.nextToken() != JsonToken.END_ARRAY) {
                    copy();
                }
                g.writeEndArray();
            }
            case VALUE_STRING -> g.writeString(p.getTextCharacters(), p.getTextOffset(), p.getTextLength());
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> g.writeNumber(p.getText());
            case VALUE_TRUE -> g.writeBoolean(true);
            case VALUE_FALSE -> g.writeBoolean(false);
            case VALUE_NULL -> g.writeNull();
            default -> throw new IllegalArgumentException("unexpected " + p.currentToken() + " in a stored statement");
        }
    }

    /** Writes an Agent or Group as its identifying properties only; an anonymous Group keeps its members. */
    final void actorIds(Actor a) throws IOException {
        g.writeStartObject();
        g.writeStringField("objectType", a instanceof Group ? "Group" : "Agent");
        if (a.ifi() != null) {
            ActorWriter.writeIfi(g, a.ifi());
        } else {
            g.writeArrayFieldStart("member");
            for (Agent m : ((Group) a).members()) {
                actorIds(m);
            }
            g.writeEndArray();
        }
        g.writeEndObject();
    }

    private void expect(JsonToken t) {
        if (p.currentToken() != t) {
            throw new IllegalArgumentException("the JSON does not match the statement model: expected " + t
                    + " but found " + p.currentToken());
        }
    }

    private static <T> T present(T modelPart, String property) {
        if (modelPart == null) {
            throw new IllegalArgumentException("the statement model has no '" + property
                    + "' but the JSON does; pass the model parsed from the same bytes");
        }
        return modelPart;
    }
}
