package dev.cairn.log;

/** One accepted write request, as recorded in the log. */
public sealed interface Event permits StatementsStored, DocumentWritten, DocumentsDeleted, EntryVoided {
}
