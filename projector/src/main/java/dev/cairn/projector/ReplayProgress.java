package dev.cairn.projector;

/** Receives the progress of a rebuild: log entries and statements applied so far. */
public interface ReplayProgress {
    void update(long entries, long statements);

    void done(long entries, long statements);
}
