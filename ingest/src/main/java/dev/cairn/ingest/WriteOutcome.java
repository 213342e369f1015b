package dev.cairn.ingest;

import java.util.List;
import java.util.UUID;

/** What the sequencer decided about a write: expected outcomes are values, not exceptions. */
public sealed interface WriteOutcome {
    /**
     * Done. {@code ids} are the statement ids in request order (empty for documents). {@code logIndex} is the
     * entry that holds the change, or -1 when nothing needed to change (an equivalent statement was stored).
     * {@code appended} is how many of the statements that entry holds (the others were stored already).
     */
    record Accepted(List<UUID> ids, long logIndex, int appended) implements WriteOutcome {
    }

    /** Refused and nothing changed: 409 (conflict), 412 (precondition failed) or 400 (cannot merge). */
    record Refused(int status, String code, String where, String message) implements WriteOutcome {
    }
}
