package dev.cairn.ops;

import dev.cairn.auth.AdminCredential;
import dev.cairn.auth.CredentialAuthenticator;
import dev.cairn.auth.KeyAndSecret;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.http.BasicAuthHandler;
import dev.cairn.http.CredentialCheck;
import dev.cairn.http.Responses;
import dev.cairn.store.CredentialStore;
import dev.cairn.store.Database;
import dev.cairn.store.TestDatabase;
import io.undertow.Undertow;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;
import org.xnio.XnioIoThread;

/**
 * Basic authentication at the edge, on each database: a real Undertow with {@link BasicAuthHandler} in front of a
 * handler that answers 200, real credentials in the store, and the real PBKDF2 observed as it runs (which thread,
 * how often). Requests go through raw sockets so a test can choose the client's address.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("dev.cairn.store.TestDatabase#dialects")
class AuthenticationEdgeTest {
    private static final String KEY = "edge-key";
    private static final String SECRET = "edge-secret-0123456789";
    private static final String OTHER_KEY = "other-key";
    private static final String OTHER_SECRET = "other-secret-0123456789";

    @Parameter
    String dialect;
    @TempDir
    Path dir;

    private TestDatabase database;
    private Database db;
    private CredentialAuthenticator authenticator;
    private CredentialCheck check;
    private Undertow server;
    private int port;
    /** The thread of every key derivation, in order. */
    private final Queue<Thread> derivations = new ConcurrentLinkedQueue<>();
    /** Whether the handler after authentication ever ran outside an I/O thread. */
    private final AtomicBoolean continuedOffIoThread = new AtomicBoolean();
    /** When set, derivations wait for it (to hold the verification threads busy). */
    private volatile CountDownLatch hold;
    /** Nanoseconds the test moves the authenticator's and the limits' clock on. */
    private final java.util.concurrent.atomic.AtomicLong later = new java.util.concurrent.atomic.AtomicLong();

    private void start(CredentialCheck.Limits limits) {
        database = TestDatabase.create(dialect, dir);
        db = Database.open(database.url());
        CredentialStore store = new CredentialStore(db);
        AdminCredential.ensure(store, new KeyAndSecret(KEY, SECRET));
        AdminCredential.ensure(store, new KeyAndSecret(OTHER_KEY, OTHER_SECRET));
        authenticator = new CredentialAuthenticator(store, this::nanoTime, (secret, salt, iterations) -> {
            derivations.add(Thread.currentThread());
            CountDownLatch h = hold;
            if (h != null) {
                try {
                    h.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return CredentialAuthenticator.pbkdf2(secret, salt, iterations);
        }, Executors.newSingleThreadExecutor());
        check = new CredentialCheck(authenticator, limits, this::nanoTime);
        server = Undertow.builder().addHttpListener(0, "127.0.0.1").setHandler(new BasicAuthHandler(check, ex -> {
            if (!(Thread.currentThread() instanceof XnioIoThread)) {
                continuedOffIoThread.set(true);
            }
            Responses.json(ex, 200, "{}".getBytes(StandardCharsets.UTF_8));
        })).build();
        server.start();
        port = ((InetSocketAddress) server.getListenerInfo().get(0).getAddress()).getPort();
    }

    private long nanoTime() {
        return System.nanoTime() + later.get();
    }

    @AfterEach
    void stop() {
        if (hold != null) {
            hold.countDown();
        }
        if (server != null) {
            server.stop();
        }
        if (check != null) {
            check.close();
        }
        if (authenticator != null) {
            authenticator.close();
        }
        if (db != null) {
            db.close();
        }
        if (database != null) {
            database.close();
        }
    }

    private record Answer(int status, String head, String body) {
    }

    /** One GET with these Basic credentials from {@code from}, on a connection of its own. */
    private Answer get(String from, String key, String secret) throws Exception {
        try (Socket s = new Socket(InetAddress.getByName("127.0.0.1"), port, InetAddress.getByName(from), 0)) {
            s.setSoTimeout(30_000);
            OutputStream out = s.getOutputStream();
            out.write(("GET / HTTP/1.1\r\nHost: cairn\r\nConnection: close\r\nAuthorization: "
                    + TestLrs.basic(key, secret) + "\r\n\r\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
            InputStream in = s.getInputStream();
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            in.transferTo(all);
            String text = all.toString(StandardCharsets.UTF_8);
            int split = text.indexOf("\r\n\r\n");
            return new Answer(Integer.parseInt(text.substring(9, 12)), text.substring(0, split), text.substring(split + 4));
        }
    }

    @Test
    void anUnknownKeyAndAWrongSecretBothCostOneKeyDerivationOffTheIoThreads() throws Exception {
        start(CredentialCheck.Limits.defaults());
        assertEquals(401, get("127.0.0.1", "no-such-key", SECRET).status());
        assertEquals(1, derivations.size(), "an unknown key derives like a known one");
        assertEquals(401, get("127.0.0.1", KEY, "wrong-secret-0123456789").status());
        assertEquals(2, derivations.size());
        assertEquals(200, get("127.0.0.1", KEY, SECRET).status());
        assertEquals(3, derivations.size());
        assertEquals(200, get("127.0.0.1", KEY, SECRET).status());
        assertEquals(3, derivations.size(), "a verified secret is remembered");
        for (Thread t : derivations) {
            assertFalse(t instanceof XnioIoThread, t.getName());
            assertTrue(t.getName().startsWith("cairn-verify-"), t.getName());
        }
        assertFalse(continuedOffIoThread.get(), "the chain continues on the exchange's I/O thread");
    }

    @Test
    void secretsWithControlCharactersAreRefusedWithoutADerivation() throws Exception {
        start(CredentialCheck.Limits.defaults());
        assertEquals(401, get("127.0.0.1", KEY, SECRET + "\0").status());
        assertEquals(401, get("127.0.0.1", KEY, SECRET + "\n").status());
        assertEquals(0, derivations.size());
        assertEquals(200, get("127.0.0.1", KEY, SECRET).status());
    }

    @Test
    void aBurstOfWrongSecretsGets429WhileARememberedCredentialKeepsGetting200() throws Exception {
        CredentialCheck.Limits limits = CredentialCheck.Limits.defaults();
        start(limits);
        assertEquals(200, get("127.0.0.1", KEY, SECRET).status());
        int before = derivations.size();
        long started = System.nanoTime();

        ExecutorService attackers = Executors.newFixedThreadPool(4);
        AtomicInteger throttled = new AtomicInteger();
        List<Future<?>> sent = new ArrayList<>();
        Queue<Answer> tooMany = new ConcurrentLinkedQueue<>();
        for (int i = 0; i < 4; i++) {
            int n = i;
            sent.add(attackers.submit(() -> {
                for (int j = 0; j < 25; j++) {
                    Answer a = get("127.0.0.1", KEY, "wrong-" + n + "-" + j + "-0123456789");
                    if (a.status() == 429) {
                        throttled.incrementAndGet();
                        tooMany.add(a);
                    } else {
                        assertEquals(401, a.status(), a.body());
                    }
                }
                return null;
            }));
        }
        int remembered = 0;
        while (sent.stream().anyMatch(f -> !f.isDone())) {
            assertEquals(200, get("127.0.0.1", KEY, SECRET).status());
            remembered++;
        }
        for (Future<?> f : sent) {
            f.get();
        }
        attackers.shutdown();
        // A bucket allows its burst, then one failure per refill interval; the 4 connections may each have one
        // running when it empties.
        long allowed = limits.burst() + 4 + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started) / limits.refillMillis();
        assertTrue(remembered > 0);
        assertTrue(derivations.size() - before <= allowed, (derivations.size() - before) + " derivations, " + allowed
                + " allowed");
        assertTrue(throttled.get() >= 100 - allowed, throttled + " of 100 throttled");
        Answer a = tooMany.peek();
        assertTrue(a.head().contains("Retry-After: "), a.head());
        assertEquals("auth.throttled", TestLrs.JSON.readTree(a.body()).get("error").asText(), a.body());
    }

    @Test
    void clientsVerifyingTheSameCredentialAtOnceShareOneDerivation() throws Exception {
        CredentialCheck.Limits limits = CredentialCheck.Limits.defaults();
        start(limits);
        int clients = limits.threads() + limits.queue() + limits.burst(); // more than may wait, more than may fail
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<Answer>> answers = new ArrayList<>();
        for (int i = 0; i < clients; i++) {
            answers.add(pool.submit(() -> {
                go.await();
                return get("127.0.0.1", KEY, SECRET);
            }));
        }
        go.countDown();
        for (Future<Answer> a : answers) {
            assertEquals(200, a.get(60, TimeUnit.SECONDS).status());
        }
        pool.shutdown();
        assertEquals(1, derivations.size());
    }

    @Test
    void aThrottledAddressDoesNotStopAnotherAddressFromVerifying() throws Exception {
        start(new CredentialCheck.Limits(1, 32, 3, 60_000, 100));
        for (int i = 0; i < 3; i++) {
            assertEquals(401, get("127.0.0.1", KEY, "wrong-" + i + "-0123456789").status());
        }
        assertEquals(429, get("127.0.0.1", OTHER_KEY, OTHER_SECRET).status(), "the address is out of attempts");
        assertEquals(200, get("127.0.0.2", OTHER_KEY, OTHER_SECRET).status(), "another address verifies");
        assertEquals(429, get("127.0.0.2", KEY, "wrong-4-0123456789").status(), "the key is out of attempts");
        assertEquals(200, get("127.0.0.1", OTHER_KEY, OTHER_SECRET).status(), "remembered: no attempt needed");
    }

    @Test
    void aCredentialVerifiedBeforeIsNotThrottledByAnotherClientsFailuresForItsKeyOnceItsRecheckIsDue()
            throws Exception {
        start(new CredentialCheck.Limits(1, 32, 3, 60_000, 100));
        assertEquals(200, get("127.0.0.1", KEY, SECRET).status());
        for (int i = 0; i < 3; i++) {
            assertEquals(401, get("127.0.0.2", KEY, "wrong-" + i + "-0123456789").status());
        }
        assertEquals(429, get("127.0.0.2", KEY, "wrong-4-0123456789").status(), "the key is out of attempts");
        later.addAndGet(TimeUnit.MILLISECONDS.toNanos(CredentialAuthenticator.RECHECK_MILLIS)); // an idle client's
        int before = derivations.size();
        assertEquals(200, get("127.0.0.1", KEY, SECRET).status(), "confirmed, not refused for another's failures");
        assertEquals(before, derivations.size(), "confirmed against the store without a derivation");
    }

    @Test
    void aFullVerificationQueueAnswers503WithRetryAfter() throws Exception {
        start(new CredentialCheck.Limits(1, 1, 100, 1_000, 100));
        hold = new CountDownLatch(1);
        ExecutorService clients = Executors.newFixedThreadPool(2);
        Future<Answer> running = clients.submit(() -> get("127.0.0.1", KEY, "wrong-1-0123456789"));
        awaitDerivations(1);
        Future<Answer> waiting = clients.submit(() -> get("127.0.0.1", KEY, SECRET));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (check.pending() < 2 && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        Answer busy = get("127.0.0.1", OTHER_KEY, OTHER_SECRET);
        assertEquals(503, busy.status(), busy.body());
        assertTrue(busy.head().contains("Retry-After: 1"), busy.head());
        assertEquals("auth.busy", TestLrs.JSON.readTree(busy.body()).get("error").asText());
        hold.countDown();
        assertEquals(401, running.get(30, TimeUnit.SECONDS).status());
        assertEquals(200, waiting.get(30, TimeUnit.SECONDS).status());
        clients.shutdown();
    }

    /**
     * README: a key and secret verified before are never limited, however long their client was idle (confirming
     * them derives nothing). Guesses from other addresses that fill the verification queue must not refuse or hold
     * such a client once its recheck is due (the invariant table's "authentication" rows show the same out of
     * process: 503 auth.busy).
     */
    @Test
    void aCredentialVerifiedBeforeIsConfirmedWhileGuessesFillTheVerificationQueue() throws Exception {
        start(new CredentialCheck.Limits(1, 1, 100, 1_000, 100));
        assertEquals(200, get("127.0.0.1", KEY, SECRET).status());
        hold = new CountDownLatch(1);
        ExecutorService guessers = Executors.newFixedThreadPool(2);
        Future<Answer> running = guessers.submit(() -> get("127.0.0.2", OTHER_KEY, "wrong-1-0123456789"));
        awaitDerivations(2);
        Future<Answer> waiting = guessers.submit(() -> get("127.0.0.3", OTHER_KEY, "wrong-2-0123456789"));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (check.pending() < 2 && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        later.addAndGet(TimeUnit.MILLISECONDS.toNanos(CredentialAuthenticator.RECHECK_MILLIS)); // idle past it
        try {
            Answer back = get("127.0.0.1", KEY, SECRET);
            assertEquals(200, back.status(), back.body());
            assertEquals(2, derivations.size(), "confirmed against the store without a derivation");
        } finally {
            hold.countDown();
            assertEquals(401, running.get(30, TimeUnit.SECONDS).status());
            assertEquals(401, waiting.get(30, TimeUnit.SECONDS).status());
            guessers.shutdown();
        }
    }

    @Test
    void credentialsThatCannotBeCheckedGet503AndARememberedOneStillWorks() throws Exception {
        start(CredentialCheck.Limits.defaults());
        assertEquals(200, get("127.0.0.1", KEY, SECRET).status());
        db.close(); // the store cannot be read any more
        Answer a = get("127.0.0.1", OTHER_KEY, OTHER_SECRET);
        assertEquals(503, a.status(), a.body());
        assertEquals("auth.unavailable", TestLrs.JSON.readTree(a.body()).get("error").asText());
        assertTrue(a.head().contains("Retry-After: 1"), a.head());
        assertFalse(a.body().contains("jdbc"), "the store's text stays in the server: " + a.body());
        assertEquals(200, get("127.0.0.1", KEY, SECRET).status(), "remembered within its recheck interval");
    }

    private void awaitDerivations(int n) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (derivations.size() < n && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertEquals(n, derivations.size());
    }
}
