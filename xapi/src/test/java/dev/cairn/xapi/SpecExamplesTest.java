package dev.cairn.xapi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The example statements of xAPI 1.0.3 Data appendices A (statements), B (objects of each type) and C
 * (interaction activity definitions), under {@code spec/}: each parses in both versions and round-trips.
 */
class SpecExamplesTest {

    static List<String> examples() {
        return Arrays.stream(new String(resource("index.txt"), StandardCharsets.UTF_8).split("\n"))
                .filter(s -> !s.isBlank()).toList();
    }

    static byte[] resource(String name) {
        try (InputStream in = SpecExamplesTest.class.getResourceAsStream("spec/" + name)) {
            assertNotNull(in, name);
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("examples")
    void parsesAndRoundTripsIn103(String name) {
        RoundTrip.check(resource(name), XapiVersion.V1_0_3);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("examples")
    void parsesAndRoundTripsIn200(String name) {
        RoundTrip.check(resource(name), XapiVersion.V2_0_0);
    }

    /**
     * The ids and canonical forms of every stored example are statements again. Canonical keeps every filter key;
     * ids keeps all but those of an identified Group's members, which that form leaves out.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("examples")
    void idsAndCanonicalFormsAreStatements(String name) {
        for (ParsedStatement parsed : StatementParser.parseBatch(resource(name), XapiVersion.V2_0_0)) {
            byte[] exact = ExactWriter.write(parsed, RoundTrip.ASSIGNED_ID, RoundTrip.STORED, RoundTrip.AUTHORITY, "1.0.3");
            Statement stored = StatementParser.parseOne(exact, XapiVersion.V2_0_0).statement();
            Statement ids = StatementParser.parseOne(IdsWriter.write(exact, stored), XapiVersion.V2_0_0).statement();
            Statement canonical = StatementParser.parseOne(new CanonicalWriter(id -> null, "en-US").write(exact, stored),
                    XapiVersion.V2_0_0).statement();
            assertTrue(FilterKeys.of(stored).keys().keySet().containsAll(FilterKeys.of(ids).keys().keySet()), name);
            assertEquals(FilterKeys.of(stored).refTarget(), FilterKeys.of(ids).refTarget(), name);
            assertEquals(FilterKeys.of(stored), FilterKeys.of(canonical), name);
        }
    }

    @Test
    void theLongExampleReadsIntoTheModel() {
        Statement s = StatementParser.parseOne(resource("appendix-a-3.json"), XapiVersion.V1_0_3).statement();
        assertEquals(UUID.fromString("6690e6c9-3ef0-4ed3-8b37-7f3964730bee"), s.id());
        Group team = assertInstanceOf(Group.class, s.actor());
        assertEquals(new Ifi(Ifi.Kind.MBOX, "mailto:teampb@example.com", null), team.ifi());
        assertEquals(3, team.members().size());
        assertEquals(new Ifi(Ifi.Kind.ACCOUNT, "http://www.example.com", "13936749"), team.members().get(0).ifi());
        assertEquals("http://adlnet.gov/expapi/verbs/attended", s.verb().id());
        assertEquals("PT1H0M0S", s.result().duration());
        assertEquals(UUID.fromString("ec531277-b57b-4c15-8d91-d292c5b2b8f7"), s.context().registration());
        assertEquals(2, s.context().contextActivities().other().size());
        assertEquals("tlh", s.context().language());
        assertEquals("1.0.0", s.version());
        assertEquals("2013-05-18T05:32:34.804+00:00", s.stored());
        Activity object = assertInstanceOf(Activity.class, s.object());
        assertEquals("http://adlnet.gov/expapi/activities/meeting", object.definition().type());
    }

    @Test
    void interactionComponentsReadIntoTheModel() {
        Activity a = (Activity) StatementParser.parseOne(resource("appendix-c-choice.json"), XapiVersion.V1_0_3)
                .statement().object();
        assertEquals("choice", a.definition().interactionType());
        assertEquals(List.of("golf[,]tetris"), a.definition().correctResponsesPattern());
        assertEquals(4, a.definition().choices().size());
        assertEquals("Golf Example", a.definition().choices().get(0).description().get("en-US"));
    }

    @Test
    void scoresKeepTheirDecimalValues() {
        byte[] body = StatementValidationTest.withResult("{'score':{'scaled':0.12123434,'raw':12.125,'min':0.12123434,"
                + "'max':45.45}}").getBytes(StandardCharsets.UTF_8);
        Score score = StatementParser.parseOne(body, XapiVersion.V1_0_3).statement().result().score();
        assertEquals(new BigDecimal("0.12123434"), score.scaled());
        assertEquals(new BigDecimal("12.125"), score.raw());
        assertEquals(new BigDecimal("45.45"), score.max());
    }
}
