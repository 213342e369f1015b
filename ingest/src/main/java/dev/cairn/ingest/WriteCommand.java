package dev.cairn.ingest;

import dev.cairn.xapi.ParsedStatement;
import dev.cairn.xapi.XapiVersion;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/**
 * One validated statement write on its way to the sequencer: the statements of a PUT or POST, the id a PUT
 * names ({@code putId}, null for POST), the authority to stamp and the version the client spoke.
 */
public record WriteCommand(List<ParsedStatement> statements, UUID putId, byte[] authority, XapiVersion version,
                           CompletableFuture<WriteOutcome> outcome) {
}
