package dev.cairn.erase;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.xapi.Ifi;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The mark of an erasure under way keeps what it erases and its id, for the run that finishes it. */
class PendingErasureTest {
    @TempDir
    Path dir;

    @Test
    void theMarkReadsBackAsTheErasureThatSetIt() {
        ErasurePlan.Request request = new ErasurePlan.Request(List.of(new Ifi(Ifi.Kind.MBOX, "mailto:ada@example.com",
                null), new Ifi(Ifi.Kind.ACCOUNT, "https://lms.example.com", "4711 x")),
                Set.of(new UUID(1, 2)), 1_700_000_000_000L);
        PendingErasure.mark(dir, "0000abcd", request, 42L);
        assertTrue(PendingErasure.exists(dir));
        assertEquals(Optional.of(new PendingErasure.Interrupted("0000abcd", request, 42L)), PendingErasure.read(dir));
        PendingErasure.clear(dir);
        assertEquals(Optional.empty(), PendingErasure.read(dir));
    }

    @Test
    void anEmptyMarkOfAnEarlierReleaseIsPendingWithNothingToRemember() throws Exception {
        Files.createFile(dir.resolve(PendingErasure.FILE));
        assertTrue(PendingErasure.exists(dir));
        assertEquals(Optional.empty(), PendingErasure.read(dir));
    }

    @Test
    void aDamagedMarkIsRefusedWithItsPath() throws Exception {
        for (String damaged : new String[] {"{\"erasure\":\"x\",\"people\":[{\"kind\":\"NOSUCH\"}]}",
                "{\"statementIds\":[\"not-a-uuid\"]}", "{\"erasure\":"}) {
            Files.writeString(dir.resolve(PendingErasure.FILE), damaged);
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> PendingErasure.read(dir), damaged);
            assertTrue(e.getMessage().contains(PendingErasure.FILE), e.getMessage());
        }
    }
}
