package dev.cairn.xapi;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * What a statement an erasure removes leaves in its place in the log (docs/erasure.md): the activity definitions it
 * gave and the names it gave agents: the erased people's taken out, and for a retention period those of agents it
 * leaves nothing else of. An activity's canonical definition is merged from every statement that defines it, in log
 * order, each newer value over the older ones, and is the activity's, not a learner's; a removed statement that left no
 * trace would make a replay merge another definition than the tables held, and finding it again from the statements
 * left would read every statement of a popular activity. An agent's names are a set that the tables cannot say which
 * statements gave, so a name kept with its statement's place lets an erasure change only the rows it touches and still
 * equal a replay. Nothing else of the statement is kept: its id, verb, result and context go with it.
 *
 * <p>Its bytes: a format byte, then the count of definitions, then the activity id and the definition JSON of each,
 * both as a length (int32) and UTF-8; in format 2 then the count of names and the IFI key and name of each, the same
 * way. Format 1, which has no names, is written when there are none.
 */
public record StatementResidue(List<ActivityDefinitions.Defined> definitions, List<AgentNames.Named> names) {
    private static final byte DEFINITIONS = 1;
    private static final byte DEFINITIONS_AND_NAMES = 2;

    /** What {@code s} leaves when removed: its definitions, and the names it gives the agents {@code keepsName} keeps. */
    public static StatementResidue of(Statement s, Predicate<String> keepsName) {
        List<AgentNames.Named> names = new ArrayList<>(2);
        for (AgentNames.Named n : AgentNames.of(s)) {
            if (keepsName.test(n.ifiKey())) {
                names.add(n);
            }
        }
        return new StatementResidue(ActivityDefinitions.of(s), names);
    }

    /** This residue without the names of the agents {@code drops} drops; itself when it names none of them. */
    public StatementResidue withoutNamesOf(Predicate<String> drops) {
        List<AgentNames.Named> kept = new ArrayList<>(names.size());
        for (AgentNames.Named n : names) {
            if (!drops.test(n.ifiKey())) {
                kept.add(n);
            }
        }
        return kept.size() == names.size() ? this : new StatementResidue(definitions, kept);
    }

    public boolean isEmpty() {
        return definitions.isEmpty() && names.isEmpty();
    }

    public byte[] encode() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(names.isEmpty() ? DEFINITIONS : DEFINITIONS_AND_NAMES);
            out.writeInt(definitions.size());
            for (ActivityDefinitions.Defined d : definitions) {
                put(out, d.activityId().getBytes(StandardCharsets.UTF_8));
                put(out, DefinitionWriter.write(d.definition()));
            }
            if (!names.isEmpty()) {
                out.writeInt(names.size());
                for (AgentNames.Named n : names) {
                    put(out, n.ifiKey().getBytes(StandardCharsets.UTF_8));
                    put(out, n.name().getBytes(StandardCharsets.UTF_8));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /**
     * The residue {@link #encode} wrote.
     *
     * @throws IllegalArgumentException when {@code bytes} are not one
     */
    public static StatementResidue decode(byte[] bytes) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
            byte format = in.readByte();
            if (format != DEFINITIONS && format != DEFINITIONS_AND_NAMES) {
                throw new IllegalArgumentException("a statement residue of an unknown format");
            }
            int count = count(in, bytes.length);
            List<ActivityDefinitions.Defined> definitions = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                String id = string(in, bytes.length);
                definitions.add(new ActivityDefinitions.Defined(id,
                        StatementParser.parseActivityDefinition(get(in, bytes.length))));
            }
            List<AgentNames.Named> names = new ArrayList<>();
            if (format == DEFINITIONS_AND_NAMES) {
                int n = count(in, bytes.length);
                for (int i = 0; i < n; i++) {
                    names.add(new AgentNames.Named(string(in, bytes.length), string(in, bytes.length)));
                }
            }
            if (in.available() > 0) {
                throw new IllegalArgumentException("a statement residue with " + in.available() + " bytes too many");
            }
            return new StatementResidue(definitions, names);
        } catch (IOException | XapiException e) {
            throw new IllegalArgumentException("a statement residue does not read: " + e.getMessage(), e);
        }
    }

    private static void put(DataOutputStream out, byte[] b) throws IOException {
        out.writeInt(b.length);
        out.write(b);
    }

    private static int count(DataInputStream in, int most) throws IOException {
        int n = in.readInt();
        if (n < 0 || n > most) {
            throw new IllegalArgumentException("a statement residue claims " + n + " items");
        }
        return n;
    }

    private static byte[] get(DataInputStream in, int most) throws IOException {
        byte[] b = new byte[count(in, most)];
        in.readFully(b);
        return b;
    }

    private static String string(DataInputStream in, int most) throws IOException {
        return new String(get(in, most), StandardCharsets.UTF_8);
    }
}
