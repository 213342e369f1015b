package dev.cairn.importer;

import java.io.PrintWriter;
import java.util.List;

/**
 * The import's counts and what the terminal shows of them: a progress line (rewritten in place at most five times a
 * second on a terminal, a new line every ten seconds otherwise), each rejected statement with its reason (the
 * first {@value #SHOWN_REJECTIONS}; the rest are counted), and a summary. Used from the importing thread only.
 */
final class ImportProgress {
    static final int SHOWN_REJECTIONS = 1000;

    private final PrintWriter out;
    private final PrintWriter err;
    private final boolean terminal;
    private final long start = System.nanoTime();
    private boolean countsPresent = true;
    private long lastPrint;
    private boolean lineOpen;
    private long read;
    private long imported;
    private long present;
    private long rejected;

    ImportProgress(PrintWriter out, PrintWriter err, boolean terminal) {
        this.out = out;
        this.err = err;
        this.terminal = terminal;
        this.lastPrint = start;
    }

    /** The HTTP API does not say which statements were already present: then both count as imported. */
    void countsPresent(boolean value) {
        countsPresent = value;
    }

    void read(int n) {
        read += n;
    }

    void stored(int added, int alreadyPresent) {
        imported += added;
        present += alreadyPresent;
    }

    void rejected(List<ImportRejection> rejections) {
        for (ImportRejection r : rejections) {
            rejected(r);
        }
    }

    void rejected(ImportRejection r) {
        rejected++;
        if (rejected <= SHOWN_REJECTIONS) {
            clearLine();
            err.println("rejected: " + r);
            if (rejected == SHOWN_REJECTIONS) {
                err.println("(further rejections are counted but not shown)");
            }
            err.flush();
        }
    }

    /** A message between progress lines. */
    void note(String message) {
        clearLine();
        out.println(message);
        out.flush();
    }

    /** Prints the progress line if it is time to. */
    void tick() {
        long now = System.nanoTime();
        if (now - lastPrint < (terminal ? 200_000_000L : 10_000_000_000L)) {
            return;
        }
        lastPrint = now;
        if (terminal) {
            out.print("\rimporting: " + counts(now) + "   ");
            lineOpen = true;
        } else {
            out.println("importing: " + counts(now));
        }
        out.flush();
    }

    /** The last line: what happened, in how long. */
    void summary(String verb) {
        clearLine();
        out.println(verb + ": " + counts(System.nanoTime()));
        if (!countsPresent) {
            out.println("(through the ingest's HTTP API, statements already present count as imported)");
        }
        out.flush();
    }

    long rejectedCount() {
        return rejected;
    }

    long importedCount() {
        return imported;
    }

    long presentCount() {
        return present;
    }

    long readCount() {
        return read;
    }

    private String counts(long now) {
        double seconds = Math.max(1e-9, (now - start) / 1e9);
        long done = imported + present + rejected;
        return String.format("%,d read, %,d imported, %,d already present, %,d rejected in %.1f s (%,.0f statements/s)",
                read, imported, present, rejected, seconds, done / seconds);
    }

    private void clearLine() {
        if (lineOpen) {
            out.print("\r" + " ".repeat(110) + "\r");
            out.flush();
            lineOpen = false;
        }
    }
}
