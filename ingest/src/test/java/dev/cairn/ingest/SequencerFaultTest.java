package dev.cairn.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.log.EventLog;
import dev.cairn.log.chronicle.ChronicleLog;
import dev.cairn.store.Database;
import dev.cairn.store.KnownState;
import dev.cairn.xapi.DocumentKey;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the sequencer does when something fails under it: the affected requests fail, the ring goes on. */
class SequencerFaultTest {
    @TempDir
    Path dir;

    private static WriteCommand.Document put(String id) {
        return new WriteCommand.Document(WriteCommand.Operation.PUT,
                new DocumentKey(DocumentKey.Kind.STATE, "http://example.com/a", "mbox:mailto:a@example.com", "", id),
                false, "application/json", "{}".getBytes(StandardCharsets.UTF_8), Preconditions.NONE,
                WriteCommand.PutRule.ANY, new CompletableFuture<>());
    }

    private WriteOutcome submit(IngestRing ring, WriteCommand c) throws Exception {
        assertTrue(ring.tryPublish(c));
        return c.outcome().get(10, TimeUnit.SECONDS);
    }

    /** An Error (a fault in the log's memory map is an InternalError) fails its batch's requests, not the ring. */
    @Test
    void anErrorFailsTheRequestsOfItsBatchAndTheNextBatchIsDecided() throws Exception {
        AtomicBoolean fault = new AtomicBoolean(true);
        Runnable afterSync = () -> {
            if (fault.getAndSet(false)) {
                throw new InternalError("a fault occurred in a recent unsafe memory access operation");
            }
        };
        try (EventLog log = ChronicleLog.open(dir.resolve("log")); Database db = Database.open("jdbc:sqlite:" + dir.resolve("db"));
             IngestRing ring = new IngestRing(new Sequencer(log, new KnownState(db), Clock.systemUTC(), afterSync,
                     new SimpleMeterRegistry()), 64)) {
            ExecutionException failed = assertThrows(ExecutionException.class, () -> submit(ring, put("first")));
            assertInstanceOf(InternalError.class, failed.getCause());
            assertInstanceOf(WriteOutcome.Accepted.class, submit(ring, put("second")));
        }
    }

    @Test
    void belowTheDiskReserveEveryWriteIsRefusedWith507AndNothingIsAppended() throws Exception {
        try (EventLog log = ChronicleLog.open(dir.resolve("log")); Database db = Database.open("jdbc:sqlite:" + dir.resolve("db"));
             IngestRing ring = new IngestRing(new Sequencer(log, new KnownState(db), Clock.systemUTC(), () -> { },
                     new SimpleMeterRegistry(), new DiskReserve(List.of(dir), Long.MAX_VALUE)), 64)) {
            WriteOutcome.Refused r = assertInstanceOf(WriteOutcome.Refused.class, submit(ring, put("x")));
            assertEquals(507, r.status());
            assertTrue(r.message().contains("reserve"), r.message());
            assertEquals(-1, log.lastPosition());
        }
    }
}
