package dev.cairn.http;

import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import io.undertow.util.SameThreadExecutor;
import java.net.InetAddress;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

/**
 * Decides who a request comes from without letting wrong secrets starve the server. A verification remembered by
 * the {@link Authenticator} is used on the I/O thread (a SHA-256 and a comparison). Any other is a key derivation of
 * ~100 ms, so it runs on a few threads of its own and the request continues afterwards on its I/O thread. The work
 * is bounded, and a request past a bound is refused without spending CPU:
 * <ul>
 *   <li>failed verifications per client address and per key take tokens from their buckets; while either bucket
 *       is empty, the request gets 429 with Retry-After (only failures count, so legitimate clients starting
 *       together are not refused), unless its key and secret verified before ({@link Authenticator#verifiedBefore}):
 *       confirming those derives nothing, so a client that knows only a key cannot lock out its owner;</li>
 *   <li>at most {@link Limits#queue} verifications wait for a thread (503 with Retry-After past that), which also
 *       bounds the failures a client can have running before its bucket shows them.</li>
 * </ul>
 * Requests that present the same key and secret while it is being verified wait for that one verification, so
 * clients that start together with one credential cost one key derivation and are not refused.
 */
public final class CredentialCheck implements AutoCloseable {
    /** What happens once the credentials are decided: {@code principal} is null when they are not valid. */
    public interface Then {
        void accept(HttpServerExchange exchange, Principal principal) throws Exception;
    }

    /**
     * @param threads      threads that verify secrets
     * @param queue        verifications that may wait for one of them
     * @param burst        failed verifications a client address, and a key, may have before it waits
     * @param refillMillis how often each of them regains one
     * @param identities   client addresses, and keys, remembered for their buckets (the least recent is forgotten)
     */
    public record Limits(int threads, int queue, int burst, long refillMillis, int identities) {
        /** Half the cores verify; a client or key may fail 10 times at once, then once a second. */
        public static Limits defaults() {
            return new Limits(Math.max(1, Runtime.getRuntime().availableProcessors() / 2), 32, 10, 1_000, 10_000);
        }
    }


    private final Authenticator authenticator;
    private final int maxPending;
    private final TokenBuckets<InetAddress> clients;
    private final TokenBuckets<String> keys;
    private final LongSupplier nanoClock;
    private final ThreadPoolExecutor verifiers;
    private final AtomicInteger pending = new AtomicInteger();
    private final Map<PresentedCredential, CompletableFuture<Principal>> inflight = new ConcurrentHashMap<>();


    public CredentialCheck(Authenticator authenticator, Limits limits, LongSupplier nanoClock) {
        this.authenticator = authenticator;
        this.maxPending = limits.threads() + limits.queue();
        long refill = TimeUnit.MILLISECONDS.toNanos(limits.refillMillis());
        this.clients = new TokenBuckets<>(limits.burst(), refill, limits.identities());
        this.keys = new TokenBuckets<>(limits.burst(), refill, limits.identities());
        this.nanoClock = nanoClock;
        AtomicInteger n = new AtomicInteger();
        // Admission is counted in pending, so the queue itself never holds more than maxPending.
        this.verifiers = new ThreadPoolExecutor(limits.threads(), limits.threads(), 0, TimeUnit.MILLISECONDS,
                new LinkedBlockingQueue<>(), r -> {
                    Thread t = new Thread(r, "cairn-verify-" + n.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
    }

    /** Decides {@code key} and {@code secret}, then runs {@code then} on the exchange's I/O thread. */
    void check(HttpServerExchange exchange, String key, String secret, Then then) throws Exception {
        Principal remembered = authenticator.remembered(key, secret);
        if (remembered != null) {
            then.accept(exchange, remembered);
            return;
        }
        InetAddress client = exchange.getSourceAddress().getAddress();
        long now = nanoClock.getAsLong();
        long wait = Math.max(clients.waitFor(client, now), keys.waitFor(key, now));
        // A secret verified before costs no derivation to confirm: others' failures for its key must not lock it out.
        if (wait > 0 && !authenticator.verifiedBefore(key, secret)) {
            refuse(exchange, 429, "auth.throttled", "too many failed verifications from this address or for this key",
                    TimeUnit.NANOSECONDS.toSeconds(wait - 1) + 1);
            return;
        }
        PresentedCredential attempt = PresentedCredential.of(key, secret);
        CompletableFuture<Principal> verification = new CompletableFuture<>();
        CompletableFuture<Principal> running = inflight.putIfAbsent(attempt, verification);
        if (running == null) {
            if (pending.incrementAndGet() > maxPending) {
                pending.decrementAndGet();
                inflight.remove(attempt, verification);
                refuse(exchange, 503, "auth.busy", "too many credentials are waiting to be verified", 1);
                return;
            }
            verifyLater(attempt, secret, client, verification);
        }
        // The exchange waits (dispatched, on no thread) until the verification it leads or joins is decided.
        CompletableFuture<Principal> decided = running != null ? running : verification;
        exchange.dispatch(SameThreadExecutor.INSTANCE, () -> decided.whenComplete((principal, error) ->
                exchange.dispatch(exchange.getIoThread(), ex -> {
                    if (error != null) { // the store's text (its URL, its driver) is not the client's business
                        refuse(ex, 503, "auth.unavailable", "the credentials cannot be checked now", 1);
                        return;
                    }
                    try {
                        then.accept(ex, principal);
                    } catch (Exception e) { // the rest of the chain, run here on its own dispatch
                        ErrorPolicy.fail(ex, e);
                    }
                })));
    }

    /** Verifies on a verification thread; requests with the same key and secret meanwhile wait for its outcome. */
    private void verifyLater(PresentedCredential attempt, String secret, InetAddress client,
                             CompletableFuture<Principal> outcome) {
        try {
            verifiers.execute(() -> {
                try {
                    Principal verified = authenticator.verify(attempt.key(), secret).orElse(null);
                    if (verified == null) {
                        long failedAt = nanoClock.getAsLong();
                        clients.take(client, failedAt);
                        keys.take(attempt.key(), failedAt);
                    }
                    finish(attempt, outcome, verified, null);
                } catch (RuntimeException e) {
                    finish(attempt, outcome, null, e);
                }
            });
        } catch (RejectedExecutionException e) { // closing
            finish(attempt, outcome, null, e);
        }
    }

    private void finish(PresentedCredential attempt, CompletableFuture<Principal> outcome, Principal verified,
                        RuntimeException e) {
        pending.decrementAndGet();
        inflight.remove(attempt, outcome);
        if (e != null) {
            outcome.completeExceptionally(e);
        } else {
            outcome.complete(verified);
        }
    }

    /** Verifications running or waiting for a thread (requests waiting for one of them not counted). */
    public int pending() {
        return pending.get();
    }

    private static void refuse(HttpServerExchange exchange, int status, String code, String message, long retrySeconds) {
        exchange.getResponseHeaders().put(Headers.RETRY_AFTER, Long.toString(retrySeconds));
        Responses.error(exchange, status, code, "header Authorization", message + "; retry in " + retrySeconds + " s");
    }

    @Override
    public void close() {
        verifiers.shutdownNow();
    }
}
