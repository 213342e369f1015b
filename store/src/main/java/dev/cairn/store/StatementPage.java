package dev.cairn.store;

import java.util.List;

/** One page of statements in their exact stored form, and the cursor to continue from when there are more. */
public record StatementPage(List<byte[]> statements, boolean more, long lastSeq) {
}
