package dev.cairn.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.cairn.log.DocumentWritten;
import dev.cairn.log.EventLog;
import dev.cairn.log.LogAppender;
import dev.cairn.log.LogEntry;
import dev.cairn.log.LogTailer;
import dev.cairn.log.StatementsStored;
import dev.cairn.log.StoredStatement;
import dev.cairn.log.chronicle.ChronicleLog;
import dev.cairn.store.StoredDocument;
import dev.cairn.store.StoredState;
import dev.cairn.store.Watermark;
import dev.cairn.xapi.DocumentKey;
import dev.cairn.xapi.ExactWriter;
import dev.cairn.xapi.ParsedStatement;
import dev.cairn.xapi.StatementParser;
import dev.cairn.xapi.XapiVersion;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sequencer's decisions against what is stored (Data 2.4.1 ids, Comm 2.1.2 conflicts, Comm 3.1 concurrency,
 * Comm 2.2 document merges), the store being an in-memory view: each test writes into a fresh log and checks the
 * outcome and what was appended.
 */
class SequencerDecisionTest {
    private static final byte[] AUTHORITY = "{\"objectType\":\"Agent\",\"mbox\":\"mailto:lrs@example.com\"}"
            .getBytes(StandardCharsets.UTF_8);
    private static final DocumentKey KEY = new DocumentKey(DocumentKey.Kind.STATE, "http://example.com/a",
            "mbox:mailto:a@example.com", "", "bookmark");
    private static final String ETAG = "0123456789abcdef0123456789abcdef01234567";

    @TempDir
    Path dir;
    private final InMemoryState store = new InMemoryState();
    private EventLog log;
    private Sequencer sequencer;

    /** The store as the sequencer sees it: what a test puts here is stored, at the empty watermark. */
    private static final class InMemoryState implements StoredState {
        final Map<UUID, byte[]> statements = new HashMap<>();
        final Map<DocumentKey, StoredDocument> documents = new HashMap<>();
        final Set<String> erasing = new HashSet<>();
        Watermark watermark = Watermark.EMPTY;

        @Override
        public Snapshot find(Collection<UUID> ids, Collection<DocumentKey> keys) {
            Map<UUID, byte[]> found = new HashMap<>();
            ids.stream().filter(statements::containsKey).forEach(id -> found.put(id, statements.get(id)));
            Map<DocumentKey, StoredDocument> docs = new HashMap<>();
            keys.stream().filter(documents::containsKey).forEach(k -> docs.put(k, documents.get(k)));
            return new Snapshot(Watermark.EMPTY, found, docs);
        }

        @Override
        public Watermark watermark() {
            return watermark;
        }

        @Override
        public void forEachStoredId(Consumer<UUID> each) {
            statements.keySet().forEach(each);
        }

        @Override
        public Set<String> agentsBeingErased() {
            return erasing;
        }
    }

    @BeforeEach
    void open() {
        log = ChronicleLog.open(dir.resolve("log"));
    }

    @AfterEach
    void close() {
        if (sequencer != null) {
            sequencer.onShutdown();
        }
        log.close();
    }

    private static ParsedStatement parsed(UUID id, String verb) {
        String json = "{\"id\":\"" + id + "\",\"actor\":{\"mbox\":\"mailto:a@example.com\"},\"verb\":{\"id\":\"" + verb
                + "\"},\"object\":{\"id\":\"http://example.com/a\"}}";
        return StatementParser.parseOne(json.getBytes(StandardCharsets.UTF_8), XapiVersion.V2_0_0);
    }

    private static WriteCommand.Statements post(ParsedStatement... statements) {
        return new WriteCommand.Statements(List.of(statements), List.of(), null, AUTHORITY, "authority-key", true,
                false, XapiVersion.V2_0_0, new CompletableFuture<>());
    }

    private void stored(UUID id, String verb) {
        store.statements.put(id, ExactWriter.write(parsed(id, verb), id, "2024-05-01T10:00:00.000Z", AUTHORITY, "2.0.0"));
    }

    private static WriteCommand.Document document(WriteCommand.Operation operation, String contentType, String content,
                                                  Preconditions preconditions, WriteCommand.PutRule rule) {
        return new WriteCommand.Document(operation, KEY, false, contentType,
                content == null ? null : content.getBytes(StandardCharsets.UTF_8), preconditions, rule,
                new CompletableFuture<>());
    }

