package dev.cairn.log;

import java.util.List;

/**
 * The statements of one PUT or POST, accepted together (a batch is all-or-nothing), with the contents of the
 * attachments they sent, each once. {@code defines} is false when the credential that wrote them lacked the
 * {@code define} scope: then they must not change the stored definitions of their activities or names of agents.
 */
public record StatementsStored(List<StoredStatement> statements, List<AttachmentContent> attachments, boolean defines)
        implements Event {

    /** Statements that sent no attachment content, from a credential that may define. */
    public StatementsStored(List<StoredStatement> statements) {
        this(statements, List.of(), true);
    }
}
