package dev.cairn.bench;

import dev.cairn.store.Database;
import dev.cairn.store.ProjectionChecksum;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * The rebuild invariant: the tables live projection left, against those {@code cairn replay} (a child process) builds
 * from the log, compared by the content checksum of every table. Every process on the log must be stopped first.
 */
final class ReplayComparison {
    private ReplayComparison() {
    }

    /**
     * @param log the directory given to {@code cairn replay --data} (its log is {@code log/} under it)
     * @param what what was done before, for the row's check ("after the ack=durable trials")
     */
    static InvariantRow row(String dialect, Path log, String db, String what) {
        Map<String, String> live = checksum(db);
        Path output = log.resolveSibling(log.getFileName() + "-replay.out");
        int exit;
        String failure = "";
        try {
            exit = CairnProcess.run(output, Map.of(), "replay", "--data", log.toString(), "--db", db);
            if (exit != 0) {
                // what it said last, without stack frames and log lines: the exception and its causes
                String said = String.join(" ", Files.readAllLines(output).stream()
                        .filter(l -> !l.isBlank() && !l.matches("\\s+(at |\\.\\.\\. ).*") && !l.contains(" INFO "))
                        .toList()).replace("|", "\\|");
                failure = ": " + (said.length() <= 400 ? said : "..." + said.substring(said.length() - 400));
            }
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException("cairn replay did not run: " + e.getMessage(), e);
        }
        Map<String, String> replayed = checksum(db);
        String rows = live.get("statement").split(":")[0];
        return new InvariantRow(dialect, "rebuild " + what + ": cairn replay against the live tables",
                "equal content checksum of every table", exit != 0 ? "replay exited " + exit + failure
                : live.equals(replayed) ? "equal (" + rows + " statements)" : "different: live " + live + ", replayed "
                + replayed, exit == 0 && live.equals(replayed));
    }

    private static Map<String, String> checksum(String db) {
        try (Database d = Database.open(db)) {
            return ProjectionChecksum.of(d);
        }
    }
}