    private void storedDocument(String contentType, String content) {
        store.documents.put(KEY, new StoredDocument(contentType, content.getBytes(StandardCharsets.UTF_8), ETAG, 1));
    }

    /** Decides {@code commands} as one ring batch and returns their outcomes. */
    private List<WriteOutcome> decide(WriteCommand... commands) {
        if (sequencer == null) {
            sequencer = new Sequencer(log, store, Clock.systemUTC(), () -> { }, new SimpleMeterRegistry());
            sequencer.onStart();
        }
        for (int i = 0; i < commands.length; i++) {
            RingSlot slot = new RingSlot();
            slot.command = commands[i];
            sequencer.onEvent(slot, i, i == commands.length - 1);
        }
        List<WriteOutcome> outcomes = new ArrayList<>();
        for (WriteCommand c : commands) {
            outcomes.add(c.outcome().getNow(null));
        }
        return outcomes;
    }

    private static WriteOutcome.Refused refused(WriteOutcome o, int status, String code) {
        WriteOutcome.Refused r = assertInstanceOf(WriteOutcome.Refused.class, o);
        assertEquals(status, r.status(), r.message());
        assertEquals(code, r.code());
        return r;
    }

    private List<LogEntry> appended() {
        List<LogEntry> entries = new ArrayList<>();
        try (LogTailer tailer = log.tailer(-1)) {
            LogEntry e;
            while ((e = tailer.next()) != null) {
                entries.add(e);
            }
        }
        return entries;
    }

    @Test
    void aStatementWhoseIdIsStoredWithOtherContentIs409AndAppendsNothing() {
        UUID id = UUID.randomUUID();
        stored(id, "http://example.com/completed");
        refused(decide(post(parsed(id, "http://example.com/failed"))).get(0), 409, "statement.conflict");
        assertEquals(List.of(), appended());
    }

    @Test
    void anEquivalentStatementSentAgainIsAcceptedWithItsIdAndAppendsNothing() {
        UUID id = UUID.randomUUID();
        stored(id, "http://example.com/completed");
        WriteOutcome.Accepted a = assertInstanceOf(WriteOutcome.Accepted.class,
                decide(post(parsed(id, "http://example.com/completed"))).get(0));
        assertEquals(List.of(id), a.ids());
        assertEquals(-1, a.logIndex());
        assertEquals(List.of(), appended());
    }

    @Test
    void aRequestWithAStoredIdBesideNewOnesIsRefusedWhole() {
        UUID stored = UUID.randomUUID();
        stored(stored, "http://example.com/completed");
        refused(decide(post(parsed(UUID.randomUUID(), "http://example.com/v"), parsed(stored, "http://example.com/other")))
                .get(0), 409, "statement.conflict");
        assertEquals(List.of(), appended(), "the new statement of the refused request is not stored either");
    }

    @Test
    void anIdWrittenByAnEarlierRequestOfTheSameBatchConflictsWithOtherContent() {
        UUID id = UUID.randomUUID();
        List<WriteOutcome> outcomes = decide(post(parsed(id, "http://example.com/completed")),
                post(parsed(id, "http://example.com/failed")));
        assertInstanceOf(WriteOutcome.Accepted.class, outcomes.get(0));
        refused(outcomes.get(1), 409, "statement.conflict");
        assertEquals(1, appended().size());
    }

    @Test
    void anIdWrittenByAnEarlierRequestOfTheSameBatchIsANoOpWithTheSameContent() {
        UUID id = UUID.randomUUID();
        List<WriteOutcome> outcomes = decide(post(parsed(id, "http://example.com/completed")),
                post(parsed(id, "http://example.com/completed")));
        assertInstanceOf(WriteOutcome.Accepted.class, outcomes.get(0));
        assertEquals(-1, assertInstanceOf(WriteOutcome.Accepted.class, outcomes.get(1)).logIndex());
        assertEquals(1, appended().size());
    }

