package dev.cairn.ingest;

import dev.cairn.log.AttachmentContent;
import dev.cairn.log.StatementsStored;
import dev.cairn.xapi.DocumentKey;
import dev.cairn.xapi.ParsedStatement;
import dev.cairn.xapi.XapiVersion;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/** A validated write on its way to the sequencer, which completes {@link #outcome()} with its decision. */
public sealed interface WriteCommand {
    CompletableFuture<WriteOutcome> outcome();

    /**
     * The statements of a PUT or POST, the attachment contents it sent (each once, matched to the statements'
     * sha2), the id a PUT names ({@code putId}, null for POST), the authority to stamp and its key
     * ({@link dev.cairn.xapi.FilterKey#authorityKey}), whether its credential may define activities and agents
     * ({@link StatementsStored#defines()}) and void the statements of other authorities ({@link VoidingAuthority}),
     * and the version the client spoke.
     */
    record Statements(List<ParsedStatement> statements, List<AttachmentContent> attachments, UUID putId,
                      byte[] authority, String authorityKey, boolean defines, boolean voidsAny, XapiVersion version,
                      CompletableFuture<WriteOutcome> outcome) implements WriteCommand {
    }

    /**
     * A PUT, POST or DELETE of a document. {@code all} (DELETE only) removes every document of the key's place.
     * {@code preconditions} are the client's If-Match / If-None-Match; {@code rule} says what a PUT without either
     * gets (Comm 3.1).
     */
    record Document(Operation operation, DocumentKey key, boolean all, String contentType, byte[] content,
                    Preconditions preconditions, PutRule rule,
                    CompletableFuture<WriteOutcome> outcome) implements WriteCommand {
    }

    /** What a PUT without If-Match or If-None-Match may do (Comm 3.1, per resource and version). */
    enum PutRule {
        /** Overwrite or create (State in xAPI 1.0.3). */
        ANY,
        /** Create, but 409 over an existing document (xAPI 2.0.0, every document resource). */
        CREATE_ONLY,
        /** Neither: 409 over an existing document, 400 otherwise (the profiles in xAPI 1.0.3 require a header). */
        NONE
    }

    enum Operation { PUT, POST, DELETE }
}
