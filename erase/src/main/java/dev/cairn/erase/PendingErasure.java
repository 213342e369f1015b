package dev.cairn.erase;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cairn.log.DirectorySync;
import dev.cairn.xapi.Ifi;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * The mark an erasure leaves in the log's directory from before it changes the log until the tables have been rebuilt
 * without what it erased: while it is there the tables may still hold erased data, so no process of a split deployment
 * starts on the data; {@code cairn serve} finishes the erasure before it serves anything, as the next
 * {@code cairn erase} does. The mark holds what the erasure erases and its id: an erasure whose log rewrite was cut
 * between two batches is planned again from the log, and must find the same people and give them the same
 * placeholder (the id names it) in what is left.
 */
public final class PendingErasure {
    public static final String FILE = "erasure.pending";
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * An erasure that began and did not finish: its id, what it erases, and the last log position it covers (one
     * beside a running ingest leaves what was appended after it begun alone; {@link Long#MAX_VALUE}: the whole log).
     */
    public record Interrupted(String erasureId, ErasurePlan.Request request, long upTo) {
    }

    private PendingErasure() {
    }

    public static boolean exists(Path logDir) {
        return Files.exists(logDir.resolve(FILE));
    }

    /** Refuses to start a process of a split deployment on data whose erasure was interrupted. */
    public static void refuseToStart(Path logDir) {
        if (exists(logDir)) {
            throw new IllegalStateException("an erasure of this data was interrupted (" + logDir.resolve(FILE)
                    + "): its tables may still hold what it erased. Stop every Cairn process on this data and run "
                    + "'cairn erase' to finish it, then start");
        }
    }

    /**
     * Sets the mark with what erasure {@code erasureId} erases in the entries up to {@code upTo}, synced, before the
     * erasure changes anything.
     */
    public static void mark(Path logDir, String erasureId, ErasurePlan.Request request, long upTo) {
        try (FileChannel ch = FileChannel.open(logDir.resolve(FILE), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
            ByteBuffer bytes = ByteBuffer.wrap(encode(new Interrupted(erasureId, request, upTo)));
            while (bytes.hasRemaining()) {
                ch.write(bytes);
            }
            ch.force(true);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot mark the erasure as begun: " + e.getMessage(), e);
        }
        DirectorySync.sync(logDir);
    }

    /**
     * The erasure the mark says was interrupted; empty when there is no mark, or an empty one (releases before this
     * one wrote it empty: the erasure is then finished with what the run that finishes it asks).
     */
    public static Optional<Interrupted> read(Path logDir) {
        Path file = logDir.resolve(FILE);
        try {
            if (!Files.exists(file) || Files.size(file) == 0) {
                return Optional.empty();
            }
            return Optional.of(decode(Files.readAllBytes(file)));
        } catch (IOException | IllegalArgumentException e) {
            throw new IllegalStateException("the mark of an interrupted erasure (" + file + ") does not read: "
                    + e.getMessage() + "; it was written synced before the erasure began, so the disk damaged it", e);
        }
    }

    /** The JSON of erasure {@code erasureId} of {@code request}, as an erasure request keeps it until it has run. */
    public static byte[] encode(String erasureId, ErasurePlan.Request request) {
        return encode(new Interrupted(erasureId, request, Long.MAX_VALUE));
    }

    /** The JSON of an erasure: its id, what it erases and up to where (the mark's, and an erasure request's). */
    private static byte[] encode(Interrupted erasure) {
        ObjectNode json = JSON.createObjectNode().put("erasure", erasure.erasureId()).put("upTo", erasure.upTo());
        ArrayNode people = json.putArray("people");
        for (Ifi ifi : erasure.request().people()) {
            people.addObject().put("kind", ifi.kind().name()).put("value", ifi.value())
                    .put("accountName", ifi.accountName());
        }
        ArrayNode ids = json.putArray("statementIds");
        erasure.request().statementIds().forEach(id -> ids.add(id.toString()));
        if (erasure.request().storedBeforeMillis() != null) {
            json.put("storedBefore", erasure.request().storedBeforeMillis());
        }
        try {
            return JSON.writeValueAsBytes(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @throws IOException or IllegalArgumentException when {@code bytes} are not what {@link #encode} wrote */
    static Interrupted decode(byte[] bytes) throws IOException {
        JsonNode json = JSON.readTree(bytes);
        List<Ifi> people = new ArrayList<>();
        for (JsonNode p : json.path("people")) {
            people.add(new Ifi(Ifi.Kind.valueOf(p.path("kind").asText()), p.path("value").asText(),
                    p.path("accountName").isNull() ? null : p.path("accountName").asText()));
        }
        Set<UUID> ids = new LinkedHashSet<>();
        for (JsonNode id : json.path("statementIds")) {
            ids.add(UUID.fromString(id.asText()));
        }
        Long before = json.hasNonNull("storedBefore") ? json.get("storedBefore").asLong() : null;
        return new Interrupted(json.path("erasure").asText(), new ErasurePlan.Request(people, ids, before),
                json.path("upTo").asLong(Long.MAX_VALUE));
    }

    /** Takes the mark away once the tables are rebuilt. */
    public static void clear(Path logDir) {
        try {
            Files.deleteIfExists(logDir.resolve(FILE));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot mark the erasure as finished: " + e.getMessage(), e);
        }
        DirectorySync.sync(logDir);
    }
}
