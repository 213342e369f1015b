package dev.cairn.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cairn.xapi.ParsedStatement;
import dev.cairn.xapi.StatementParser;
import dev.cairn.xapi.XapiException;
import dev.cairn.xapi.XapiVersion;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The ids of one request, checked before it reaches the sequencer (Comm 2.1.1, 2.1.2). */
class StatementIdsTest {
    private static String statement(UUID id) {
        return "{" + (id == null ? "" : "\"id\":\"" + id + "\",") + "\"actor\":{\"mbox\":\"mailto:a@example.com\"},"
                + "\"verb\":{\"id\":\"http://example.com/v\"},\"object\":{\"id\":\"http://example.com/a\"}}";
    }

    private static List<ParsedStatement> batch(UUID... ids) {
        StringBuilder b = new StringBuilder("[");
        for (int i = 0; i < ids.length; i++) {
            b.append(i == 0 ? "" : ",").append(statement(ids[i]));
        }
        return StatementParser.parseBatch(b.append(']').toString().getBytes(StandardCharsets.UTF_8), XapiVersion.V2_0_0);
    }

    @Test
    void anIdTwiceInOneBatchIs400NamingTheSecond() {
        UUID id = UUID.randomUUID();
        XapiException e = assertThrows(XapiException.class,
                () -> StatementWriteHandler.checkIds(batch(UUID.randomUUID(), id, id), null));
        assertEquals("batch.duplicate_id", e.code());
        assertEquals("$[2].id", e.where());
    }

    @Test
    void statementsWithoutIdsAreNoDuplicates() {
        StatementWriteHandler.checkIds(batch(null, null, UUID.randomUUID()), null);
    }

    @Test
    void aPutWhoseStatementHasAnotherIdThanStatementIdIs400() {
        XapiException e = assertThrows(XapiException.class,
                () -> StatementWriteHandler.checkIds(batch(UUID.randomUUID()), UUID.randomUUID()));
        assertEquals("statement.id_mismatch", e.code());
        assertEquals("$.id", e.where());
    }

    @Test
    void aPutWhoseStatementHasNoIdOrTheSameIdIsAccepted() {
        UUID id = UUID.randomUUID();
        StatementWriteHandler.checkIds(batch((UUID) null), id);
        StatementWriteHandler.checkIds(batch(id), id);
    }
}
