package dev.cairn.store;

import java.io.IOException;
import java.sql.SQLException;

/**
 * Where {@code cairn replay} rebuilds the projection: an empty database beside the live one, which replaces the
 * live projection only once the rebuild has finished ({@link #swap()}), so the live tables stay whole and readable
 * until then, and a replay that fails or is interrupted leaves them as they were. Each dialect makes its own
 * ({@link Dialect#replayTarget}): a new SQLite file ({@link SqliteReplayTarget}), a PostgreSQL schema
 * ({@link PostgresReplayTarget}).
 */
public abstract class ReplayTarget implements AutoCloseable {
    private final String url;
    private boolean swapped;

    ReplayTarget(String url) {
        this.url = url;
    }

    /** Makes an empty place to rebuild the projection of the live database at {@code liveUrl} (which is not changed). */
    public static ReplayTarget create(String liveUrl) {
        try {
            return Dialect.of(liveUrl).replayTarget(liveUrl);
        } catch (SQLException | IOException e) {
            throw new StoreException("cannot prepare the replay beside " + liveUrl + ": " + e.getMessage(), e);
        }
    }

    /** The JDBC URL to open the database the replay writes into with. */
    public String url() {
        return url;
    }

    /**
     * Makes the rebuilt projection the live one. Every connection to the replay database must be closed, and no
     * other process may have the live database open (replay is run with Cairn stopped).
     */
    public void swap() {
        try {
            replaceLive();
            swapped = true;
        } catch (SQLException | IOException e) {
            throw new StoreException("cannot put the rebuilt projection in place of the live one (which is unchanged): "
                    + e.getMessage(), e);
        }
    }

    /** Puts the rebuilt projection in place of the live one, or leaves the live one as it was. */
    abstract void replaceLive() throws SQLException, IOException;

    /** Drops the replay database unless it was swapped in. */
    @Override
    public void close() {
        if (swapped) {
            return;
        }
        try {
            drop();
        } catch (SQLException | IOException e) {
            throw new StoreException("cannot remove the unfinished replay database: " + e.getMessage(), e);
        }
    }

    /** Removes the replay database. */
    abstract void drop() throws SQLException, IOException;
}
