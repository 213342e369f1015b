package dev.cairn.bench;

import java.nio.file.Path;
import java.util.List;

/**
 * One group of rows of the invariant table, run on one dialect against Cairn processes it starts itself.
 *
 * @see Invariants
 */
interface InvariantCheck {
    /**
     * Runs the group's checks.
     *
     * @param dialect "sqlite" or "postgresql"
     * @param dir a directory of the run's own for data, databases and process output (deleted after the run)
     * @param o the run's options (every group's options are declared in {@link Invariants})
     */
    List<InvariantRow> run(String dialect, Path dir, Options o) throws Exception;
}
