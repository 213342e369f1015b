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

/**
 * What a statement an erasure removes leaves in its place in the log (docs/erasure.md): the activity definitions it
 * gave. An activity's canonical definition is merged from every statement that defines it, in log order, each newer
 * value over the older ones, and is the activity's, not a learner's; a removed statement that left no trace would make
 * a replay merge another definition than the tables held, and finding it again from the statements left would read
 * every statement of a popular activity. Nothing else of the statement is kept: its id, actor, verb, result, context
 * and the names it gave agents go with it.
 *
 * <p>Its bytes: a format byte (1), then the count of definitions, then the activity id and the definition JSON of
 * each, both as a length (int32) and UTF-8.
 */
public record StatementResidue(List<ActivityDefinitions.Defined> definitions) {
    private static final byte FORMAT = 1;

    /** What {@code s} leaves when removed. */
    public static StatementResidue of(Statement s) {
        return new StatementResidue(ActivityDefinitions.of(s));
    }

    public boolean isEmpty() {
        return definitions.isEmpty();
    }

    public byte[] encode() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(FORMAT);
            out.writeInt(definitions.size());
            for (ActivityDefinitions.Defined d : definitions) {
                put(out, d.activityId().getBytes(StandardCharsets.UTF_8));
                put(out, DefinitionWriter.write(d.definition()));
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
            if (in.readByte() != FORMAT) {
                throw new IllegalArgumentException("a statement residue of an unknown format");
            }
            int count = count(in, bytes.length);
            List<ActivityDefinitions.Defined> definitions = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                String id = string(in, bytes.length);
                definitions.add(new ActivityDefinitions.Defined(id,
                        StatementParser.parseActivityDefinition(get(in, bytes.length))));
            }
            if (in.available() > 0) {
                throw new IllegalArgumentException("a statement residue with " + in.available() + " bytes too many");
            }
            return new StatementResidue(definitions);
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
