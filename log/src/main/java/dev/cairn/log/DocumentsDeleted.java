package dev.cairn.log;

import dev.cairn.xapi.DocumentKey;

/**
 * Documents removed by DELETE. With {@code all} false, exactly the document at {@code key}; with {@code all}
 * true, every document of the key's resource, activity and agent (and of its registration when that is not
 * empty), whatever its id.
 */
public record DocumentsDeleted(DocumentKey key, boolean all, long updatedMillis) implements Event {

    /** Whether this deletion removes the document at {@code other}. */
    public boolean covers(DocumentKey other) {
        if (!all) {
            return key.equals(other);
        }
        return key.kind() == other.kind() && key.activityId().equals(other.activityId())
                && key.agent().equals(other.agent())
                && (key.registration().isEmpty() || key.registration().equals(other.registration()));
    }
}
