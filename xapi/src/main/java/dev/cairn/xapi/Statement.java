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

    /** True when this statement voids another: the voided verb with a StatementRef object. */
    public boolean isVoiding() {
        return verb.isVoiding() && object instanceof StatementRef;
    }
}
