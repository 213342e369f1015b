package dev.cairn.importer;

/**
 * The import cannot go on: the target refused the credential, the sequencer failed, a remote LRS cannot be
 * reached. What was acknowledged before stays stored, so running the same import again resumes it.
 */
final class ImportFailedException extends RuntimeException {
    ImportFailedException(String message) {
        super(message);
    }

    ImportFailedException(String message, Throwable cause) {
        super(message, cause);
    }
}
