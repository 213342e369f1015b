package dev.cairn.log;

import java.util.List;

/** The statements of one PUT or POST, accepted together: a batch is all-or-nothing. */
public record StatementsStored(List<StoredStatement> statements) implements Event {
}
