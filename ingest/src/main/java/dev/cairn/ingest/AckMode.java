package dev.cairn.ingest;

import java.util.Optional;

/** When a write is acknowledged. */
public enum AckMode {
    /** Once the log entry is synced to disk. */
    DURABLE,
    /** Once the projector has also applied it, so the client reads its own write. */
    VISIBLE;

    public static Optional<AckMode> parse(String value) {
        return switch (value.trim().toLowerCase(java.util.Locale.ROOT)) {
            case "durable" -> Optional.of(DURABLE);
            case "visible" -> Optional.of(VISIBLE);
            default -> Optional.empty();
        };
    }
}