    @Test
    void aStatementWhoseIdWasErasedIs409ErasedAndAppendsNothing() {
        UUID id = UUID.randomUUID();
        store.statements.put(id, StoredState.ERASED);
        refused(decide(post(parsed(id, "http://example.com/completed"))).get(0), 409, "statement.erased");
        assertEquals(List.of(), appended());
    }

    @Test
    void anIdErasedInAnEntryNotProjectedYetIs409Erased() {
        UUID id = UUID.randomUUID();
        try (LogAppender a = log.appender()) {
            a.append(new StatementsStored(List.of(StoredStatement.erased(id, 1)), List.of(), true));
        }
        refused(decide(post(parsed(id, "http://example.com/completed"))).get(0), 409, "statement.erased");
        assertEquals(1, appended().size(), "only the erased entry");
    }

    @Test
    void voidingAnErasedStatementIsAcceptedWhateverTheAuthority() {
        UUID erased = UUID.randomUUID();
        store.statements.put(erased, StoredState.ERASED);
        String voiding = "{\"actor\":{\"mbox\":\"mailto:b@example.com\"},\"verb\":{\"id\":"
                + "\"http://adlnet.gov/expapi/verbs/voided\"},\"object\":{\"objectType\":\"StatementRef\",\"id\":\""
                + erased + "\"}}";
        assertInstanceOf(WriteOutcome.Accepted.class, decide(post(StatementParser.parseOne(
                voiding.getBytes(StandardCharsets.UTF_8), XapiVersion.V2_0_0))).get(0));
    }

    @Test
    void ifMatchWithAnotherEtagIs412() {
        storedDocument("application/json", "{}");
        refused(decide(document(WriteCommand.Operation.PUT, "application/json", "{}",
                Preconditions.of("\"ffff\"", null), WriteCommand.PutRule.ANY)).get(0), 412, "document.precondition_failed");
        assertEquals(List.of(), appended());
    }

    @Test
    void ifMatchWithoutADocumentIs412() {
        refused(decide(document(WriteCommand.Operation.PUT, "application/json", "{}",
                Preconditions.of("\"" + ETAG + "\"", null), WriteCommand.PutRule.ANY)).get(0), 412,
                "document.precondition_failed");
    }

    @Test
    void ifMatchWithTheCurrentEtagReplacesTheDocument() {
        storedDocument("application/json", "{}");
        assertInstanceOf(WriteOutcome.Accepted.class, decide(document(WriteCommand.Operation.PUT, "text/plain", "new",
                Preconditions.of("\"" + ETAG + "\"", null), WriteCommand.PutRule.CREATE_ONLY)).get(0));
        assertEquals("new", new String(((DocumentWritten) appended().get(0).event()).content(), StandardCharsets.UTF_8));
    }

    @Test
    void ifNoneMatchStarOnAnExistingDocumentIs412() {
        storedDocument("application/json", "{}");
        refused(decide(document(WriteCommand.Operation.PUT, "application/json", "{}", Preconditions.of(null, "*"),
                WriteCommand.PutRule.ANY)).get(0), 412, "document.precondition_failed");
    }

    @Test
    void aPutWithoutPreconditionOverAnExistingDocumentIs409WhereOnlyCreatingIsAllowed() {
        storedDocument("application/json", "{}");
        refused(decide(document(WriteCommand.Operation.PUT, "application/json", "{}", Preconditions.NONE,
                WriteCommand.PutRule.CREATE_ONLY)).get(0), 409, "document.conflict");
        assertEquals(List.of(), appended());
    }

    @Test
    void aPutWithoutPreconditionOverAnExistingStateIsStoredIn103() {
        storedDocument("application/json", "{}");
        assertInstanceOf(WriteOutcome.Accepted.class, decide(document(WriteCommand.Operation.PUT, "application/json",
                "{\"a\":1}", Preconditions.NONE, WriteCommand.PutRule.ANY)).get(0));
    }

    @Test
    void aProfilePutWithoutPreconditionIs400In103EvenWithoutADocument() {
        refused(decide(document(WriteCommand.Operation.PUT, "application/json", "{}", Preconditions.NONE,
                WriteCommand.PutRule.NONE)).get(0), 400, "document.precondition_required");
    }

