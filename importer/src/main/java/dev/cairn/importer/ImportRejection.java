package dev.cairn.importer;

/**
 * A statement the import did not store, and why.
 *
 * @param source   the file or endpoint
 * @param position where in the source ("line 12", "statement 5 (line 3)")
 * @param where    the JSON path inside the statement ({@code $.actor.mbox}), or what else the reason concerns
 * @param message  the reason
 */
record ImportRejection(String source, String position, String where, String message) {
    @Override
    public String toString() {
        return source + " " + position + ", " + where + ": " + message;
    }
}
