package dev.cairn.importer;

import java.util.List;

/**
 * Statements read from one source, in source order, each as its own JSON object bytes.
 *
 * @param source     the file or endpoint they come from, as shown in messages
 * @param statements the raw statements
 */
record ImportBatch(ImportSource source, List<Raw> statements) {

    /**
     * One statement as read.
     *
     * @param json    the bytes of its JSON object, exactly as the source holds them
     * @param ordinal its 0-based position among the statements of the source
     * @param line    the 1-based line of the source where it starts, or 0 where lines mean nothing (a remote page)
     */
    record Raw(byte[] json, long ordinal, long line) {
    }
}
