package dev.cairn.projector;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cairn.store.Database;
import dev.cairn.store.ProjectedStatement;
import dev.cairn.store.ProjectionWriter;
import dev.cairn.store.StatementForm;
import dev.cairn.store.StatementQuery;
import dev.cairn.store.StatementReader;
import dev.cairn.store.StoredAttachment;
import dev.cairn.xapi.FilterKeys;
import dev.cairn.xapi.IdsWriter;
import dev.cairn.xapi.StatementParser;
import dev.cairn.xapi.XapiVersion;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The stored forms a statement read returns, and attachments by hash, on each database. */
class StoredFormsTest extends DatabaseOnEachDialect {

    private static byte[] json(UUID id) {
        return ("{\"id\":\"" + id + "\",\"actor\":{\"name\":\"Ada\",\"mbox\":\"mailto:a@example.com\"},"
                + "\"verb\":{\"id\":\"http://adlnet.gov/expapi/verbs/completed\",\"display\":{\"en-US\":\"completed\"}},"
                + "\"object\":{\"id\":\"http://example.com/a\",\"definition\":{\"name\":{\"en-US\":\"A\"}}}}")
                .getBytes(StandardCharsets.UTF_8);
    }

    private static ProjectedStatement projected(UUID id, long stored, byte[] ids) {
        byte[] exact = json(id);
        return new ProjectedStatement(id, stored, exact, ids,
                FilterKeys.of(StatementParser.parseOne(exact, XapiVersion.V2_0_0).statement()), false);
    }

    @Test
    void theIdsFormIsReadAsStoredAndComputedForRowsStoredWithoutIt() {
        UUID current = UUID.randomUUID();
        UUID old = UUID.randomUUID();
        byte[] marker = "{\"stored\":\"ids form\"}".getBytes(StandardCharsets.UTF_8);
        try (Database db = Database.open(database.url()); ProjectionWriter writer = new ProjectionWriter(db)) {
            writer.add(projected(current, 1, marker));
            // A row projected before migration 3 holds '' in the ids column.
            writer.add(projected(old, 2, new byte[0]));
            writer.putAttachment("ab12", "text/plain", new byte[] {1, 2});
            writer.commit(0);

            StatementReader reader = new StatementReader(db);
            assertArrayEquals(marker, reader.byId(current, StatementForm.IDS).orElseThrow().json());
            assertArrayEquals(json(current), reader.byId(current, StatementForm.EXACT).orElseThrow().json());
            assertArrayEquals(IdsWriter.write(json(old)), reader.byId(old, StatementForm.IDS).orElseThrow().json());
            List<byte[]> page = reader.page(new StatementQuery(List.of(), null, null, 10, true, 0), StatementForm.IDS)
                    .statements();
            assertArrayEquals(marker, page.get(0));
            assertArrayEquals(IdsWriter.write(json(old)), page.get(1));

            List<StoredAttachment> found = reader.attachments(List.of("ab12", "cd34"));
            assertEquals(1, found.size());
            assertEquals("text/plain", found.get(0).contentType());
            assertArrayEquals(new byte[] {1, 2}, found.get(0).content());
        }
    }
}
