package dev.cairn.projector;

import dev.cairn.store.TestDatabase;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/** A test class whose every test gets a fresh database of each dialect and a temporary directory for its log. */
@ParameterizedClass(name = "{0}")
@MethodSource("dev.cairn.store.TestDatabase#dialects")
abstract class DatabaseOnEachDialect {
    @Parameter
    String dialect;
    @TempDir
    Path dir;
    TestDatabase database;

    @BeforeEach
    void createDatabase() {
        database = TestDatabase.create(dialect, dir);
    }

    @AfterEach
    void dropDatabase() {
        if (database != null) {
            database.close();
        }
    }
}
