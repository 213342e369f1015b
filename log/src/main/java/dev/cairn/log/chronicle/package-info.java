/**
 * The event log as one Chronicle Queue directory ({@link dev.cairn.log.chronicle.ChronicleLog}).
 *
 * <p>A position is Chronicle's index, {@code (cycle << 32 | sequence)}: only this package computes with it.
 * Beside the queue's files, {@code synced} holds the last synced position ({@code SyncedPosition}); a torn tail
 * after it is found and voided in place by {@code TornTail}, or cut off by {@code CycleRewrite} when the log
 * cannot be read to its end.
 */
package dev.cairn.log.chronicle;
