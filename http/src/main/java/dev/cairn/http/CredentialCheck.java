package dev.cairn.http;

import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import io.undertow.util.SameThreadExecutor;
import java.net.InetAddress;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
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
 *       together are not refused);</li>
 *   <li>at most {@link Limits#queue} verifications wait for a thread (503 with Retry-After past that), which also
 *       bounds the failures a client can have running before its bucket shows them.</li>
 * </ul>
 * A key and secret that verified before ({@link Authenticator#verifiedBefore}) are confirmed against the store on a
 * thread of their own, outside both bounds: confirming them derives nothing, so neither a client that knows only the
 * key nor guesses that fill the verification threads can refuse or slow their owner. Requests that present the same
 * key and secret while it is being verified or confirmed wait for that one check, so clients that start together with
 * one credential cost one key derivation and are not refused.
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
    /**
     * Confirms credentials verified before (a read of the store each): at most one per key and secret at a time, and
     * only their holders can ask for one, so the work is bounded by the verifications remembered.
     */
    private final ExecutorService confirmer;
    private final Map<PresentedCredential, CompletableFuture<Principal>> confirming = new ConcurrentHashMap<>();


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
        this.confirmer = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "cairn-credential-confirm");
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
        if (authenticator.verifiedBefore(key, secret)) {
            // Confirming it reads the stored credential and derives nothing: it neither waits for the derivations
            // nor counts against their bound, so guesses for other keys cannot refuse or slow its owner.
            CompletableFuture<Principal> confirmation = confirming.computeIfAbsent(PresentedCredential.of(key, secret),
                    attempt -> confirm(attempt, secret));
            continueWhen(exchange, confirmation, (ex, principal) -> {
                if (principal != null) {
                    then.accept(ex, principal);
                } else { // revoked, or created again: verify as any other credential is
                    derive(ex, key, secret, then);
                }
            });
            return;
        }
        derive(exchange, key, secret, then);
    }

    /** Decides by a key derivation on a verification thread, within the limits on failures and on waiting work. */
    private void derive(HttpServerExchange exchange, String key, String secret, Then then) {
        InetAddress client = exchange.getSourceAddress().getAddress();
        long now = nanoClock.getAsLong();
        long wait = Math.max(clients.waitFor(client, now), keys.waitFor(key, now));
        if (wait > 0) {
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
        continueWhen(exchange, running != null ? running : verification, then);
    }

    /** The exchange waits (dispatched, on no thread) until {@code decided}, then goes on on its I/O thread. */
    private static void continueWhen(HttpServerExchange exchange, CompletableFuture<Principal> decided, Then then) {
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

    /** Confirms a verification made before, on the confirming thread; requests meanwhile share its outcome. */
    private CompletableFuture<Principal> confirm(PresentedCredential attempt, String secret) {
        CompletableFuture<Principal> outcome = new CompletableFuture<>();
        try {
            confirmer.execute(() -> {
                try {
                    outcome.complete(authenticator.confirm(attempt.key(), secret).orElse(null));
                } catch (RuntimeException e) {
                    outcome.completeExceptionally(e);
                } finally {
                    confirming.remove(attempt, outcome);
                }
            });
        } catch (RejectedExecutionException e) { // closing
            outcome.completeExceptionally(e);
            confirming.remove(attempt, outcome);
        }
        return outcome;
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
        confirmer.shutdownNow();
    }
}
