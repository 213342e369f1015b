package dev.cairn.forward;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.log.LogAppender;
import dev.cairn.log.StatementsStored;
import dev.cairn.log.StoredStatement;
import dev.cairn.log.chronicle.ChronicleLog;
import dev.cairn.store.Database;
import dev.cairn.store.DeadLetter;
import dev.cairn.store.ErasureStore;
import dev.cairn.store.ForwardStore;
import dev.cairn.store.ForwardTarget;
import dev.cairn.store.ForwardingLock;
import dev.cairn.store.TestDatabase;
import dev.cairn.xapi.XapiVersion;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Forwarding from a real log through a real database to a real HTTP receiver on loopback, on both dialects. */
class ForwardingTest {
    private static final String COMPLETED = "http://adlnet.gov/expapi/verbs/completed";
    private static final String ATTEMPTED = "http://adlnet.gov/expapi/verbs/attempted";
    private static final String SECRET = "a-webhook-secret-of-some-length";

    @TempDir
    Path tmp;

    private static StoredStatement statement(String verb) {
        return statement(verb, null);
    }

    /** A stored statement of {@code verb}, with a {@code version} property unless it is null. */
    private static StoredStatement statement(String verb, String version) {
        UUID id = UUID.randomUUID();
        String json = "{\"id\":\"" + id + "\",\"actor\":{\"mbox\":\"mailto:a@example.com\"},\"verb\":{\"id\":\"" + verb
                + "\"},\"object\":{\"id\":\"http://example.com/a\"}" + (version == null ? "" : ",\"version\":\""
                + version + "\"") + "}";
        return new StoredStatement(id, System.currentTimeMillis(), json.getBytes(StandardCharsets.UTF_8));
    }

