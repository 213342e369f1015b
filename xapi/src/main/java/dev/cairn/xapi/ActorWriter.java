package dev.cairn.xapi;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/** Writes an Agent or Group as xAPI JSON (used for the authority the LRS adds). */
public final class ActorWriter {
    private static final JsonFactory FACTORY = new JsonFactory();

    private ActorWriter() {
    }

    public static byte[] write(Actor actor) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(128);
        try (JsonGenerator g = FACTORY.createGenerator(out)) {
            write(g, actor);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** Writes the one IFI property of an Agent or identified Group (Data 2.4.2.3). */
    static void writeIfi(JsonGenerator g, Ifi ifi) throws IOException {
        switch (ifi.kind()) {
            case MBOX -> g.writeStringField("mbox", ifi.value());
            case MBOX_SHA1SUM -> g.writeStringField("mbox_sha1sum", ifi.value());
            case OPENID -> g.writeStringField("openid", ifi.value());
            case ACCOUNT -> {
                g.writeObjectFieldStart("account");
                g.writeStringField("homePage", ifi.value());
                g.writeStringField("name", ifi.accountName());
                g.writeEndObject();
            }
        }
    }

    static void write(JsonGenerator g, Actor actor) throws IOException {
        g.writeStartObject();
        g.writeStringField("objectType", actor instanceof Group ? "Group" : "Agent");
        if (actor.name() != null) {
            g.writeStringField("name", actor.name());
        }
        if (actor.ifi() != null) {
            writeIfi(g, actor.ifi());
        }
        if (actor instanceof Group group && !group.members().isEmpty()) {
            g.writeArrayFieldStart("member");
            for (Agent member : group.members()) {
                write(g, member);
            }
            g.writeEndArray();
        }
        g.writeEndObject();
    }
}
