package dev.cairn.bench;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What one projector commit writes to SQLite's write-ahead log, table by table: against a running {@code cairn serve}
 * on SQLite that nothing else writes to, POSTs of {@code statements} corpus statements with {@code ack=visible} (so
 * each is one projector transaction), one at a time, {@code total} statements of each size (enough to take in the
 * merges of statement_match_recent they cause); around each, the frames the log gained are read from the
 * {@code -wal} file and their pages named by SQLite's {@code dbstat} table. Every frame is a page written whole (and
 * checksummed, and copied once more into the database file by a checkpoint), so these counts are what a small commit
 * costs the projector beyond its SQL.
 *
 * <pre>java -cp bench/target/benchmarks.jar dev.cairn.bench.WalFrames --port 8080 --db DATA/cairn.db
 *     --credential key:secret --statements 1,100 --total 2000</pre>
 */
public final class WalFrames {
    /** Each POST answers once its statements are committed (whatever the server's default), so its frames are in. */
    private static final String VISIBLE = "X-Cairn-Ack: visible\r\n";
    private static final int WAL_HEADER = 32;
    private static final int FRAME_HEADER = 24;
    /** Far past the statements a load before this posts, so every statement is new (and its timestamp ~3 years on). */
    private static final long FIRST = 100_000_000L;

    private WalFrames() {
    }

    /** The frames of a write-ahead log that belong to its current generation (its salt), in order. */
    record Frames(long salt, List<Long> pages) {
    }

    public static void main(String[] args) throws Exception {
        Options o = Options.parse(args, "port", "8080", "db", "", "credential", "", "statements", "1,100",
                "total", "2000");
        Path db = Path.of(o.value("db"));
        Path wal = Path.of(db + "-wal");
        StatementCorpus corpus = new StatementCorpus(0.1);
        AtomicLong next = new AtomicLong(FIRST);
        System.out.println("| statements per commit | commits | table or index | WAL pages per commit | per statement |");
        System.out.println("|---:|---:|---|---:|---:|");
        try (LoopbackClient client = new LoopbackClient(o.intValue("port"), o.value("credential"));
             Connection c = DriverManager.getConnection("jdbc:sqlite:" + db + "?open_mode=1")) {
            for (String n : o.value("statements").split(",")) {
                int perCommit = Integer.parseInt(n.trim());
                int commits = Math.max(1, o.intValue("total") / perCommit);
                List<Long> written = new ArrayList<>();
                for (int i = 0; i < commits; i++) {
                    Frames before = read(wal);
                    HttpBench.ok(client.post("/xapi/statements", HttpBench.body(corpus, next, perCommit), VISIBLE),
                            "POST of " + perCommit);
                    Frames after = read(wal);
                    // A log started over (new salt) holds only frames written since; else the new ones follow the old.
                    written.addAll(after.salt() == before.salt()
                            ? after.pages().subList(before.pages().size(), after.pages().size()) : after.pages());
                }
                Map<Long, String> owners = owners(c);
                Map<String, Integer> byTable = new HashMap<>();
                for (long page : written) {
                    byTable.merge(owners.getOrDefault(page, "(freed since)"), 1, Integer::sum);
                }
                Map<String, Integer> sorted = new LinkedHashMap<>();
                byTable.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
                        .forEach(e -> sorted.put(e.getKey(), e.getValue()));
                sorted.put("**all**", written.size());
                for (Map.Entry<String, Integer> e : sorted.entrySet()) {
                    System.out.printf("| %d | %d | %s | %.1f | %.2f |%n", perCommit, commits, e.getKey(),
                            e.getValue() / (double) commits, e.getValue() / (double) commits / perCommit);
                }
            }
        }
    }

    /** The current generation's frames: those whose salt is the header's, up to the first that is not. */
    static Frames read(Path wal) throws IOException {
        try (FileChannel ch = FileChannel.open(wal, StandardOpenOption.READ)) {
            ByteBuffer header = ByteBuffer.allocate(WAL_HEADER);
            if (ch.read(header, 0) < WAL_HEADER) {
                return new Frames(0, List.of());
            }
            int pageSize = header.getInt(8);
            long salt = header.getLong(16);
            List<Long> pages = new ArrayList<>();
            ByteBuffer frame = ByteBuffer.allocate(FRAME_HEADER);
            for (long at = WAL_HEADER; ; at += FRAME_HEADER + pageSize) {
                frame.clear();
                if (ch.read(frame, at) < FRAME_HEADER || frame.getLong(8) != salt) {
                    return new Frames(salt, pages);
                }
                pages.add(frame.getInt(0) & 0xffffffffL);
            }
        }
    }

    /** Page number to the table or index that holds it now. */
    private static Map<Long, String> owners(Connection c) throws SQLException {
        Map<Long, String> owners = new TreeMap<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT pageno, name FROM dbstat")) {
            while (rs.next()) {
                owners.put(rs.getLong(1), rs.getString(2));
            }
        }
        return owners;
    }
}
