package dev.cairn.xapi;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Data 2.4.6.2 (XAPI-00096): "Every key in the contextActivities Object MUST have an array of Activity Objects";
 * an LRS that receives a single object returns it as an array of one, inside a SubStatement's context too. The
 * stored form adds only the brackets: every other byte is the client's.
 */
class ContextActivitiesArrayTest {
    static final String HEAD = "{'actor':{'mbox':'mailto:a@example.com'},'verb':{'id':'http://example.com/v'},";
    static final String P = "{'id':'http://example.com/p'}";
    static final String G = "{'id':'http://example.com/g','definition':{'name':{'en':'G'}}}";

    static String json(String s) {
        return s.replace('\'', '"');
    }

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("a single parent becomes an array of one",
                        "'object':{'id':'http://example.com/a'},'context':{'contextActivities':{'parent':" + P + "}}}",
                        "'object':{'id':'http://example.com/a'},'context':{'contextActivities':{'parent':[" + P + "]}}}"),
                Arguments.of("an array is kept as sent",
                        "'object':{'id':'http://example.com/a'},'context':{'contextActivities':{'parent':[" + P + "]}}}",
                        "'object':{'id':'http://example.com/a'},'context':{'contextActivities':{'parent':[" + P + "]}}}"),
                Arguments.of("every key sent as an object is wrapped, arrays beside them untouched",
                        "'object':{'id':'http://example.com/a'},'context':{'contextActivities':{'parent':" + P
                                + ",'grouping':[" + G + "],'category':" + G + ",'other':" + P + "}}}",
                        "'object':{'id':'http://example.com/a'},'context':{'contextActivities':{'parent':[" + P
                                + "],'grouping':[" + G + "],'category':[" + G + "],'other':[" + P + "]}}}"),
                Arguments.of("whitespace around and inside the object is the client's",
                        "'object':{'id':'http://example.com/a'},'context':{'contextActivities':{'parent' : { 'id' : 'http://example.com/p' } }}}",
                        "'object':{'id':'http://example.com/a'},'context':{'contextActivities':{'parent' : [{ 'id' : 'http://example.com/p' }] }}}"),
                Arguments.of("inside a SubStatement's context",
                        "'object':{'objectType':'SubStatement','actor':{'mbox':'mailto:b@example.com'},"
                                + "'verb':{'id':'http://example.com/v'},'object':{'id':'http://example.com/b'},"
                                + "'context':{'contextActivities':{'category':" + G + "}}}}",
                        "'object':{'objectType':'SubStatement','actor':{'mbox':'mailto:b@example.com'},"
                                + "'verb':{'id':'http://example.com/v'},'object':{'id':'http://example.com/b'},"
                                + "'context':{'contextActivities':{'category':[" + G + "]}}}}"),
                Arguments.of("in the statement's and the SubStatement's context at once",
                        "'context':{'contextActivities':{'other':" + P + "}},"
                                + "'object':{'objectType':'SubStatement','actor':{'mbox':'mailto:b@example.com'},"
                                + "'verb':{'id':'http://example.com/v'},'object':{'id':'http://example.com/b'},"
                                + "'context':{'contextActivities':{'parent':" + P + "}}}}",
                        "'context':{'contextActivities':{'other':[" + P + "]}},"
                                + "'object':{'objectType':'SubStatement','actor':{'mbox':'mailto:b@example.com'},"
                                + "'verb':{'id':'http://example.com/v'},'object':{'id':'http://example.com/b'},"
                                + "'context':{'contextActivities':{'parent':[" + P + "]}}}}"));
    }

    static final String LRS_SET = "{'id':'00000000-0000-4000-8000-000000000001','stored':'2026-01-02T03:04:05.678Z',"
            + "'authority':{'objectType':'Agent','account':{'homePage':'https://lrs.example.com','name':'key-1'}},"
            + "'version':'1.0.3','timestamp':'2026-01-02T03:04:05.678Z',";

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void storedFormHasArrays(String rule, String sent, String stored) {
        byte[] body = json(HEAD + sent).getBytes(StandardCharsets.UTF_8);
        ParsedStatement parsed = StatementParser.parseOne(body, XapiVersion.V1_0_3);
        byte[] written = ExactWriter.write(parsed, RoundTrip.ASSIGNED_ID, RoundTrip.STORED, RoundTrip.AUTHORITY, "1.0.3");
        String expected = json(LRS_SET + HEAD.substring(1) + stored);
        assertEquals(expected, new String(written, StandardCharsets.UTF_8));
        RoundTrip.check(parsed, XapiVersion.V1_0_3);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void eachStatementOfABatchIsWrappedAtItsOwnOffsets(String rule, String sent, String stored) {
        String one = json(HEAD + sent);
        byte[] body = ("[ " + one + " ,\n" + one + "]").getBytes(StandardCharsets.UTF_8);
        List<ParsedStatement> batch = StatementParser.parseBatch(body, XapiVersion.V2_0_0);
        for (ParsedStatement parsed : batch) {
            byte[] written = ExactWriter.write(parsed, RoundTrip.ASSIGNED_ID, RoundTrip.STORED, RoundTrip.AUTHORITY, "1.0.3");
            assertEquals(json(LRS_SET + HEAD.substring(1) + stored), new String(written, StandardCharsets.UTF_8));
        }
    }
}
