package dev.cairn.ops;

import dev.cairn.store.TestDatabase;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A test class whose every test runs against a real Cairn on each database (SQLite, PostgreSQL), with its log and
 * files in a temporary directory: {@link #lrs} is started before each test and stopped after it.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("dev.cairn.store.TestDatabase#dialects")
abstract class LrsOnEachDatabase {
    @Parameter
    String dialect;
    @TempDir
    Path data;
    TestDatabase database;
    TestLrs lrs;

    @BeforeEach
    void startLrs() throws Exception {
        database = TestDatabase.create(dialect, data);
        lrs = new TestLrs(data, database.url());
    }

    @AfterEach
    void stopLrs() {
        if (lrs != null) {
            lrs.close();
        }
        if (database != null) {
            database.close();
        }
    }
}
