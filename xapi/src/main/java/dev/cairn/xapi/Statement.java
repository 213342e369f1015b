package dev.cairn.xapi;

import java.util.List;
import java.util.UUID;

/**
 * An xAPI statement (Data 2.4) as the parser read it. {@code id}, {@code stored}, {@code authority},
 * {@code version} and {@code timestamp} may be absent on input; the sequencer sets them before storing.
 */
public record Statement(
        UUID id,
        Actor actor,
        Verb verb,
        StatementObject object,
        Result result,
        Context context,
        String timestamp,
        String stored,
        Actor authority,
        String version,
        List<Attachment> attachments) {

    /** The attachments of this statement and of its SubStatement object, whose contents a request may carry. */
    public List<Attachment> allAttachments() {
        List<Attachment> sub = object instanceof SubStatement s && s.attachments() != null ? s.attachments() : List.of();
        if (attachments == null || attachments.isEmpty()) {
            return sub;
        }
        if (sub.isEmpty()) {
            return attachments;
        }
        List<Attachment> all = new java.util.ArrayList<>(attachments);
        all.addAll(sub);
        return all;
    }

    /** This statement with {@code id} as its id (the LRS assigns one when the client sent none). */
    public Statement withId(UUID id) {
        return new Statement(id, actor, verb, object, result, context, timestamp, stored, authority, version,
                attachments);
    }

    /** True when this statement voids another: the voided verb with a StatementRef object. */
    public boolean isVoiding() {
        return verb.isVoiding() && object instanceof StatementRef;
    }
}
