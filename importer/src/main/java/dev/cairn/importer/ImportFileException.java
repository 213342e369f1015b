package dev.cairn.importer;

/**
 * An import file that cannot be imported as a whole: malformed JSON, a truncated or invalid gzip stream, or a
 * shape that is neither a JSON array of statement objects nor NDJSON. Found by the structure check, before any
 * statement of the file is appended.
 */
final class ImportFileException extends Exception {
    ImportFileException(String file, String position, String message) {
        super(file + (position.isEmpty() ? "" : " " + position) + ": " + message, null, false, false);
    }
}
