package dev.cairn.ingest;

import dev.cairn.log.DocumentWritten;
import dev.cairn.log.DocumentsDeleted;
import dev.cairn.log.Event;
import dev.cairn.store.StoredDocument;
import dev.cairn.xapi.DocumentKey;
import java.util.ArrayList;
import java.util.List;

/**
 * The document events the sequencer appended that the projector may not have applied yet, newest last. Together
 * with the store read at watermark W they give the current state of every document. Entries leave once the
 * watermark passes them.
 */
final class DocumentOverlay {
    /** What the overlay knows of one document. */
    sealed interface Known {
    }

    record Present(StoredDocument document) implements Known {
    }

    record Deleted() implements Known {
    }

    private record Appended(long logIndex, Event event) {
    }

    private final List<Appended> events = new ArrayList<>();

    void add(long logIndex, Event event) {
        events.add(new Appended(logIndex, event));
    }

    /** The newest event that decides the document at {@code key}, or null when only the store knows it. */
    Known find(DocumentKey key) {
        for (int i = events.size() - 1; i >= 0; i--) {
            Event e = events.get(i).event();
            if (e instanceof DocumentWritten w && w.key().equals(key)) {
                return new Present(new StoredDocument(w.contentType(), w.content(), w.etag(), w.updatedMillis()));
            }
            if (e instanceof DocumentsDeleted d && d.covers(key)) {
                return new Deleted();
            }
        }
        return null;
    }

    void prune(long watermarkIndex) {
        events.removeIf(a -> a.logIndex() <= watermarkIndex);
    }
}
