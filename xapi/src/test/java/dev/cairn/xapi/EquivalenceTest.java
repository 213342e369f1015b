package dev.cairn.xapi;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Statement comparison (Data 2.3.1 and xAPI 2.0 section 4.2.7): differences the immutability exceptions allow are
 * ignored, every other difference counts. Each row is a rule, two statements, and whether they are equivalent.
 */
class EquivalenceTest {
    static final String ID = "'id':'9e13cefd-53d3-4eac-b5ed-2cf6693903bb',";
    static final String ACTOR = "'actor':{'mbox':'mailto:learner@example.com'},";
    static final String VERB = "'verb':{'id':'http://adlnet.gov/expapi/verbs/completed'},";
    static final String OBJECT = "'object':{'id':'http://example.com/activities/a'}";

    static String statement(String members) {
        return ("{" + members + "}").replace('\'', '"');
    }

    static String base(String extra) {
        return statement(ID + ACTOR + VERB + OBJECT + (extra.isEmpty() ? "" : "," + extra));
    }

    static Stream<Arguments> rows() {
        return Stream.of(
                same("the same statement", base(""), base("")),
                same("LRS-set properties (stored, authority, version) are not part of the statement",
                        base(""), base("'stored':'2026-01-01T00:00:00Z','version':'1.0.3',"
                                + "'authority':{'mbox':'mailto:lrs@example.com'}")),
                same("a timestamp is compared as the point in time, not its serialization",
                        base("'timestamp':'2023-05-04T12:00:00-05:00'"), base("'timestamp':'2023-05-04T17:00:00.000Z'")),
                differ("a different point in time",
                        base("'timestamp':'2023-05-04T12:00:00Z'"), base("'timestamp':'2023-05-04T12:00:01Z'")),
                same("verb display is not part of the statement",
                        base(""), statement(ID + ACTOR + "'verb':{'id':'http://adlnet.gov/expapi/verbs/completed',"
                                + "'display':{'en-US':'completed'}}," + OBJECT)),
                same("activity definitions are not part of the statement",
                        base(""), statement(ID + ACTOR + VERB + "'object':{'id':'http://example.com/activities/a',"
                                + "'definition':{'name':{'en':'A'}}}")),
                same("a single context activity and an array of one are the same",
                        base("'context':{'contextActivities':{'parent':{'id':'http://example.com/p'}}}"),
                        base("'context':{'contextActivities':{'parent':[{'id':'http://example.com/p'}]}}")),
                same("group members are an unordered list",
                        statement(ID + "'actor':{'objectType':'Group','member':[{'mbox':'mailto:a@example.com'},"
                                + "{'mbox':'mailto:b@example.com'}]}," + VERB + OBJECT),
                        statement(ID + "'actor':{'objectType':'Group','member':[{'mbox':'mailto:b@example.com'},"
                                + "{'mbox':'mailto:a@example.com'}]}," + VERB + OBJECT)),
                same("the domain of an email address is case insensitive",
                        base(""), statement(ID + "'actor':{'mbox':'mailto:learner@EXAMPLE.com'}," + VERB + OBJECT)),
                differ("the local part of an email address is not",
                        base(""), statement(ID + "'actor':{'mbox':'mailto:Learner@example.com'}," + VERB + OBJECT)),
                differ("the actor's name counts", base(""),
                        statement(ID + "'actor':{'name':'L','mbox':'mailto:learner@example.com'}," + VERB + OBJECT)),
                differ("a result counts", base(""), base("'result':{'success':true}")),
                same("4.2.7: duration precision beyond 0.01 second is not compared",
                        base("'result':{'duration':'P1DT12H36M0.1237S'}"), base("'result':{'duration':'P1DT12H36M0.12S'}")),
                same("4.2.7: the extra digits are cut, not rounded",
                        base("'result':{'duration':'PT0.129S'}"), base("'result':{'duration':'PT0.12S'}")),
                differ("4.2.7: hundredths still count",
                        base("'result':{'duration':'PT0.129S'}"), base("'result':{'duration':'PT0.13S'}")),
                differ("2.3.1: a duration is otherwise a string (no unit conversion)",
                        base("'result':{'duration':'PT60S'}"), base("'result':{'duration':'PT1M'}")),
                same("4.2.7: duration precision inside a SubStatement",
                        subWithDuration("PT1.23456S"), subWithDuration("PT1.23S")),
                same("4.2.7 / RFC 3987 5.3.2.1: scheme and host compare in lower case",
                        base(""), statement(ID + ACTOR + "'verb':{'id':'HTTP://ADLNET.gov/expapi/verbs/completed'},"
                                + OBJECT)),
                differ("RFC 3987 5.3.2.1: the path is case sensitive",
                        base(""), statement(ID + ACTOR + "'verb':{'id':'http://adlnet.gov/expapi/verbs/Completed'},"
                                + OBJECT)),
                same("4.2.7 / RFC 3987 5.3.2.4: dot segments are removed from the path",
                        base(""), statement(ID + ACTOR + VERB + "'object':{'id':'http://example.com/x/../activities/a'}")),
                same("4.2.7 / RFC 3987 5.3.2.3: percent-encoded unreserved characters are decoded",
                        base(""), statement(ID + ACTOR + VERB + "'object':{'id':'http://example.com/%61ctivities/a'}")),
                same("4.2.7: context activity ids compare normalized",
                        base("'context':{'contextActivities':{'grouping':[{'id':'http://example.com/./g'}]}}"),
                        base("'context':{'contextActivities':{'grouping':[{'id':'http://Example.com/g'}]}}")),
                differ("a different activity", base(""),
                        statement(ID + ACTOR + VERB + "'object':{'id':'http://example.com/activities/b'}")));
    }

    static String subWithDuration(String duration) {
        return statement(ID + ACTOR + VERB + "'object':{'objectType':'SubStatement'," + ACTOR + VERB + OBJECT
                + ",'result':{'duration':'" + duration + "'}}");
    }

    static Arguments same(String rule, String a, String b) {
        return Arguments.of(rule, a, b, true);
    }

    static Arguments differ(String rule, String a, String b) {
        return Arguments.of(rule, a, b, false);
    }

    static Statement parse(String json) {
        return StatementParser.parseOne(json.getBytes(StandardCharsets.UTF_8), XapiVersion.V2_0_0).statement();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void comparesAsTheSpecSays(String rule, String a, String b, boolean equivalent) {
        assertEquals(equivalent, Equivalence.equivalent(parse(a), parse(b)), rule);
        assertEquals(equivalent, Equivalence.equivalent(parse(b), parse(a)), rule + " (reversed)");
    }
}