    @Test
    void aPostMergesTheTopLevelPropertiesOfItsObjectIntoTheStoredOne() {
        storedDocument("application/json", "{\"a\":1,\"b\":{\"x\":1}}");
        assertInstanceOf(WriteOutcome.Accepted.class, decide(document(WriteCommand.Operation.POST,
                "application/json", "{\"b\":{\"y\":2},\"c\":3}", Preconditions.NONE, WriteCommand.PutRule.ANY)).get(0));
        DocumentWritten w = (DocumentWritten) appended().get(0).event();
        assertEquals("{\"a\":1,\"b\":{\"y\":2},\"c\":3}", new String(w.content(), StandardCharsets.UTF_8));
        assertEquals("application/json", w.contentType());
        assertEquals(Sha1.hex(w.content()), w.etag());
    }

    /**
     * Stored times never decrease along the log, across restarts too: a statement stored after a restart whose clock
     * is behind the last one projected gets that time, not an earlier one (a retention period's plan relies on it).
     */
    @Test
    void aStatementIsNeverStoredBeforeTheLastOneProjected() {
        long ahead = System.currentTimeMillis() + 3_600_000; // the clock of the last run, an hour ahead of this one
        store.watermark = new Watermark(-1, ahead, 0);
        decide(post(parsed(UUID.randomUUID(), "http://example.com/completed")));
        StatementsStored appended = (StatementsStored) appended().get(0).event();
        assertEquals(ahead, appended.statements().get(0).storedMillis());
    }

    /**
     * While an erasure of the document's agent runs, a POST would merge the content it takes out into a new entry
     * after it: it is held back with 503 (a PUT, which keeps nothing of what was stored, goes through).
     */
    @Test
    void aPostMergeIntoTheDocumentOfAnAgentBeingErasedIs503() {
        storedDocument("application/json", "{\"a\":1}");
        store.erasing.add(KEY.agent());
        refused(decide(document(WriteCommand.Operation.POST, "application/json", "{\"b\":2}", Preconditions.NONE,
                WriteCommand.PutRule.ANY)).get(0), 503, "document.erasing");
        assertEquals(List.of(), appended());
        assertInstanceOf(WriteOutcome.Accepted.class, decide(document(WriteCommand.Operation.PUT, "application/json",
                "{\"b\":2}", Preconditions.NONE, WriteCommand.PutRule.ANY)).get(0));
    }

    @Test
    void aPostOntoADocumentThatIsNotAJsonObjectIs400() {
        storedDocument("text/plain", "{\"a\":1}");
        refused(decide(document(WriteCommand.Operation.POST, "application/json", "{\"b\":2}", Preconditions.NONE,
                WriteCommand.PutRule.ANY)).get(0), 400, "document.merge");
        assertEquals(List.of(), appended());
    }

    @Test
    void aPostWithoutAStoredDocumentStoresWhatItSent() {
        assertInstanceOf(WriteOutcome.Accepted.class, decide(document(WriteCommand.Operation.POST, "text/plain", "hi",
                Preconditions.NONE, WriteCommand.PutRule.ANY)).get(0));
        assertEquals("hi", new String(((DocumentWritten) appended().get(0).event()).content(), StandardCharsets.UTF_8));
    }

    @Test
    void aPostAfterAPutOfTheSameBatchMergesIntoWhatThePutWrote() {
        List<WriteOutcome> outcomes = decide(document(WriteCommand.Operation.PUT, "application/json", "{\"a\":1}",
                Preconditions.NONE, WriteCommand.PutRule.ANY), document(WriteCommand.Operation.POST, "application/json",
                "{\"b\":2}", Preconditions.NONE, WriteCommand.PutRule.ANY));
        assertInstanceOf(WriteOutcome.Accepted.class, outcomes.get(1));
        assertEquals("{\"a\":1,\"b\":2}", new String(((DocumentWritten) appended().get(1).event()).content(),
                StandardCharsets.UTF_8));
    }

    @Test
    void aDeleteOfAMissingDocumentIsAcceptedAndAppendsNothing() {
        WriteOutcome.Accepted a = assertInstanceOf(WriteOutcome.Accepted.class, decide(document(
                WriteCommand.Operation.DELETE, null, null, Preconditions.NONE, WriteCommand.PutRule.ANY)).get(0));
        assertEquals(-1, a.logIndex());
        assertEquals(List.of(), appended());
    }
}
