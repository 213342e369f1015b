package dev.cairn.ingest;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The statements the sequencer appended that the projector may not have applied yet: with the store read at
 * watermark W, this overlay holds everything after W, so together they are everything the log holds.
 * Entries leave once the watermark passes their log index.
 */
final class StatementOverlay {
    private record Appended(long logIndex, List<UUID> ids) {
    }

    private final Map<UUID, byte[]> json = new HashMap<>();
    private final ArrayDeque<Appended> order = new ArrayDeque<>();

    void add(long logIndex, List<UUID> ids, List<byte[]> jsons) {
        for (int i = 0; i < ids.size(); i++) {
            json.put(ids.get(i), jsons.get(i));
        }
        order.addLast(new Appended(logIndex, ids));
    }

    byte[] get(UUID id) {
        return json.get(id);
    }

    /** Forgets what the store holds as of {@code watermarkIndex}. */
    void prune(long watermarkIndex) {
        while (!order.isEmpty() && order.peekFirst().logIndex() <= watermarkIndex) {
            for (UUID id : order.pollFirst().ids()) {
                json.remove(id);
            }
        }
    }

    int size() {
        return json.size();
    }
}
