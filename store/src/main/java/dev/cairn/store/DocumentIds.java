package dev.cairn.store;

import java.util.List;

/** The ids of the documents in one place, and when the most recently updated of them changed (0 if none). */
public record DocumentIds(List<String> ids, long lastUpdatedMillis) {
}
