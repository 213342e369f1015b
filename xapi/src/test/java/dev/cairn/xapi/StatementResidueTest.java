package dev.cairn.xapi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a removed statement leaves: the activity definitions it gave, the names it gave agents, and nothing else of it. */
class StatementResidueTest {
    private static final String STATEMENT = """
            {"actor":{"mbox":"mailto:ada@example.com","name":"Ada"},"verb":{"id":"http://example.com/v"},
             "object":{"id":"http://example.com/a","definition":{"name":{"en":"A"},"type":"http://example.com/t"}},
             "context":{"contextActivities":{"parent":[{"id":"http://example.com/p","definition":{"name":{"en":"P"}}}],
               "grouping":[{"id":"http://example.com/g"}]}}}""";

    private static Statement statement() {
        return StatementParser.parseOne(STATEMENT.getBytes(StandardCharsets.UTF_8), XapiVersion.V2_0_0).statement();
    }

    @Test
    void itHoldsTheDefinitionsTheStatementGaveAndReadsBackAsWritten() {
        StatementResidue residue = StatementResidue.of(statement(), ifiKey -> false);
        assertEquals(List.of("http://example.com/a", "http://example.com/p"),
                residue.definitions().stream().map(ActivityDefinitions.Defined::activityId).toList());
        byte[] bytes = residue.encode();
        assertEquals(1, bytes[0], "format 1: no names");
        assertTrue(!new String(bytes, StandardCharsets.UTF_8).contains("ada@example.com"), "nothing of the actor");
        assertEquals(residue, StatementResidue.decode(bytes));
    }

    @Test
    void withNamesItHoldsTheNamesTheStatementGaveAgentsAndReadsBackAsWritten() {
        StatementResidue residue = StatementResidue.of(statement(), ifiKey -> true);
        assertEquals(List.of(new AgentNames.Named("mbox:mailto:ada@example.com", "Ada")), residue.names());
        byte[] bytes = residue.encode();
        assertEquals(2, bytes[0], "format 2: definitions and names");
        assertEquals(residue, StatementResidue.decode(bytes));
    }

    @Test
    void itHoldsOnlyTheNamesOfTheAgentsItIsToldToKeep() {
        String two = """
                {"actor":{"mbox":"mailto:ada@example.com","name":"Ada"},"verb":{"id":"http://example.com/v"},
                 "object":{"objectType":"Agent","mbox":"mailto:bo@example.com","name":"Bo"}}""";
        Statement s = StatementParser.parseOne(two.getBytes(StandardCharsets.UTF_8), XapiVersion.V2_0_0).statement();
        StatementResidue residue = StatementResidue.of(s, "mbox:mailto:bo@example.com"::equals);
        assertEquals(List.of(new AgentNames.Named("mbox:mailto:bo@example.com", "Bo")), residue.names());
    }

    @Test
    void withoutTheNamesOfAgentsItNamesItKeepsTheRestAndWithoutNoneItIsItself() {
        StatementResidue residue = StatementResidue.of(statement(), ifiKey -> true);
        assertTrue(residue == residue.withoutNamesOf("mbox:mailto:bo@example.com"::equals), "names none of them");
        StatementResidue without = residue.withoutNamesOf("mbox:mailto:ada@example.com"::equals);
        assertEquals(List.of(), without.names());
        assertEquals(residue.definitions(), without.definitions());
    }

    @Test
    void aStatementThatDefinesNothingLeavesNothing() {
        String plain = """
                {"actor":{"mbox":"mailto:ada@example.com"},"verb":{"id":"http://example.com/v"},
                 "object":{"id":"http://example.com/a"},
                 "context":{"contextActivities":{"parent":[{"id":"http://example.com/p"}]}}}""";
        Statement s = StatementParser.parseOne(plain.getBytes(StandardCharsets.UTF_8), XapiVersion.V2_0_0).statement();
        assertTrue(StatementResidue.of(s, ifiKey -> true).isEmpty(), plain);
    }

    @Test
    void bytesThatAreNoResidueAreRefused() {
        byte[] good = StatementResidue.of(statement(), ifiKey -> true).encode();
        assertThrows(IllegalArgumentException.class, () -> StatementResidue.decode(new byte[] {3, 0, 0, 0, 0}));
        assertThrows(IllegalArgumentException.class, () -> StatementResidue.decode(new byte[] {2, 0, 0, 0, 0}),
                "format 2 without its names' count");
        assertThrows(IllegalArgumentException.class, () -> StatementResidue.decode(java.util.Arrays.copyOf(good,
                good.length - 1)));
        assertThrows(IllegalArgumentException.class, () -> StatementResidue.decode(java.util.Arrays.copyOf(good,
                good.length + 1)));
    }
}
