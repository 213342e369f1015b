package dev.cairn.xapi;

/**
 * A statement together with the bytes the client sent for it. {@code members} holds (start, end) offsets into
 * {@code source} of the top-level properties the LRS keeps verbatim: every property but {@code stored} and
 * {@code authority}, which the LRS always sets itself. {@link ExactWriter} builds the stored form from them
 * without re-serializing the client's JSON.
 */
public record ParsedStatement(Statement statement, byte[] source, int[] members) {
}
