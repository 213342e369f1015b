package dev.cairn.log;

import java.util.List;

/**
 * The statements of one PUT or POST, accepted together (a batch is all-or-nothing), with the contents of the
 * attachments they sent, each once.
 */
public record StatementsStored(List<StoredStatement> statements, List<AttachmentContent> attachments) implements Event {

    /** Statements that sent no attachment content. */
    public StatementsStored(List<StoredStatement> statements) {
        this(statements, List.of());
    }
}
