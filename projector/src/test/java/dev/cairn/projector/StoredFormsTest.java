package dev.cairn.projector;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cairn.store.Database;
import dev.cairn.store.ProjectedStatement;
import dev.cairn.store.ProjectionWriter;
import dev.cairn.store.StatementQuery;
import dev.cairn.store.StatementReader;
import dev.cairn.store.StoredAttachment;
import dev.cairn.xapi.FilterKeys;
import dev.cairn.xapi.StatementParser;
import dev.cairn.xapi.XapiVersion;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** A statement read returns the exact stored bytes, and attachments are found by hash, on each database. */
class StoredFormsTest extends DatabaseOnEachDialect {

    private static byte[] json(UUID id) {
        return ("{\"id\":\"" + id + "\",\"actor\":{\"name\":\"Ada\",\"mbox\":\"mailto:a@example.com\"},"
                + "\"verb\":{\"id\":\"http://adlnet.gov/expapi/verbs/completed\",\"display\":{\"en-US\":\"completed\"}},"
                + "\"object\":{\"id\":\"http://example.com/a\",\"definition\":{\"name\":{\"en-US\":\"A\"}}}}")
                .getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aStatementIsReadAsStoredAndAttachmentsByTheirHash() {
        UUID id = UUID.randomUUID();
        byte[] exact = json(id);
        try (Database db = Database.open(database.url()); ProjectionWriter writer = new ProjectionWriter(db)) {
            writer.add(new ProjectedStatement(id, 1, exact,
                    FilterKeys.of(StatementParser.parseOne(exact, XapiVersion.V2_0_0).statement()), false));
            writer.putAttachment("ab12", "text/plain", new byte[] {1, 2});
            writer.commit(0);

            StatementReader reader = new StatementReader(db);
            assertArrayEquals(exact, reader.byId(id).orElseThrow().json());
            assertArrayEquals(exact, reader.page(new StatementQuery(List.of(), null, null, 10, true, 0))
                    .statements().get(0));

            List<StoredAttachment> found = reader.attachments(List.of("ab12", "cd34"));
            assertEquals(1, found.size());
            assertEquals("text/plain", found.get(0).contentType());
            assertArrayEquals(new byte[] {1, 2}, found.get(0).content());
        }
    }
}
