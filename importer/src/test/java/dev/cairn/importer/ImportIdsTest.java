package dev.cairn.importer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.cairn.xapi.ExactWriter;
import dev.cairn.xapi.ParsedStatement;
import dev.cairn.xapi.StatementParser;
import dev.cairn.xapi.XapiVersion;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class ImportIdsTest {
    private static final String AUTHORITY = "{\"objectType\":\"Agent\",\"mbox\":\"mailto:a@example.com\"}";

    @Test
    void idsDependOnTheBytesAndThePositionOnly() {
        byte[] a = "{\"actor\":1}".getBytes(StandardCharsets.UTF_8);
        UUID id = ImportIds.of(3, a);
        assertEquals(id, ImportIds.of(3, a.clone()));
        assertEquals(5, id.version());
        assertEquals(2, id.variant());
        assertNotEquals(id, ImportIds.of(4, a));
        assertNotEquals(id, ImportIds.of(3, "{\"actor\":2}".getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void aStatementGivenAnIdIsStoredAsIfItHadSentIt() {
        String body = "{\"actor\":{\"mbox\":\"mailto:x@example.com\"}, \"stored\":\"2020-01-01T00:00:00Z\","
                + "\"verb\":{\"id\":\"http://example.com/v\"},\"object\":{\"id\":\"http://example.com/o\"},"
                + "\"context\":{\"contextActivities\":{\"parent\":{\"id\":\"http://example.com/p\"}}}}";
        UUID id = UUID.fromString("3f0c8a1e-2b9d-5c4e-8f7a-1b2c3d4e5f60");
        ParsedStatement given = ImportIds.withId(StatementParser.parseOne(body.getBytes(StandardCharsets.UTF_8),
                XapiVersion.V2_0_0), id);
        ParsedStatement sent = StatementParser.parseOne(("{\"id\":\"" + id + "\"," + body.substring(1))
                .getBytes(StandardCharsets.UTF_8), XapiVersion.V2_0_0);
        byte[] authority = AUTHORITY.getBytes(StandardCharsets.UTF_8);
        assertEquals(id, given.statement().id());
        assertArrayEquals(ExactWriter.write(sent, id, "2024-01-01T00:00:00.000Z", authority, "2.0.0"),
                ExactWriter.write(given, id, "2024-01-01T00:00:00.000Z", authority, "2.0.0"));
        // What the HTTP path sends parses back to the same statement.
        assertEquals(sent.statement(), StatementParser.parseOne(given.source(), XapiVersion.V2_0_0).statement());
    }
}
