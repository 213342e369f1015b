package dev.cairn.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The sequencer's memory of appended ids the store may not hold yet. */
class StatementOverlayTest {
    /** Log indexes as Chronicle makes them: the cycle in the high bits. */
    private static final long CYCLE = 20_000L << 32;

    @Test
    void everyIdAppendedIsFoundAtItsEntry() {
        StatementOverlay overlay = new StatementOverlay();
        List<UUID> all = new ArrayList<>();
        for (int entry = 0; entry < 100; entry++) {
            List<UUID> ids = new ArrayList<>();
            for (int i = 0; i < 2_000; i++) {
                // Random, sequential and mirrored ids: the table's hash must spread each kind.
                UUID id = switch (i % 3) {
                    case 0 -> UUID.randomUUID();
                    case 1 -> new UUID(0, entry * 2_000L + i);
                    default -> new UUID(entry * 2_000L + i, entry * 2_000L + i);
                };
                ids.add(id);
            }
            overlay.add(CYCLE + entry, ids);
            all.addAll(ids);
        }
        assertEquals(200_000, overlay.size());
        for (int i = 0; i < all.size(); i++) {
            assertEquals(CYCLE + i / 2_000, overlay.indexOf(all.get(i)), "id " + i);
        }
        assertEquals(-1, overlay.indexOf(UUID.randomUUID()));
        assertEquals(-1, overlay.indexOf(new UUID(0, 200_000)));
    }

    @Test
    void aSegmentLeavesOnceTheWatermarkPassesItsLastEntry() {
        StatementOverlay overlay = new StatementOverlay();
        int perEntry = StatementOverlay.SEGMENT_IDS / 4;
        List<List<UUID>> entries = new ArrayList<>();
        for (int entry = 0; entry < 6; entry++) { // a segment and a half
            List<UUID> ids = new ArrayList<>();
            for (int i = 0; i < perEntry; i++) {
                ids.add(UUID.randomUUID());
            }
            overlay.add(CYCLE + entry, ids);
            entries.add(ids);
        }
        overlay.prune(CYCLE + 2); // inside the first segment: it stays, and still answers
        assertEquals(6 * perEntry, overlay.size());
        assertEquals(CYCLE, overlay.indexOf(entries.get(0).get(0)));
        overlay.prune(CYCLE + 3); // past the first segment's last entry
        assertEquals(2 * perEntry, overlay.size());
        assertEquals(-1, overlay.indexOf(entries.get(3).get(perEntry - 1)));
        assertEquals(CYCLE + 5, overlay.indexOf(entries.get(5).get(0)));
        overlay.prune(CYCLE + 5);
        assertEquals(0, overlay.size());
        assertEquals(-1, overlay.indexOf(entries.get(5).get(0)));
    }

    @Test
    void anIdAppendedAgainAnswersWithItsNewestEntry() {
        StatementOverlay overlay = new StatementOverlay();
        UUID id = UUID.randomUUID();
        overlay.add(CYCLE + 1, List.of(id));
        overlay.add(CYCLE + 7, List.of(id));
        assertEquals(CYCLE + 7, overlay.indexOf(id));
        assertEquals(1, overlay.size());
    }
}
