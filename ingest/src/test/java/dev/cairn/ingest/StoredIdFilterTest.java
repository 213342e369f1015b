package dev.cairn.ingest;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The sequencer's filter of ids that may be stored: never wrong about an id it holds, rarely wrong about others. */
class StoredIdFilterTest {
    @Test
    void anIdAddedIsAlwaysReported() {
        StoredIdFilter filter = loaded();
        List<UUID> added = new ArrayList<>();
        for (int i = 0; i < 100_000; i++) {
            UUID id = i % 2 == 0 ? UUID.randomUUID()
                    : UUID.nameUUIDFromBytes(("statement " + i).getBytes(StandardCharsets.UTF_8));
            filter.add(id);
            added.add(id);
        }
        for (UUID id : added) {
            assertTrue(filter.mightContain(id), id.toString());
        }
    }

    @Test
    void freshIdsAreMostlyProvenAbsent() {
        StoredIdFilter filter = loaded();
        for (int i = 0; i < 1_000_000; i++) {
            filter.add(new UUID(0, i)); // sequential, far from random: the hash must still spread them
        }
        int falsePositives = falsePositivesOf100k(filter);
        assertTrue(falsePositives < 3_000, falsePositives + " of 100,000 fresh ids were not proven absent");
    }

    @Test
    void freshIdsStayMostlyProvenAbsentWhenItHoldsThreeTimesWhatItWasSizedFor() {
        StoredIdFilter filter = loaded(); // sized for 1M ids
        for (int i = 0; i < 3_000_000; i++) {
            filter.add(new UUID(1, i));
        }
        for (int i = 0; i < 3_000_000; i += 997) {
            assertTrue(filter.mightContain(new UUID(1, i)));
        }
        int falsePositives = falsePositivesOf100k(filter);
        // One filter of the first size would answer "maybe" for ~9% of fresh ids here, and for nearly all at 10M.
        assertTrue(falsePositives < 4_000, falsePositives + " of 100,000 fresh ids were not proven absent");
    }

    @Test
    void untilTheStoreIsLoadedEveryIdMayBeStored() {
        assertTrue(new StoredIdFilter(0).mightContain(UUID.randomUUID()));
    }

    @Test
    void onceLoadedAnIdNeverAddedIsAbsent() {
        assertFalse(loaded().mightContain(UUID.randomUUID()));
    }

    /** How many of 100,000 random ids, never added, the filter does not prove absent. */
    private static int falsePositivesOf100k(StoredIdFilter filter) {
        int falsePositives = 0;
        for (int i = 0; i < 100_000; i++) {
            if (filter.mightContain(UUID.randomUUID())) {
                falsePositives++;
            }
        }
        return falsePositives;
    }

    /** A filter of an empty store, loaded. */
    private static StoredIdFilter loaded() {
        StoredIdFilter filter = new StoredIdFilter(0);
        filter.markLoaded();
        return filter;
    }
}
