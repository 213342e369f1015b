package dev.cairn.ingest;

import java.util.List;
import java.util.UUID;

/** What the sequencer decided about a write: expected outcomes are values, not exceptions. */
public sealed interface WriteOutcome {
    /**
     * Stored (or already stored as an equivalent statement). {@code logIndex} is the entry that holds the new
     * statements, or -1 when every statement was already stored.
     */
    record Accepted(List<UUID> ids, long logIndex) implements WriteOutcome {
    }

    /** A statement id is already stored with different content (409). */
    record Conflict(UUID id, String message) implements WriteOutcome {
    }
}
