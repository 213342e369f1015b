package dev.cairn.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.cairn.log.DocumentWritten;
import dev.cairn.log.EventLog;
import dev.cairn.log.LogEntry;
import dev.cairn.log.LogTailer;
import dev.cairn.log.StatementsStored;
import dev.cairn.log.chronicle.ChronicleLog;
import dev.cairn.store.Database;
import dev.cairn.store.KnownState;
import dev.cairn.store.TestDatabase;
import dev.cairn.xapi.DocumentKey;
import dev.cairn.xapi.StatementParser;
import dev.cairn.xapi.XapiVersion;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One request's failure inside the sequencer fails that request alone: the other writes of its ring batch are
 * stored once and answered, on a real log whose entries are small enough for one request to overflow them.
 */
class SequencerIsolationTest {
    private static final byte[] AUTHORITY = "{\"objectType\":\"Agent\",\"mbox\":\"mailto:lrs@example.com\"}"
            .getBytes(StandardCharsets.UTF_8);

    @TempDir
    Path dir;

    static List<String> dialects() {
        return TestDatabase.dialects().toList();
    }

    private static WriteCommand.Statements statement(UUID id, int padding) {
        String json = "{\"id\":\"" + id + "\",\"actor\":{\"mbox\":\"mailto:a@example.com\"},"
                + "\"verb\":{\"id\":\"http://example.com/v\"},\"object\":{\"id\":\"http://example.com/a\","
                + "\"definition\":{\"description\":{\"en\":\"" + "x".repeat(padding) + "\"}}}}";
        return new WriteCommand.Statements(StatementParser.parseBatch(("[" + json + "]").getBytes(StandardCharsets.UTF_8),
                XapiVersion.V2_0_0), List.of(), null, AUTHORITY, "authority-key", true, false, XapiVersion.V2_0_0,
                new CompletableFuture<>());
    }

    private static WriteCommand.Document document(String id, int size) {
        return new WriteCommand.Document(WriteCommand.Operation.PUT, new DocumentKey(DocumentKey.Kind.ACTIVITY_PROFILE,
                "http://example.com/a", "", "", id), false, "application/octet-stream", new byte[size],
                Preconditions.of(null, "*"), WriteCommand.PutRule.ANY, new CompletableFuture<>());
    }

    @ParameterizedTest
    @MethodSource("dialects")
    void aWriteTooLargeForTheLogIsRefusedAloneAndTheRestOfItsBatchIsStoredOnce(String dialect) throws Exception {
        try (TestDatabase database = TestDatabase.create(dialect, dir); Database db = Database.open(database.url());
             EventLog log = ChronicleLog.open(dir.resolve("log"), 1 << 20)) {
            int tooLarge = (int) log.maxEntryBytes();
            UUID before = UUID.randomUUID();
            UUID after = UUID.randomUUID();
            List<WriteCommand> batch = List.of(statement(before, 10), statement(UUID.randomUUID(), tooLarge),
                    document("small", 100), document("large", tooLarge), statement(after, 10));
            Sequencer sequencer = new Sequencer(log, new KnownState(db), Clock.systemUTC(), () -> { },
                    new SimpleMeterRegistry());
            sequencer.onStart();
            try {
                for (int i = 0; i < batch.size(); i++) {
                    RingSlot slot = new RingSlot();
                    slot.command = batch.get(i);
                    sequencer.onEvent(slot, i, i == batch.size() - 1); // one ring batch
                }
            } finally {
                sequencer.onShutdown();
            }

            List<WriteOutcome> outcomes = new ArrayList<>();
            for (WriteCommand c : batch) {
                outcomes.add(c.outcome().getNow(null));
            }
            assertEquals(List.of(before), assertInstanceOf(WriteOutcome.Accepted.class, outcomes.get(0)).ids());
            assertEquals(413, assertInstanceOf(WriteOutcome.Refused.class, outcomes.get(1)).status());
            assertInstanceOf(WriteOutcome.Accepted.class, outcomes.get(2));
            assertEquals(413, assertInstanceOf(WriteOutcome.Refused.class, outcomes.get(3)).status());
            assertEquals(List.of(after), assertInstanceOf(WriteOutcome.Accepted.class, outcomes.get(4)).ids());

            try (LogTailer tailer = log.tailer(EventLog.START)) {
                LogEntry first = tailer.next();
                assertEquals(before, ((StatementsStored) first.event()).statements().get(0).id());
                assertEquals("small", ((DocumentWritten) tailer.next().event()).key().id());
                assertEquals(after, ((StatementsStored) tailer.next().event()).statements().get(0).id());
                assertNull(tailer.next(), "nothing of the refused writes is in the log");
            }
        }
    }
}
