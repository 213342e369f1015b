package dev.cairn.bench;

import dev.cairn.log.EventLog;
import dev.cairn.log.LogAppender;
import dev.cairn.log.StatementsStored;
import dev.cairn.log.StoredStatement;
import java.util.ArrayList;
import java.util.List;

/**
 * Appends corpus statements straight to a log, as the sequencer would have stored them, without HTTP: the fast
 * way to build a large data set. Stored times are the wall clock, never decreasing, so a server started on the log
 * afterwards keeps stamping later times.
 */
final class LogLoader {
    private LogLoader() {
    }

    /**
     * Appends statements {@code from} (inclusive) to {@code to} (exclusive), {@code perEvent} to an event, and syncs.
     *
     * @return the index of the last entry appended
     */
    static long append(EventLog log, StatementCorpus corpus, long from, long to, int perEvent) {
        long last = -1;
        long storedMillis = 0;
        try (LogAppender appender = log.appender()) {
            for (long i = from; i < to; i += perEvent) {
                storedMillis = Math.max(storedMillis, System.currentTimeMillis());
                List<StoredStatement> batch = new ArrayList<>(perEvent);
                for (long j = i; j < Math.min(to, i + perEvent); j++) {
                    batch.add(corpus.stored(j, storedMillis));
                }
                last = appender.append(new StatementsStored(batch));
            }
            appender.sync();
        }
        return last;
    }
}
