package dev.cairn.importer;

import java.io.IOException;

/** Where imported statements come from: a file, or another LRS's statement API. */
interface ImportSource extends AutoCloseable {
    /** The file name or endpoint, as messages show it. */
    String name();

    /** Where a statement is in this source, for messages: "line 12", "statement 5 (line 3)", "page 2, statement 40". */
    String position(ImportBatch.Raw statement);

    /** Up to {@code max} next statements, or null at the end. */
    ImportBatch next(int max) throws IOException, ImportFileException;

    @Override
    void close() throws IOException;
}
