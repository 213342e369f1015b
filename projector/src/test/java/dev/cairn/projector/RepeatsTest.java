package dev.cairn.projector;

import dev.cairn.xapi.AgentNames;
import dev.cairn.xapi.ActivityDefinitions;
import dev.cairn.xapi.StatementParser;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** Definitions and names the log gave before need no write; after a break in reading every one is new again. */
class RepeatsTest {
    private static ActivityDefinitions.Defined defined(String activity, String name) {
        return new ActivityDefinitions.Defined(activity, StatementParser.parseActivityDefinition(
                ("{\"name\":{\"en-US\":\"" + name + "\"}}").getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void aDefinitionIsARepeatOnlyOfTheLastOneItsActivityWasGiven() {
        Repeats repeats = new Repeats();
        ActivityDefinitions.Defined a1 = defined("http://example.com/a", "one");
        ActivityDefinitions.Defined a2 = defined("http://example.com/a", "two");
        ActivityDefinitions.Defined b1 = defined("http://example.com/b", "one");
        assertEquals(List.of(a1), repeats.newDefinitions(List.of(a1)));
        assertEquals(List.of(b1), repeats.newDefinitions(List.of(b1)), "another activity's definition is its own");
        assertEquals(List.of(), repeats.newDefinitions(List.of(defined("http://example.com/a", "one"))));
        assertEquals(List.of(a2), repeats.newDefinitions(List.of(a2)));
        assertEquals(List.of(a1), repeats.newDefinitions(List.of(a1)), "given again after a change, it changes things");
    }

    @Test
    void aNameIsARepeatOfAnyEarlierOneOfItsAgent() {
        Repeats repeats = new Repeats();
        AgentNames.Named ada = new AgentNames.Named("mbox:mailto:a@example.com", "Ada");
        AgentNames.Named lovelace = new AgentNames.Named("mbox:mailto:a@example.com", "Ada Lovelace");
        assertEquals(List.of(ada, lovelace), repeats.newNames(List.of(ada, lovelace, ada)));
        assertEquals(List.of(), repeats.newNames(List.of(lovelace, ada)));
    }

    @Test
    void afterForgettingEverythingIsNewAgain() {
        Repeats repeats = new Repeats();
        ActivityDefinitions.Defined a1 = defined("http://example.com/a", "one");
        AgentNames.Named ada = new AgentNames.Named("mbox:mailto:a@example.com", "Ada");
        repeats.newDefinitions(List.of(a1));
        repeats.newNames(List.of(ada));
        repeats.forget();
        assertEquals(List.of(a1), repeats.newDefinitions(List.of(a1)));
        assertEquals(List.of(ada), repeats.newNames(List.of(ada)));
    }
}
