package dev.cairn.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** PostgreSQL's binary COPY loads each field type as written, and a failed load leaves nothing behind. */
class BinaryCopyTest {
    private static final String COPY = "COPY t (a, b, c, d) FROM STDIN (FORMAT binary)";

    @TempDir
    Path dir;
    private TestDatabase database;
    private Connection c;

    @BeforeEach
    void table() throws SQLException {
        database = TestDatabase.create("postgresql", dir);
        c = DriverManager.getConnection(database.url());
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (a BIGINT PRIMARY KEY, b SMALLINT, c TEXT, d BYTEA)");
        }
        c.setAutoCommit(false);
    }

    @AfterEach
    void close() throws SQLException {
        c.close();
        database.close();
    }

    private String rows() throws SQLException {
        StringBuilder out = new StringBuilder();
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT a, b, c, length(d) FROM t ORDER BY a")) {
            while (rs.next()) {
                out.append(rs.getLong(1)).append('/').append(rs.getInt(2)).append('/').append(rs.getString(3))
                        .append('/').append(rs.getInt(4)).append(';');
            }
        }
        return out.toString();
    }

    @Test
    void everyFieldTypeIsLoadedAsWrittenRowsLargerThanTheBufferIncluded() throws SQLException {
        byte[] large = new byte[200_000];
        Arrays.fill(large, (byte) 0xff);
        BinaryCopy copy = new BinaryCopy(c, COPY);
        copy.row(4).int8(Long.MIN_VALUE).int2(-1).text("Grüße, 世界").bytea(new byte[0]);
        copy.row(4).int8(Long.MAX_VALUE).int2(Short.MAX_VALUE).text("").bytea(large);
        copy.send();
        c.commit();
        assertEquals(Long.MIN_VALUE + "/-1/Grüße, 世界/0;" + Long.MAX_VALUE + "/32767//200000;", rows());
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT d FROM t WHERE a > 0")) {
            rs.next();
            assertArrayEquals(large, rs.getBytes(1));
        }
    }

    @Test
    void aFailedLoadIsRolledBackAndClearedSoTheNextLoadHoldsOnlyItsOwnRows() throws SQLException {
        BinaryCopy copy = new BinaryCopy(c, COPY);
        copy.row(4).int8(1).int2(0).text("x").bytea("x".getBytes(StandardCharsets.UTF_8));
        copy.row(4).int8(1).int2(0).text("duplicate key").bytea(new byte[1]);
        assertThrows(SQLException.class, copy::send);
        c.rollback();
        copy.clear();

        copy.row(4).int8(2).int2(0).text("y").bytea(new byte[2]);
        copy.send();
        c.commit();
        assertEquals("2/0/y/2;", rows());
    }

    @Test
    void aLoadAfterOneLargerThanTheKeptBufferIsWholeToo() throws SQLException {
        BinaryCopy copy = new BinaryCopy(c, COPY);
        copy.row(4).int8(1).int2(0).text("large").bytea(new byte[40 << 20]);
        copy.send();
        copy.row(4).int8(2).int2(0).text("small").bytea(new byte[3]);
        copy.send();
        c.commit();
        assertEquals("1/0/large/" + (40 << 20) + ";2/0/small/3;", rows());
    }
}
