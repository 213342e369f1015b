package dev.cairn.forward;

import dev.cairn.store.DeadLetter;
import dev.cairn.store.ForwardStore;
import dev.cairn.store.ForwardTarget;
import dev.cairn.xapi.XapiVersion;

/**
 * Sends a dead letter to its target again, once, as it was first sent ({@code cairn targets retry}): delivered, it is
 * dropped; refused again, its new answer is kept; a target that still does not answer leaves it as it was.
 */
public final class DeadLetterRetry {
    private DeadLetterRetry() {
    }

    /** What the retry did, for the operator. */
    public record Result(boolean delivered, String message) {
    }

    public static Result retry(ForwardStore store, XapiVersion version, long id) throws InterruptedException {
        DeadLetter letter = store.deadLetter(id).orElse(null);
        if (letter == null) {
            return new Result(false, "no dead letter " + id);
        }
        ForwardTarget stored = store.find(letter.target()).orElse(null);
        if (stored == null) {
            return new Result(false, "dead letter " + id + " belongs to target " + letter.target()
                    + ", which no longer exists");
        }
        Target target = Target.check(stored, version);
        Delivery.Outcome o = new Delivery(version.header()).post(target, letter.body());
        switch (o.kind()) {
            case DELIVERED -> {
                store.dropDeadLetter(id);
                return new Result(true, "dead letter " + id + " (" + letter.statements() + " statements) delivered to "
                        + letter.target() + " (" + o.status() + ")");
            }
            case REFUSED -> {
                store.refusedAgain(id, o.status(), o.response());
                return new Result(false, letter.target() + " refused dead letter " + id + " again with " + o.status()
                        + ": " + o.response());
            }
            default -> {
                return new Result(false, letter.target() + " did not take dead letter " + id + " now ("
                        + (o.status() == 0 ? o.response() : o.status() + " " + o.response()) + "); it is kept");
            }
        }
    }
}
