package dev.cairn.xapi;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * Parses a large POST body of statements on two threads: the array is split between its elements by
 * {@link JsonObjectSyntax} (which checks the syntax without making tokens), a helper parses the second half while the
 * calling thread parses the first. A batch of 500 statements took a target of forwarding ~7 ms to parse on one thread,
 * a quarter of the time a forwarded batch took.
 *
 * <p>What it returns, or refuses, is exactly what {@link StatementParser#parseBatch} does: anything but a well-formed
 * array of objects, and any element that fails its parse, is handed to {@link StatementParser#parseBatch} whole, on
 * this thread, which returns the same statements or refuses the body with the error a client would get from it.
 */
public final class ParallelBatchParse {
    /** Smaller bodies (up to ~50 statements) are parsed on one thread: the hand-off would cost more than it saves. */
    static final int MIN_BYTES = 64 << 10;
    /**
     * The deepest element parsed on its own: in the array it lies one level deeper, and Jackson's nesting limit counts
     * that level, so a deeper one goes to the one-thread parse, which accepts or refuses it as it always did.
     */
    static final int MAX_ELEMENT_DEPTH = JsonObjectSyntax.MAX_DEPTH - 1;
    /**
     * The most elements split: the offsets take 8 bytes per element, so a body of 16 MiB of "{}," would otherwise hold
     * 40 MiB of them before the first element is parsed (and refused). A larger batch is parsed on one thread.
     */
    static final int MAX_ELEMENTS = 10_000;
    private static final ThreadLocal<JsonObjectSyntax> SYNTAX =
            ThreadLocal.withInitial(() -> new JsonObjectSyntax(MAX_ELEMENT_DEPTH));

    private ParallelBatchParse() {
    }

    /** Parses a POST body as {@link StatementParser#parseBatch} does, a large array on this thread and a helper. */
    public static List<ParsedStatement> parseBatch(byte[] body, XapiVersion version, Executor helper) {
        int[] bounds = body.length < MIN_BYTES ? null : elements(body);
        if (bounds == null || bounds.length < 4) {
            return StatementParser.parseBatch(body, version);
        }
        int count = bounds.length / 2;
        int half = count / 2;
        AtomicBoolean failed = new AtomicBoolean();
        // Whoever takes the second half parses it: a helper busy with another request's half leaves it to this thread.
        // This thread takes it or drops it before returning, so a helper task still queued then keeps no body alive.
        AtomicReference<Supplier<List<ParsedStatement>>> secondHalf =
                new AtomicReference<>(() -> parseEach(body, bounds, half, count, version, failed));
        CompletableFuture<List<ParsedStatement>> second = new CompletableFuture<>();
        try {
            helper.execute(() -> {
                Supplier<List<ParsedStatement>> work = secondHalf.getAndSet(null);
                if (work != null) {
                    try {
                        second.complete(work.get());
                    } catch (RuntimeException | Error e) {
                        failed.set(true);
                        second.completeExceptionally(e);
                    }
                }
            });
        } catch (RejectedExecutionException e) {
            // nothing will run it: left untaken, this thread parses it below
        }
        try {
            List<ParsedStatement> out = new ArrayList<>(count);
            out.addAll(parseEach(body, bounds, 0, half, version, failed));
            Supplier<List<ParsedStatement>> work = secondHalf.getAndSet(null);
            out.addAll(work != null ? work.get() : second.join());
            return out;
        } catch (XapiException | CompletionException e) {
            failed.set(true);
            return StatementParser.parseBatch(body, version); // refuses with the error of the first fault, as ever
        } finally {
            failed.set(true); // a helper still at work stops after its current element, whatever ended this
            secondHalf.set(null);
        }
    }

    /**
     * Parses elements {@code from} to {@code to}, or throws as soon as one of them fails or the other half has failed
     * (looked at between elements: a helper goes on to the end of the element it is in).
     */
    private static List<ParsedStatement> parseEach(byte[] body, int[] bounds, int from, int to, XapiVersion version,
                                                   AtomicBoolean failed) {
        List<ParsedStatement> out = new ArrayList<>(to - from);
        for (int i = from; i < to; i++) {
            if (failed.get()) {
                throw new XapiException("$", "batch.aborted", "the other half of the batch failed");
            }
            try {
                out.add(StatementParser.parseOne(Arrays.copyOfRange(body, bounds[2 * i], bounds[2 * i + 1]), version));
            } catch (XapiException e) {
                failed.set(true);
                throw e;
            }
        }
        return out;
    }

    /**
     * The (start, end) offsets of the elements of a body that is an array of at most {@link #MAX_ELEMENTS} well-formed
     * objects, none nested deeper than {@link #MAX_ELEMENT_DEPTH}, whitespace between tokens and nothing after it; null
     * for anything else.
     */
    static int[] elements(byte[] b) {
        JsonObjectSyntax syntax = SYNTAX.get();
        int i = skipWhitespace(b, 0);
        if (i == b.length || b[i] != '[') {
            return null;
        }
        int[] bounds = new int[64];
        int n = 0;
        while (true) {
            i = skipWhitespace(b, i + 1);
            int end = syntax.end(b, i, b.length);
            if (end < 0 || n == 2 * MAX_ELEMENTS) {
                return null;
            }
            if (n == bounds.length) {
                bounds = Arrays.copyOf(bounds, n * 2);
            }
            bounds[n++] = i;
            bounds[n++] = end;
            i = skipWhitespace(b, end);
            if (i == b.length) {
                return null;
            }
            if (b[i] == ']') {
                break;
            }
            if (b[i] != ',') {
                return null;
            }
        }
        return skipWhitespace(b, i + 1) == b.length ? Arrays.copyOf(bounds, n) : null;
    }

    private static int skipWhitespace(byte[] b, int i) {
        while (i < b.length && JsonObjectSyntax.isWhitespace(b[i])) {
            i++;
        }
        return i;
    }
}
