package dev.cairn.log;

import java.util.List;

/**
 * What {@code cairn log check} found, reading every entry from the log's start.
 *
 * @param entries     the entries read (void ones included)
 * @param voided      of them, entries an earlier repair voided
 * @param syncedIndex the last synced position recorded, {@link Long#MAX_VALUE} when the log has none
 * @param damaged     bad entries at or before the synced position: never repaired, reported with their index
 * @param tornTail    entries of the torn tail, which the next writer (or {@code --truncate-torn-tail}) voids
 */
public record LogCheck(long entries, long voided, long lastIndex, long syncedIndex, List<String> damaged,
                       List<String> tornTail) {
    public boolean clean() {
        return damaged.isEmpty() && tornTail.isEmpty();
    }
}
