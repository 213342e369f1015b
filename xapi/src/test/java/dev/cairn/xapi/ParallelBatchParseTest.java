package dev.cairn.xapi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * A large POST body parsed on two threads gives exactly what the one-thread parse gives: the same statements (the
 * same stored form), and for a body it refuses the same error, wherever the fault lies.
 */
class ParallelBatchParseTest {
    private static final ExecutorService HELPER = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "parse-helper");
        t.setDaemon(true);
        return t;
    });

    @AfterAll
    static void stopHelper() {
        HELPER.shutdownNow();
    }

    /** Statement i of a batch: a few shapes (a single context activity object, a result, a sub-statement). */
    private static String statement(int i) {
        String id = new UUID(0x1234, i).toString();
        return switch (i % 3) {
            case 0 -> "{\"id\":\"" + id + "\",\"actor\":{\"mbox\":\"mailto:learner" + i + "@example.com\",\"name\":\"L "
                    + i + "\"},\"verb\":{\"id\":\"http://adlnet.gov/expapi/verbs/completed\",\"display\":{\"en-US\":"
                    + "\"completed\"}},\"object\":{\"id\":\"http://example.com/activities/" + i + "\"},\"context\":"
                    + "{\"contextActivities\":{\"parent\":{\"id\":\"http://example.com/course\"}}}}";
            case 1 -> "{\n  \"actor\": {\"account\": {\"homePage\": \"http://example.com\", \"name\": \"u" + i + "\"}},\n"
                    + "  \"verb\": {\"id\": \"http://adlnet.gov/expapi/verbs/scored\"},\n  \"object\": {\"id\": "
                    + "\"http://example.com/q/" + i + "\", \"definition\": {\"name\": {\"en\": \"Q\\u00e9 " + i
                    + "\"}}},\n  \"result\": {\"score\": {\"scaled\": 0." + (i % 10) + "}, \"success\": true}\n}";
            default -> "{\"actor\":{\"mbox_sha1sum\":\"" + "a".repeat(40) + "\"},\"verb\":{\"id\":"
                    + "\"http://example.com/v\"},\"object\":{\"objectType\":\"SubStatement\",\"actor\":{\"mbox\":"
                    + "\"mailto:x@example.com\"},\"verb\":{\"id\":\"http://example.com/w\"},\"object\":{\"id\":"
                    + "\"http://example.com/a/" + i + "\"}},\"timestamp\":\"2026-12-06T10:00:00.000Z\"}";
        };
    }

    private static byte[] batch(int n, int faultAt, String fault) {
        StringBuilder b = new StringBuilder(" [\n");
        for (int i = 0; i < n; i++) {
            b.append(i > 0 ? " ,\n" : "").append(i == faultAt ? fault : statement(i));
        }
        return b.append("\n] \n").toString().getBytes(StandardCharsets.UTF_8);
    }

    private static void assertSameStatements(List<ParsedStatement> expected, List<ParsedStatement> actual) {
        assertEquals(expected.size(), actual.size());
        byte[] authority = "{\"mbox\":\"mailto:lrs@example.com\"}".getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < expected.size(); i++) {
            assertEquals(expected.get(i).statement(), actual.get(i).statement(), "statement " + i);
            UUID id = new UUID(7, i);
            assertArrayEquals(ExactWriter.write(expected.get(i), id, "2026-12-06T10:00:00.000Z", authority, "2.0.0"),
                    ExactWriter.write(actual.get(i), id, "2026-12-06T10:00:00.000Z", authority, "2.0.0"),
                    "the stored form of statement " + i);
        }
    }

    private static void assertSameRefusal(byte[] body, Executor helper) {
        XapiException expected = assertThrows(XapiException.class,
                () -> StatementParser.parseBatch(body, XapiVersion.V2_0_0));
        XapiException actual = assertThrows(XapiException.class,
                () -> ParallelBatchParse.parseBatch(body, XapiVersion.V2_0_0, helper));
        assertEquals(expected.where(), actual.where());
        assertEquals(expected.code(), actual.code());
        assertEquals(expected.getMessage(), actual.getMessage());
    }

    /** Whatever the one-thread parse makes of {@code body}, statements or a refusal, the two-thread parse makes too. */
    private static void assertSameOutcome(byte[] body) {
        List<ParsedStatement> expected;
        try {
            expected = StatementParser.parseBatch(body, XapiVersion.V2_0_0);
        } catch (XapiException e) {
            assertSameRefusal(body, HELPER);
            return;
        }
        assertSameStatements(expected, ParallelBatchParse.parseBatch(body, XapiVersion.V2_0_0, HELPER));
    }

    @Test
    void aLargeBatchIsSplitAndGivesTheStatementsOfTheOneThreadParse() {
        byte[] body = batch(300, -1, null);
        assertTrue(body.length >= ParallelBatchParse.MIN_BYTES);
        AtomicInteger helped = new AtomicInteger();
        List<ParsedStatement> parsed = ParallelBatchParse.parseBatch(body, XapiVersion.V2_0_0, r -> {
            helped.incrementAndGet();
            HELPER.execute(r);
        });
        assertEquals(1, helped.get(), "the second half went to the helper");
        assertSameStatements(StatementParser.parseBatch(body, XapiVersion.V2_0_0), parsed);
    }

    @Test
    void aHelperThatNeverRunsLeavesTheWholeToTheRequestsThread() {
        byte[] body = batch(300, -1, null);
        List<Runnable> neverRun = new java.util.ArrayList<>();
        assertSameStatements(StatementParser.parseBatch(body, XapiVersion.V2_0_0),
                ParallelBatchParse.parseBatch(body, XapiVersion.V2_0_0, neverRun::add));
        assertEquals(1, neverRun.size());
    }

    /**
     * A helper task still queued when the request is done (the helper busy with other requests) keeps no body alive:
     * a flood of large POSTs would otherwise hold bodies in memory past their requests, until the helper got to them.
     */
    @Test
    void aHelperTaskLeftQueuedKeepsNoBodyAlive() throws InterruptedException {
        List<Runnable> queued = new java.util.ArrayList<>();
        byte[] body = batch(300, -1, null);
        java.lang.ref.WeakReference<byte[]> released = new java.lang.ref.WeakReference<>(body);
        assertEquals(300, ParallelBatchParse.parseBatch(body, XapiVersion.V2_0_0, queued::add).size());
        body = null;
        for (int i = 0; i < 50 && released.get() != null; i++) {
            System.gc();
            Thread.sleep(10);
        }
        assertEquals(1, queued.size());
        assertNull(released.get(), "the queued helper task keeps the body alive");
        queued.get(0).run(); // and finds nothing to do
    }

    @Test
    void aHelperThatRefusesWorkLeavesTheWholeToTheRequestsThread() {
        byte[] body = batch(300, -1, null);
        assertSameStatements(StatementParser.parseBatch(body, XapiVersion.V2_0_0),
                ParallelBatchParse.parseBatch(body, XapiVersion.V2_0_0, r -> {
                    throw new RejectedExecutionException("full");
                }));
    }

    @Test
    void aFaultInEitherHalfIsRefusedWithTheErrorOfTheOneThreadParse() {
        String badVerb = "{\"actor\":{\"mbox\":\"mailto:a@example.com\"},\"verb\":{\"id\":\"not an iri\"},"
                + "\"object\":{\"id\":\"http://example.com/a\"}}";
        for (int at : new int[] {0, 100, 149, 150, 299}) {
            assertSameRefusal(batch(300, at, badVerb), HELPER);
        }
        // Two faults: the one-thread parse names the first, and so does this.
        byte[] two = batch(300, 250, badVerb);
        String twice = new String(two, StandardCharsets.UTF_8).replace(statement(20), badVerb.replace("not an iri",
                "also not"));
        assertSameRefusal(twice.getBytes(StandardCharsets.UTF_8), HELPER);
    }

    @Test
    void aBodyThatIsNotAPlainArrayOfObjectsGetsWhatTheOneThreadParseGives() {
        String ok = new String(batch(300, -1, null), StandardCharsets.UTF_8).strip();
        String inner = ok.substring(1, ok.length() - 1);
        for (String body : List.of(ok + " x", ok + ok, "[" + inner + ",]", "[" + inner, "[" + inner + ",1]",
                "[" + inner.replaceFirst(" ,\n", " \n") + "]", "\uFEFF" + ok, "{\"a\":" + ok + "}",
                "[" + inner + ",\"\\u0000\"]", "[" + inner.replaceFirst("completed\"}", "compl\\u0000eted\"}") + "]")) {
            assertSameOutcome(body.getBytes(StandardCharsets.UTF_8));
        }
    }

    @Test
    void anElementAtTheNestingLimitOfTheWholeBodyIsLeftToTheOneThreadParse() {
        // Jackson's limit counts the array's level too: the element alone would parse, inside the array it does not.
        int limit = ParallelBatchParse.MAX_ELEMENT_DEPTH + 1;
        for (int depth : new int[] {limit - 2, limit - 1, limit}) {
            int arrays = depth - 3; // the statement, its result and its extensions object are three levels
            String deep = "{\"actor\":{\"mbox\":\"mailto:d@example.com\"},\"verb\":{\"id\":\"http://example.com/v\"},"
                    + "\"object\":{\"id\":\"http://example.com/a\"},\"result\":{\"extensions\":"
                    + "{\"http://example.com/x\":" + "[".repeat(arrays) + "]".repeat(arrays) + "}}}";
            byte[] body = batch(300, 7, deep);
            assertEquals(depth <= ParallelBatchParse.MAX_ELEMENT_DEPTH, ParallelBatchParse.elements(body) != null,
                    "depth " + depth);
            assertSameOutcome(body);
        }
    }

    @Test
    void anElementAtThePathDepthLimitGetsWhatTheOneThreadParseGives() {
        // The statement grammar refuses a path deeper than its own limit, and in a batch the array's index is one level.
        for (int levels = 55; levels <= 70; levels++) {
            String nested = "{\"a\":".repeat(levels) + "1" + "}".repeat(levels);
            String arrays = "[".repeat(levels) + "]".repeat(levels);
            for (String value : List.of(nested, arrays)) {
                String deep = "{\"actor\":{\"mbox\":\"mailto:d@example.com\"},\"verb\":{\"id\":"
                        + "\"http://example.com/v\"},\"object\":{\"id\":\"http://example.com/a\"},\"result\":"
                        + "{\"extensions\":{\"http://example.com/x\":" + value + "}}}";
                assertSameOutcome(batch(300, 7, deep));
            }
        }
    }

    @Test
    void theSplitFindsEveryElementOrNothing() {
        byte[] body = batch(5, -1, null);
        int[] bounds = ParallelBatchParse.elements(body);
        assertNotNull(bounds);
        assertEquals(10, bounds.length);
        for (int i = 0; i < 5; i++) {
            assertEquals(statement(i), new String(body, bounds[2 * i], bounds[2 * i + 1] - bounds[2 * i],
                    StandardCharsets.UTF_8));
        }
        assertNull(ParallelBatchParse.elements("[]".getBytes(StandardCharsets.UTF_8)));
        // Past the most elements split, the offsets are not gathered: the one-thread parse refuses "{}" at once.
        String many = "[" + "{},".repeat(ParallelBatchParse.MAX_ELEMENTS) + "{}]";
        assertNull(ParallelBatchParse.elements(many.getBytes(StandardCharsets.UTF_8)));
        assertNotNull(ParallelBatchParse.elements(many.replaceFirst("\\{},", "").getBytes(StandardCharsets.UTF_8)));
        assertNull(ParallelBatchParse.elements("{}".getBytes(StandardCharsets.UTF_8)));
        assertNull(ParallelBatchParse.elements("[{}".getBytes(StandardCharsets.UTF_8)));
        assertNull(ParallelBatchParse.elements("[{} {}]".getBytes(StandardCharsets.UTF_8)));
    }
}
