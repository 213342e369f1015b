package dev.cairn.store;

import dev.cairn.xapi.DocumentKey;
import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * What the sequencer reads of the store: the statements and documents already stored, each answer tied to the
 * watermark it was read at. {@link KnownState} reads them from the database; a test can hold them in memory.
 */
public interface StoredState {
    /** The stored JSON {@link #find} gives a statement an erasure took out: none, as the log's tombstone holds. */
    byte[] ERASED = new byte[0];

    /** Whether {@code json}, from {@link Snapshot#stored()}, is an erased statement's. */
    static boolean isErased(byte[] json) {
        return json.length == 0;
    }

    /**
     * The stored JSON of those {@code ids} that are stored ({@link #ERASED} for those an erasure took out) and the
     * documents at those {@code documents} keys that exist, as of {@link Snapshot#watermark()}.
     */
    Snapshot find(Collection<UUID> ids, Collection<DocumentKey> documents);

    /** The watermark as committed now. */
    Watermark watermark();

    /** Calls {@code each} with the id of every stored statement, voided and erased ones included. */
    void forEachStoredId(Consumer<UUID> each);

    /** The IFI keys of the people an erasure asked of a running Cairn is erasing now ({@link ErasureRequests}). */
    Set<String> agentsBeingErased();

    /** What the store held at one watermark. */
    record Snapshot(Watermark watermark, Map<UUID, byte[]> stored, Map<DocumentKey, StoredDocument> documents) {
    }
}
