package dev.cairn.ingest;

import dev.cairn.xapi.FilterKey;
import dev.cairn.xapi.Statement;
import dev.cairn.xapi.StatementParser;
import dev.cairn.xapi.StatementRef;
import dev.cairn.xapi.XapiVersion;
import java.util.UUID;

/**
 * Who may void a statement (Data 2.3.2: the LRS "SHOULD reject the request with 403 Forbidden if the request is not
 * from a source authorized to void Statements"): a writer may void the statements stored under its own authority,
 * whichever of that authority's credentials stored them; voiding another authority's statement needs the {@code all}
 * scope. A target that is not stored yet cannot be checked, and is accepted as the spec asks (SHOULD NOT reject).
 */
final class VoidingAuthority {
    private VoidingAuthority() {
    }

    /** The statement a voiding statement voids, or null when {@code s} voids nothing. */
    static UUID target(Statement s) {
        return s.isVoiding() ? ((StatementRef) s.object()).id() : null;
    }

    /**
     * The refusal of voiding {@code target} by command {@code c}, or null when it may. {@code targetJson} is the
     * stored target's exact form, null when it is not stored; {@code where} names the voiding statement in the request.
     */
    static WriteOutcome.Refused refusal(WriteCommand.Statements c, UUID target, byte[] targetJson, String where) {
        if (targetJson == null || c.voidsAny()) {
            return null;
        }
        String targetAuthority = FilterKey.authorityKey(
                StatementParser.parseOne(targetJson, XapiVersion.V2_0_0).statement().authority());
        if (targetAuthority.equals(c.authorityKey())) {
            return null;
        }
        return new WriteOutcome.Refused(403, "statement.void_forbidden", where + ".object", "statement " + target
                + " was stored under another authority; voiding it needs a credential of that authority or one"
                + " with the all scope");
    }
}
