package dev.cairn.ingest;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The statements the sequencer appended that the projector may not have applied yet: with the store read at
 * watermark W, this overlay holds everything after W, so together they are everything the log holds.
 * It keeps only each id's log index (the statement itself is read back from the log on the rare id collision),
 * so a long import with no projector running costs little memory. Entries leave once the watermark passes them.
 */
final class StatementOverlay {
    private record Appended(long logIndex, List<UUID> ids) {
    }

    private final Map<UUID, Long> indexes = new HashMap<>();
    private final ArrayDeque<Appended> order = new ArrayDeque<>();

    void add(long logIndex, List<UUID> ids) {
        for (UUID id : ids) {
            indexes.put(id, logIndex);
        }
        order.addLast(new Appended(logIndex, ids));
    }

    /** The log index of the entry holding {@code id}, or -1 when the overlay does not know it. */
    long indexOf(UUID id) {
        Long index = indexes.get(id);
        return index == null ? -1 : index;
    }

    /** Forgets what the store holds as of {@code watermarkIndex}. */
    void prune(long watermarkIndex) {
        while (!order.isEmpty() && order.peekFirst().logIndex() <= watermarkIndex) {
            Appended a = order.pollFirst();
            for (UUID id : a.ids()) {
                indexes.remove(id, a.logIndex());
            }
        }
    }

    int size() {
        return indexes.size();
    }
}
