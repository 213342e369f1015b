package dev.cairn.forward;

import dev.cairn.store.DeadLetter;
import dev.cairn.store.ForwardStore;
import dev.cairn.store.ForwardTarget;
import dev.cairn.xapi.XapiVersion;
import java.util.List;

/**
 * Sends dead letters to their target again, as they were first sent ({@code cairn targets retry}): one delivered is
 * dropped; one refused again keeps its new answer; one the target does not take now (no answer, 5xx) is left as it
 * was.
 */
public final class DeadLetterRetry {
    /** The most dead letters one {@link #retryAll} sends, and the longest it goes on sending them. */
    public static final int MAX_PER_CALL = 1_000;
    static final long MAX_CALL_MILLIS = 60_000;

    private DeadLetterRetry() {
    }

    /** What a retry did with one dead letter. */
    public enum Outcome { DELIVERED, REFUSED_AGAIN, NOT_TAKEN, UNKNOWN }

    /** What a retry did, for the operator. */
    public record Result(Outcome outcome, String message) {
        public boolean delivered() {
            return outcome == Outcome.DELIVERED;
        }
    }

    /** What {@link #retryAll} did: how many were delivered and refused again, and whether any are left to try. */
    public record Summary(int delivered, int refusedAgain, boolean stoppedAtNotTaken, boolean more, String message) {
    }

    public static Result retry(ForwardStore store, XapiVersion version, long id) throws InterruptedException {
        DeadLetter letter = store.deadLetter(id).orElse(null);
        if (letter == null) {
            return new Result(Outcome.UNKNOWN, "no dead letter " + id);
        }
        ForwardTarget stored = store.find(letter.target()).orElse(null);
        if (stored == null) {
            return new Result(Outcome.UNKNOWN, "dead letter " + id + " belongs to target " + letter.target()
                    + ", which no longer exists");
        }
        Target target = Target.check(stored, version);
        Delivery.Outcome o = new Delivery().post(target,
                new Delivery.Payload(letter.body(), letter.contentType()));
        switch (o.kind()) {
            case DELIVERED -> {
                store.dropDeadLetter(id);
                return new Result(Outcome.DELIVERED, "dead letter " + id + " (" + letter.statements()
                        + " statements) delivered to " + letter.target() + " (" + o.status() + ")");
            }
            case REFUSED -> {
                store.refusedAgain(id, o.status(), o.response());
                return new Result(Outcome.REFUSED_AGAIN, letter.target() + " refused dead letter " + id + " again with "
                        + o.status() + ": " + o.response());
            }
            default -> {
                return new Result(Outcome.NOT_TAKEN, letter.target() + " did not take dead letter " + id + " now ("
                        + (o.status() == 0 ? o.response() : o.status() + " " + o.response()) + "); it is kept");
            }
        }
    }

    /**
     * Sends up to {@code limit} (at most {@link #MAX_PER_CALL}) of a target's dead letters again, oldest first, for at
     * most {@link #MAX_CALL_MILLIS} ms (a target slow to answer cannot hold the caller for hours; {@code more} says
     * what is left), and stops at the first one the target does not take now: a target that is down is not sent the
     * rest.
     */
    public static Summary retryAll(ForwardStore store, XapiVersion version, String target, int limit)
            throws InterruptedException {
        int delivered = 0;
        int refused = 0;
        long after = 0;
        int left = Math.min(limit, MAX_PER_CALL);
        long deadline = System.nanoTime() + MAX_CALL_MILLIS * 1_000_000;
        while (left > 0 && System.nanoTime() - deadline < 0) {
            List<DeadLetter> page = store.deadLetters(target, after, Math.min(left, 100));
            if (page.isEmpty()) {
                return new Summary(delivered, refused, false, false, summary(target, delivered, refused, ""));
            }
            for (DeadLetter d : page) {
                Result r = retry(store, version, d.id());
                left--;
                after = d.id();
                switch (r.outcome()) {
                    case DELIVERED -> delivered++;
                    case REFUSED_AGAIN -> refused++;
                    case NOT_TAKEN -> {
                        return new Summary(delivered, refused, true, true, summary(target, delivered, refused,
                                "; stopped: " + r.message()));
                    }
                    case UNKNOWN -> {
                        // dropped meanwhile (another retry delivered it): nothing to send
                    }
                }
            }
        }
        boolean more = !store.deadLetters(target, after, 1).isEmpty();
        return new Summary(delivered, refused, false, more, summary(target, delivered, refused,
                more ? "; more are left, past the limit or the time of this call" : ""));
    }

    private static String summary(String target, int delivered, int refused, String end) {
        return target + ": " + delivered + " dead letters delivered, " + refused + " refused again" + end;
    }
}