    /** Appends {@code n} statements in entries of 1 to 3, and returns their ids in log order. */
    private static List<String> append(LogAppender appender, int n, String verb) {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < n; ) {
            List<StoredStatement> entry = new ArrayList<>();
            for (int k = 0; k < 1 + i % 3 && i < n; k++, i++) {
                StoredStatement s = statement(verb);
                entry.add(s);
                ids.add(s.id().toString());
            }
            appender.append(new StatementsStored(entry));
        }
        appender.sync();
        return ids;
    }

    private static ForwardTarget webhook(String url, String filter, int batch, Long from) {
        return new ForwardTarget("hook", Target.WEBHOOK, url, null, SECRET, filter, batch, 30, null, false, from);
    }

    private static void await(BooleanSupplier done, String what) throws InterruptedException {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within 30 s: " + what);
            }
            Thread.sleep(10);
        }
    }

    /** What a receiver computes to verify a signature, as the README tells it: HMAC-SHA256 of timestamp.body. */
    private static String receiversHmac(String signed) throws Exception {
        javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
        mac.init(new javax.crypto.spec.SecretKeySpec(SECRET.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        return java.util.HexFormat.of().formatHex(mac.doFinal(signed.getBytes(StandardCharsets.UTF_8)));
    }

    /** The body is one JSON value and nothing after it (read to its end by a strict parser). */
    private static void assertWholeJson(byte[] body) throws java.io.IOException {
        try (com.fasterxml.jackson.core.JsonParser p = new com.fasterxml.jackson.core.JsonFactory().createParser(body)) {
            assertEquals(com.fasterxml.jackson.core.JsonToken.START_OBJECT, p.nextToken());
            p.skipChildren();
            assertEquals(null, p.nextToken(), "nothing after the envelope: " + new String(body, StandardCharsets.UTF_8));
        }
    }

    /** Whether target "hook" runs and has no log entry left after its cursor. */
    private static boolean noLag(Forwarding f) {
        Forwarding.Lag lag = f.lag().get("hook");
        return lag != null && lag.entries() == 0;
    }

    /** The erasures of {@code db}, and the pending-erasure mark an erasure sets in the log's directory meanwhile. */
    private ErasureWatch erasures(Database db) {
        ErasureStore store = new ErasureStore(db);
        return new ErasureWatch() {
            @Override
            public long erasures() {
                return store.count();
            }

            @Override
            public boolean erasing() {
                return java.nio.file.Files.exists(tmp.resolve("log").resolve("erasure.pending"));
            }
        };
    }

    /** What an erasure does to the entry at {@code position}: {@code erased} becomes a tombstone; it is recorded. */
    private static void erase(ChronicleLog log, Database db, long position, StoredStatement erased,
                              StoredStatement kept) {
        log.rewrite(java.util.Map.of(position, new StatementsStored(List.of(StoredStatement.erased(erased.id(),
                erased.storedMillis(), null), kept))));
        new ErasureStore(db).record(new ErasureStore.Erasure(0, System.currentTimeMillis(), "a test", 1, 0, 0, 1, 0,
                0), "0000abcd");
    }

    private Forwarding forwarding(ChronicleLog log, Database db) {
        Forwarding f = new Forwarding(log, new ForwardStore(db), ForwardingLock.of(db), XapiVersion.V2_0_0,
                new SimpleMeterRegistry(), erasures(db));
        f.start();
        return f;
    }

    /**
     * A batch read before an erasure and not yet delivered (its target was down) is not delivered after it: the
     * forwarder reads its entries again, as the erasure rewrote them, and the erased statement never arrives.
     */
    @ParameterizedTest
    @MethodSource("dev.cairn.store.TestDatabase#dialects")
    void aBatchReadBeforeAnErasureIsReadAgainAfterIt(String dialect) throws Exception {
        try (TestDatabase tdb = TestDatabase.create(dialect, tmp); Database db = Database.open(tdb.url());
             ChronicleLog log = ChronicleLog.open(tmp.resolve("log")); LogAppender appender = log.appender();
             WebhookReceiver receiver = new WebhookReceiver(503, 503, 503)) {
            new ForwardStore(db).insert(webhook(receiver.url(), "", 10, -1L));
            StoredStatement erased = statement(COMPLETED);
            StoredStatement kept = statement(COMPLETED);
            long position = appender.append(new StatementsStored(List.of(erased, kept)));
            appender.sync();
            try (Forwarding f = forwarding(log, db)) {
                await(() -> !receiver.received().isEmpty(), "a first attempt, refused with 503");
                erase(log, db, position, erased, kept);
                await(() -> !receiver.delivered().isEmpty(), "delivered once the target is back");
                assertEquals(List.of(kept.id().toString()), receiver.delivered());
            }
        }
    }

    /**
     * A batch the target refuses while an erasure came meanwhile (it answered slowly) is not parked as a dead letter,
     * which would keep the erased statement: it is read again, and what the erasure left is sent.
     */
    @ParameterizedTest
    @MethodSource("dev.cairn.store.TestDatabase#dialects")
    void aBatchRefusedAfterAnErasureCameIsReadAgainNotParked(String dialect) throws Exception {
        try (TestDatabase tdb = TestDatabase.create(dialect, tmp); Database db = Database.open(tdb.url());
             ChronicleLog log = ChronicleLog.open(tmp.resolve("log")); LogAppender appender = log.appender();
             WebhookReceiver receiver = new WebhookReceiver(400)) {
            new ForwardStore(db).insert(webhook(receiver.url(), "", 10, -1L));
            StoredStatement erased = statement(COMPLETED);
            StoredStatement kept = statement(COMPLETED);
            long position = appender.append(new StatementsStored(List.of(erased, kept)));
            appender.sync();
            receiver.hold();
            try (Forwarding f = forwarding(log, db)) {
                await(() -> !receiver.received().isEmpty(), "the batch on its way");
                erase(log, db, position, erased, kept);
                receiver.release();
                await(() -> !receiver.delivered().isEmpty(), "what the erasure left, delivered");
                assertEquals(List.of(kept.id().toString()), receiver.delivered());
                assertEquals(List.of(), new ForwardStore(db).deadLetters("hook"), "nothing parked");
            }
        }
    }

    @ParameterizedTest
    @MethodSource("dev.cairn.store.TestDatabase#dialects")
    void everyStatementArrivesOnceInLogOrderSignedWithTheSecret(String dialect) throws Exception {
        try (TestDatabase tdb = TestDatabase.create(dialect, tmp); Database db = Database.open(tdb.url());
             ChronicleLog log = ChronicleLog.open(tmp.resolve("log")); LogAppender appender = log.appender();
             WebhookReceiver receiver = new WebhookReceiver()) {
            new ForwardStore(db).insert(webhook(receiver.url(), "", 7, null));
            try (Forwarding f = forwarding(log, db)) {
                await(() -> new ForwardStore(db).find("hook").orElseThrow().logPosition() != null, "started");
                List<String> ids = append(appender, 50, COMPLETED);
                await(() -> receiver.delivered().size() >= 50, "50 delivered");
                assertEquals(ids, receiver.delivered());
                for (WebhookReceiver.Received r : receiver.received()) {
                    assertTrue(r.ids().size() <= 7, "a batch holds at most 7: " + r.ids().size());
                    long signedAt = Long.parseLong(r.timestamp());
                    assertTrue(Math.abs(signedAt - System.currentTimeMillis() / 1000) < 120, "signed just now");
                    assertEquals("sha256=" + receiversHmac(r.timestamp() + "." + new String(r.body(),
                            StandardCharsets.UTF_8)), r.signature());
                    assertTrue(new String(r.body(), StandardCharsets.UTF_8).startsWith("{\"target\":\"hook\","));
                    assertWholeJson(r.body());
                }
                await(() -> noLag(f), "no lag");
            }
        }
    }

    @ParameterizedTest
    @MethodSource("dev.cairn.store.TestDatabase#dialects")
    void aNewTargetStartsAtTheLogsEnd(String dialect) throws Exception {
        try (TestDatabase tdb = TestDatabase.create(dialect, tmp); Database db = Database.open(tdb.url());
             ChronicleLog log = ChronicleLog.open(tmp.resolve("log")); LogAppender appender = log.appender();
             WebhookReceiver receiver = new WebhookReceiver()) {
            append(appender, 5, COMPLETED);
            new ForwardStore(db).insert(webhook(receiver.url(), "", 100, null));
            try (Forwarding f = forwarding(log, db)) {
                await(() -> new ForwardStore(db).find("hook").orElseThrow().logPosition() != null, "started");
                List<String> later = append(appender, 4, COMPLETED);
                await(() -> receiver.delivered().size() >= 4, "4 delivered");
                Thread.sleep(200);
                assertEquals(later, receiver.delivered());
            }
        }
    }

    @ParameterizedTest
    @MethodSource("dev.cairn.store.TestDatabase#dialects")
    void aSecondForwardingProcessStandsByAndTakesOverWhenTheFirstStops(String dialect) throws Exception {
        try (TestDatabase tdb = TestDatabase.create(dialect, tmp); Database db = Database.open(tdb.url());
             ChronicleLog log = ChronicleLog.open(tmp.resolve("log")); LogAppender appender = log.appender();
             WebhookReceiver receiver = new WebhookReceiver()) {
            new ForwardStore(db).insert(webhook(receiver.url(), "", 5, -1L));
            List<String> ids = new ArrayList<>();
            Forwarding first = forwarding(log, db);
            await(() -> first.lag().containsKey("hook"), "the first forwards");
            try (Forwarding second = forwarding(log, db)) {
                ids.addAll(append(appender, 30, COMPLETED));
                await(() -> receiver.delivered().size() >= 30, "30 delivered");
                Thread.sleep(2 * Forwarding.RECHECK_MILLIS);
                assertTrue(second.lag().isEmpty(), "the second stands by while the first forwards");
                first.close();
                ids.addAll(append(appender, 10, COMPLETED));
                await(() -> receiver.delivered().size() >= 40, "40 delivered after the first stopped");
                await(() -> noLag(second), "the second took over");
            } finally {
                first.close();
            }
            Thread.sleep(200);
            assertEquals(ids, receiver.delivered(), "each statement once, in log order");
        }
    }

    @ParameterizedTest
    @MethodSource("dev.cairn.store.TestDatabase#dialects")
    void aNewTargetStartsAfterTheLastSyncedEntryNotAfterOneACrashCouldTakeBack(String dialect) throws Exception {
        try (TestDatabase tdb = TestDatabase.create(dialect, tmp); Database db = Database.open(tdb.url());
             ChronicleLog log = ChronicleLog.open(tmp.resolve("log")); LogAppender appender = log.appender();
             WebhookReceiver receiver = new WebhookReceiver()) {
            append(appender, 3, COMPLETED);
            long synced = log.lastPosition();
            StoredStatement unsynced = statement(COMPLETED);
            appender.append(new StatementsStored(List.of(unsynced)));
            new ForwardStore(db).insert(webhook(receiver.url(), "", 100, null));
            try (Forwarding f = forwarding(log, db)) {
                await(() -> new ForwardStore(db).find("hook").orElseThrow().logPosition() != null, "started");
                assertEquals(synced, new ForwardStore(db).find("hook").orElseThrow().logPosition());
                appender.sync();
                await(() -> receiver.delivered().size() >= 1, "the entry synced after the start delivered");
                assertEquals(List.of(unsynced.id().toString()), receiver.delivered());
            }
        }
    }

    @ParameterizedTest
    @MethodSource("dev.cairn.store.TestDatabase#dialects")
    void aRefusedBatchIsDeadLetteredWithTheAnswerAndTheRestGoesOn(String dialect) throws Exception {
        try (TestDatabase tdb = TestDatabase.create(dialect, tmp); Database db = Database.open(tdb.url());
             ChronicleLog log = ChronicleLog.open(tmp.resolve("log")); LogAppender appender = log.appender();
             WebhookReceiver receiver = new WebhookReceiver(400)) {
            ForwardStore store = new ForwardStore(db);
            List<String> ids = append(appender, 12, COMPLETED);
            store.insert(webhook(receiver.url(), "", 5, -1L));
            try (Forwarding f = forwarding(log, db)) {
                await(() -> receiver.delivered().size() + 5 >= 12 && !store.deadLetters("hook").isEmpty(),
                        "the rest delivered");
            }
            List<DeadLetter> letters = store.deadLetters("hook");
            assertEquals(1, letters.size(), letters.toString());
            assertEquals(400, letters.get(0).status());
            assertEquals("{\"answer\":400}", letters.get(0).response());
            List<String> refused = receiver.received().get(0).ids();
            assertEquals(ids.subList(0, refused.size()), refused);
            assertEquals(letters.get(0).statements(), refused.size());
            assertEquals(ids.subList(refused.size(), ids.size()), receiver.delivered());
            assertEquals(new String(receiver.received().get(0).body(), StandardCharsets.UTF_8),
                    new String(store.deadLetter(letters.get(0).id()).orElseThrow().body(), StandardCharsets.UTF_8));
        }
    }

    @ParameterizedTest
    @MethodSource("dev.cairn.store.TestDatabase#dialects")
    void aRefusalsBodyIsKeptUpToItsBoundWhateverTheTargetSends(String dialect) throws Exception {
        try (TestDatabase tdb = TestDatabase.create(dialect, tmp); Database db = Database.open(tdb.url());
             ChronicleLog log = ChronicleLog.open(tmp.resolve("log")); LogAppender appender = log.appender();
             WebhookReceiver receiver = new WebhookReceiver(400).padded(8 << 20)) {
            ForwardStore store = new ForwardStore(db);
            append(appender, 3, COMPLETED);
            store.insert(webhook(receiver.url(), "", 10, -1L));
            try (Forwarding f = forwarding(log, db)) {
                await(() -> !store.deadLetters("hook").isEmpty(), "dead-lettered");
            }
            String response = store.deadLetters("hook").get(0).response();
            assertTrue(response.startsWith("{\"answer\":400,\"pad\":\"xxx"), response.substring(0, 40));
            assertEquals(Delivery.RESPONSE_CHARS + 1, response.length(), "2,000 bytes and an ellipsis");
        }
    }

    @ParameterizedTest
    @MethodSource("dev.cairn.store.TestDatabase#dialects")
    void aTargetThatIsDownIsRetriedAndCatchesUpInOrder(String dialect) throws Exception {
        try (TestDatabase tdb = TestDatabase.create(dialect, tmp); Database db = Database.open(tdb.url());
             ChronicleLog log = ChronicleLog.open(tmp.resolve("log")); LogAppender appender = log.appender();
             WebhookReceiver receiver = new WebhookReceiver(503, 401, 429, 302)) {
            List<String> ids = append(appender, 20, COMPLETED);
            new ForwardStore(db).insert(webhook(receiver.url(), "", 8, -1L));
            try (Forwarding f = forwarding(log, db)) {
                await(() -> receiver.delivered().size() >= 20, "20 delivered");
            }
            assertEquals(ids, receiver.delivered());
            assertEquals(List.of(503, 401, 429, 302), receiver.received().subList(0, 4).stream()
                    .map(WebhookReceiver.Received::status).toList());
            assertTrue(new ForwardStore(db).deadLetters("hook").isEmpty());
        }
    }

    @ParameterizedTest
    @MethodSource("dev.cairn.store.TestDatabase#dialects")
    void aFailingTargetShowsSinceWhenAndItsLastStatusUntilItWorksAgain(String dialect) throws Exception {
        try (TestDatabase tdb = TestDatabase.create(dialect, tmp); Database db = Database.open(tdb.url());
             ChronicleLog log = ChronicleLog.open(tmp.resolve("log")); LogAppender appender = log.appender();
             WebhookReceiver receiver = new WebhookReceiver(503, 503)) {
            append(appender, 3, COMPLETED);
            new ForwardStore(db).insert(webhook(receiver.url(), "", 8, -1L));
            long before = System.currentTimeMillis();
            try (Forwarding f = forwarding(log, db)) {
                await(() -> f.lag().containsKey("hook") && f.lag().get("hook").failingSinceMillis() != 0, "failing");
                Forwarding.Lag failing = f.lag().get("hook");
                assertEquals(503, failing.lastStatus());
                assertTrue(failing.failingSinceMillis() >= before, "since the first failed attempt");
                await(() -> receiver.delivered().size() >= 3, "3 delivered");
                await(() -> f.lag().get("hook").failingSinceMillis() == 0, "works again");
            }
        }
    }

    @ParameterizedTest
    @MethodSource("dev.cairn.store.TestDatabase#dialects")
    void retryingAllDeadLettersStopsAtTheFirstTheTargetDoesNotTakeNow(String dialect) throws Exception {
        try (TestDatabase tdb = TestDatabase.create(dialect, tmp); Database db = Database.open(tdb.url());
             WebhookReceiver receiver = new WebhookReceiver(200, 503)) {
            ForwardStore store = new ForwardStore(db);
            store.insert(new ForwardTarget("hook", Target.WEBHOOK, receiver.url(), null, SECRET, "", 5, 30, null, true, -1L));
            for (int i = 0; i < 3; i++) {
                store.deadLetter("hook", i, 1, ("{\"n\":" + i + "}").getBytes(StandardCharsets.UTF_8),
                        "application/json", 400, "no");
            }
            DeadLetterRetry.Summary s = DeadLetterRetry.retryAll(store, XapiVersion.V2_0_0, "hook", 100);
            assertEquals(1, s.delivered());
            assertTrue(s.stoppedAtNotTaken() && s.more(), s.message());
            assertEquals(2, receiver.received().size(), "the third was not sent to a target that is down");
            assertEquals(List.of("{\"n\":1}", "{\"n\":2}"), store.deadLetters("hook").stream()
                    .map(d -> new String(store.deadLetter(d.id()).orElseThrow().body(), StandardCharsets.UTF_8))
                    .toList());
        }
    }

    /** An LRS refuses a whole batch with 409 when it holds one of the ids with other content (xAPI batches are atomic). */
    @ParameterizedTest
    @MethodSource("dev.cairn.store.TestDatabase#dialects")
    void aConflictAtAnLrsParksTheBatchInsteadOfLosingIt(String dialect) throws Exception {
        try (TestDatabase tdb = TestDatabase.create(dialect, tmp); Database db = Database.open(tdb.url());
             ChronicleLog log = ChronicleLog.open(tmp.resolve("log")); LogAppender appender = log.appender();
             WebhookReceiver receiver = new WebhookReceiver(409)) {
            ForwardStore store = new ForwardStore(db);
            List<String> ids = append(appender, 6, COMPLETED);
            store.insert(new ForwardTarget("lrs", Target.LRS, receiver.url(), "key:secret", null, "", 3, 30, null, false,
                    -1L));
            try (Forwarding f = forwarding(log, db)) {
                await(() -> receiver.delivered().size() >= 3, "the second batch");
            }
            List<DeadLetter> letters = store.deadLetters("lrs");
            assertEquals(1, letters.size(), letters.toString());
            assertEquals(409, letters.get(0).status());
            assertEquals(ids.subList(0, 3), receiver.received().get(0).ids());
            assertEquals(ids.subList(3, 6), receiver.delivered());
            assertEquals("2.0.0", receiver.received().get(0).version());
        }
    }

    /**
     * A target that speaks 1.0.3 gets that version header and the 1.0.x statements only: xAPI forbids converting a 2.0
     * statement to a prior version, so those are passed over (and counted), never sent to fail its batch. A webhook
     * beside it gets every statement, on a server whose own version is 1.0.3 too.
     */
    @ParameterizedTest
    @MethodSource("dev.cairn.store.TestDatabase#dialects")
    void aTargetOf103GetsItsVersionHeaderAndOnlyThe10Statements(String dialect) throws Exception {
        try (TestDatabase tdb = TestDatabase.create(dialect, tmp); Database db = Database.open(tdb.url());
             ChronicleLog log = ChronicleLog.open(tmp.resolve("log")); LogAppender appender = log.appender();
             WebhookReceiver receiver = new WebhookReceiver(); WebhookReceiver hook = new WebhookReceiver()) {
            ForwardStore store = new ForwardStore(db);
            List<StoredStatement> entry = List.of(statement(COMPLETED, "1.0.0"), statement(COMPLETED, "2.0.0"),
                    statement(COMPLETED, "1.0.3"));
            appender.append(new StatementsStored(entry));
            appender.sync();
            store.insert(new ForwardTarget("old", Target.LRS, receiver.url(), "key:secret", null, "", 10, 30, "1.0.3",
                    false, -1L));
            store.insert(webhook(hook.url(), "", 10, -1L));
            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            try (Forwarding f = new Forwarding(log, store, ForwardingLock.of(db), XapiVersion.V1_0_3, registry,
                    erasures(db))) {
                f.start();
                await(() -> receiver.delivered().size() >= 2, "the two 1.0 statements");
                await(() -> hook.delivered().size() >= 3, "every statement to the webhook");
                await(() -> f.lag().get("old") != null && f.lag().get("old").entries() == 0, "the cursor past them");
                assertEquals(1.0, registry.get("cairn_forward_skipped").tag("target", "old").counter().count());
            }
            assertEquals(List.of(entry.get(0).id().toString(), entry.get(2).id().toString()), receiver.delivered());
            assertEquals("1.0.3", receiver.received().get(0).version());
            assertEquals(entry.stream().map(s -> s.id().toString()).toList(), hook.delivered());
        }
    }

    /** Removed and added again with another URL before the next recheck: the old URL gets nothing more. */
    @ParameterizedTest
    @MethodSource("dev.cairn.store.TestDatabase#dialects")
    void aTargetDefinedAgainRestartsWithItsNewDefinition(String dialect) throws Exception {
        try (TestDatabase tdb = TestDatabase.create(dialect, tmp); Database db = Database.open(tdb.url());
             ChronicleLog log = ChronicleLog.open(tmp.resolve("log")); LogAppender appender = log.appender();
             WebhookReceiver old = new WebhookReceiver(); WebhookReceiver moved = new WebhookReceiver()) {
            ForwardStore store = new ForwardStore(db);
            store.insert(webhook(old.url(), "", 5, -1L));
            try (Forwarding f = forwarding(log, db)) {
                List<String> first = append(appender, 4, COMPLETED);
                await(() -> old.delivered().size() >= 4, "the first four");
                store.delete("hook");
                store.insert(webhook(moved.url(), "", 5, null));
                await(() -> {
                    Forwarding.Lag lag = f.lag().get("hook"); // one look: the restart replaces the entry
                    return lag != null && lag.entries() == 0 && store.find("hook").orElseThrow().logPosition() != null;
                }, "restarted");
                Thread.sleep(1_200); // past a recheck
                List<String> later = append(appender, 4, COMPLETED);
                await(() -> moved.delivered().size() >= 4, "the later four, at the new URL");
                assertEquals(first, old.delivered());
                assertEquals(later, moved.delivered());
            }
        }
    }

    @ParameterizedTest
    @MethodSource("dev.cairn.store.TestDatabase#dialects")
    void theFilterForwardsExactlyTheStatementsItMatches(String dialect) throws Exception {
        try (TestDatabase tdb = TestDatabase.create(dialect, tmp); Database db = Database.open(tdb.url());
             ChronicleLog log = ChronicleLog.open(tmp.resolve("log")); LogAppender appender = log.appender();
             WebhookReceiver receiver = new WebhookReceiver()) {
            List<String> completed = new ArrayList<>();
            for (int round = 0; round < 4; round++) {
                completed.addAll(append(appender, 3, COMPLETED));
                append(appender, 2, ATTEMPTED);
            }
            new ForwardStore(db).insert(webhook(receiver.url(), "verb=" + COMPLETED, 100, -1L));
            try (Forwarding f = forwarding(log, db)) {
                await(() -> receiver.delivered().size() >= completed.size(), "the completed ones");
                await(() -> noLag(f), "past the rest");
            }
            assertEquals(completed, receiver.delivered());
        }
    }

    @ParameterizedTest
    @MethodSource("dev.cairn.store.TestDatabase#dialects")
    void aForwarderStoppedMidStreamResumesFromItsCursorLosingNothing(String dialect) throws Exception {
        try (TestDatabase tdb = TestDatabase.create(dialect, tmp); Database db = Database.open(tdb.url());
             ChronicleLog log = ChronicleLog.open(tmp.resolve("log")); LogAppender appender = log.appender();
             WebhookReceiver receiver = new WebhookReceiver()) {
            List<String> ids = new ArrayList<>(append(appender, 30, COMPLETED));
            new ForwardStore(db).insert(webhook(receiver.url(), "", 4, -1L));
            try (Forwarding f = forwarding(log, db)) {
                await(() -> receiver.delivered().size() >= 8, "some delivered");
            }
            ids.addAll(append(appender, 30, COMPLETED));
            try (Forwarding f = forwarding(log, db)) {
                await(() -> new LinkedHashSet<>(receiver.delivered()).size() >= 60, "all delivered");
            }
            List<String> distinct = new ArrayList<>(new LinkedHashSet<>(receiver.delivered()));
            assertEquals(ids, distinct, "every statement, in log order (a batch may come twice, never out of order)");
        }
    }
}
