package dev.cairn.xapi;

/**
 * A statement together with the bytes the client sent for it. {@code members} holds (start, end) offsets into
 * {@code source} of the top-level properties the LRS keeps verbatim: every property but {@code stored} and
 * {@code authority}, which the LRS always sets itself. {@code wraps} holds (start, end) offsets, in ascending
 * order, of the context activities the client sent as a single object, which the stored form returns as an
 * array of one (Data 2.4.6.2). {@link ExactWriter} builds the stored form from them without re-serializing the
 * client's JSON.
 */
public record ParsedStatement(Statement statement, byte[] source, int[] members, int[] wraps) {
    static final int[] NO_WRAPS = new int[0];

    /** A statement without single-object context activities. */
    public ParsedStatement(Statement statement, byte[] source, int[] members) {
        this(statement, source, members, NO_WRAPS);
    }
}
