package dev.cairn.log;

import java.util.List;

/**
 * What {@code cairn log check} found, reading every entry from the log's start.
 *
 * @param entries        the entries read (void ones included)
 * @param voided         of them, entries an earlier repair voided
 * @param lastPosition   the position of the last entry, {@link EventLog#START} when the log is empty
 * @param syncedPosition the last synced position recorded, {@link Long#MAX_VALUE} when the log has none
 * @param damaged        bad entries at or before the synced position: never repaired, reported with their position
 * @param tornTail       entries of the torn tail, which the next writer (or {@code --truncate-torn-tail}) voids
 */
public record LogCheck(long entries, long voided, long lastPosition, long syncedPosition, List<String> damaged,
                       List<String> tornTail) {
    public boolean clean() {
        return damaged.isEmpty() && tornTail.isEmpty();
    }
}
