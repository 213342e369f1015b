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

    /**
     * Refused and nothing changed: 409 (conflict), 412 (precondition failed), 400 (cannot merge), 413 (larger than
     * the log holds), 500 ({@link #NOT_STORED}) or 503 ({@link #STORE_UNAVAILABLE}, answered with Retry-After).
     */
    record Refused(int status, String code, String where, String message) implements WriteOutcome {
        /** A write that failed inside the server: nothing of it was stored, so the client may send it again. */
        static final Refused NOT_STORED = new Refused(500, "server.error", "server",
                "the write failed inside the server and was not stored; it is safe to send it again");
        /** The database the sequencer checks ids and documents against cannot be reached: nothing was stored. */
        static final Refused STORE_UNAVAILABLE = new Refused(503, "store.unavailable", "server",
                "the database cannot be reached, so the write was not stored; retry shortly");
    }
}
