package dev.cairn.importer;

import dev.cairn.xapi.ParsedStatement;
import java.util.List;
import java.util.UUID;

/**
 * Where validated batches go: the sequencer run in this process ({@link ImportRingSink}) or the running ingest's
 * statement API ({@link ImportHttpSink}). Either way the sequencer decides every statement, each batch is
 * all-or-nothing, and a batch counts only once it is durable in the log.
 */
sealed interface ImportSink extends AutoCloseable permits ImportRingSink, ImportHttpSink {
    /** Sends a batch without waiting; several may be in flight, and each is decided on its own. */
    Pending submit(List<ParsedStatement> statements);

    /** Whether {@link Outcome.Stored} tells new statements from already present ones (the HTTP API does not). */
    boolean countsPresent();

    /** How this sink reaches the log, for the terminal. */
    String describe();

    @Override
    void close();

    /** A submitted batch. */
    interface Pending {
        /** Waits for the decision, durable in the log when it is {@link Outcome.Stored}. */
        Outcome await() throws InterruptedException;
    }

    /** What became of a batch. Refusals name one statement; the rest of the batch is then submitted again. */
    sealed interface Outcome {
        /** Every statement is stored: {@code added} appended now, {@code present} stored before (equivalent). */
        record Stored(int added, int present) implements Outcome {
        }

        /** Nothing stored: the statement with {@code id} is already stored with different content. */
        record Conflict(UUID id, String message) implements Outcome {
        }

        /** Nothing stored: the statement at {@code index} of the batch is invalid for the target. */
        record Invalid(int index, String where, String message) implements Outcome {
        }
    }
}
