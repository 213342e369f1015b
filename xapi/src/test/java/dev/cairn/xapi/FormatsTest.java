package dev.cairn.xapi;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The {@code ids} and {@code canonical} formats of GET /statements (Comm 2.1.3 "format", Data 2.5). Each row is a
 * sentence of the spec, a stored statement and the statement the format returns. JSON is written with single
 * quotes for readability.
 */
class FormatsTest {
    static final String ID = "'id':'9e13cefd-53d3-4eac-b5ed-2cf6693903bb'";
    static final String AGENT = "{'objectType':'Agent','name':'Learner','mbox':'mailto:learner@example.com'}";
    static final String AGENT_IDS = "{'objectType':'Agent','mbox':'mailto:learner@example.com'}";
    static final String VERB = "{'id':'http://adlnet.gov/expapi/verbs/completed','display':{'en-US':'completed','en-GB':'completed','de':'abgeschlossen'}}";
    static final String VERB_IDS = "{'id':'http://adlnet.gov/expapi/verbs/completed'}";
    static final String ACTIVITY = "{'objectType':'Activity','id':'http://example.com/a','definition':{'name':{'en-US':'A','de':'A (de)'},"
            + "'description':{'en-US':'About A','de':'Über A'},'type':'http://adlnet.gov/expapi/activities/lesson'}}";
    static final String ACTIVITY_IDS = "{'id':'http://example.com/a'}";

    static String json(String s) {
        return s.replace('\'', '"');
    }

    static String stmt(String actor, String verb, String object, String rest) {
        return json("{" + ID + ",'actor':" + actor + ",'verb':" + verb + ",'object':" + object
                + (rest.isEmpty() ? "" : "," + rest) + "}");
    }

    static Stream<Arguments> ids() {
        return Stream.of(
                Arguments.of("Agents keep only their IFI; Verbs their id; Activities their id",
                        stmt(AGENT, VERB, ACTIVITY, ""), stmt(AGENT_IDS, VERB_IDS, ACTIVITY_IDS, "")),
                Arguments.of("an Agent without objectType gets it, an account IFI is kept whole",
                        stmt("{'name':'N','account':{'homePage':'http://example.com','name':'u1'}}", VERB_IDS, "{'id':'http://example.com/a'}", ""),
                        stmt("{'objectType':'Agent','account':{'homePage':'http://example.com','name':'u1'}}", VERB_IDS, ACTIVITY_IDS, "")),
                Arguments.of("an identified Group keeps only its IFI, not its members",
                        stmt("{'objectType':'Group','name':'G','mbox':'mailto:g@example.com','member':[" + AGENT + "]}", VERB, ACTIVITY, ""),
                        stmt("{'objectType':'Group','mbox':'mailto:g@example.com'}", VERB_IDS, ACTIVITY_IDS, "")),
                Arguments.of("for Anonymous Groups, the minimum information needed to identify each member",
                        stmt("{'objectType':'Group','name':'G','member':[" + AGENT + ",{'name':'B','openid':'http://b.example.com'}]}", VERB, ACTIVITY, ""),
                        stmt("{'objectType':'Group','member':[" + AGENT_IDS + ",{'objectType':'Agent','openid':'http://b.example.com'}]}", VERB_IDS, ACTIVITY_IDS, "")),
                Arguments.of("an Agent as object is reduced the same way",
                        stmt(AGENT, VERB, AGENT, ""), stmt(AGENT_IDS, VERB_IDS, AGENT_IDS, "")),
                Arguments.of("a StatementRef is kept",
                        stmt(AGENT, VERB, "{'objectType':'StatementRef','id':'3f1b1b8e-6d0b-4bd6-9a33-1b7b5d1c1f2a'}", ""),
                        stmt(AGENT_IDS, VERB_IDS, "{'objectType':'StatementRef','id':'3f1b1b8e-6d0b-4bd6-9a33-1b7b5d1c1f2a'}", "")),
                Arguments.of("result, timestamp, stored, version and extensions are kept exactly, numbers included",
                        stmt(AGENT, VERB, ACTIVITY, "'result':{'score':{'scaled':0.850,'raw':1e2},'duration':'PT1S','extensions':{'http://e.com/x':[1.10,null,{'a':true}]}},"
                                + "'timestamp':'2026-01-01T00:00:00-05:00','stored':'2026-01-01T05:00:00.000Z','version':'1.0.3'"),
                        stmt(AGENT_IDS, VERB_IDS, ACTIVITY_IDS, "'result':{'score':{'scaled':0.850,'raw':1e2},'duration':'PT1S','extensions':{'http://e.com/x':[1.10,null,{'a':true}]}},"
                                + "'timestamp':'2026-01-01T00:00:00-05:00','stored':'2026-01-01T05:00:00.000Z','version':'1.0.3'")),
                Arguments.of("the authority is an Agent or Group like any other",
                        stmt(AGENT, VERB, ACTIVITY, "'authority':{'objectType':'Group','member':[" + AGENT + ",{'account':{'homePage':'http://lrs.example.com','name':'app'}}]}"),
                        stmt(AGENT_IDS, VERB_IDS, ACTIVITY_IDS, "'authority':{'objectType':'Group','member':[" + AGENT_IDS
                                + ",{'objectType':'Agent','account':{'homePage':'http://lrs.example.com','name':'app'}}]}")),
                Arguments.of("context: instructor and team reduced, context activities as arrays of ids, the rest kept",
                        stmt(AGENT, VERB, ACTIVITY, "'context':{'registration':'ec531277-b57b-4c15-8d91-d292c5b2b8f7','instructor':" + AGENT
                                + ",'team':{'objectType':'Group','name':'T','mbox':'mailto:t@example.com'},'contextActivities':{'parent':" + ACTIVITY
                                + ",'category':[{'id':'http://example.com/c','definition':{'type':'http://example.com/t'}}]},'platform':'LMS','language':'en-US',"
                                + "'statement':{'objectType':'StatementRef','id':'3f1b1b8e-6d0b-4bd6-9a33-1b7b5d1c1f2a'},'extensions':{'http://e.com/y':'v'}}"),
                        stmt(AGENT_IDS, VERB_IDS, ACTIVITY_IDS, "'context':{'registration':'ec531277-b57b-4c15-8d91-d292c5b2b8f7','instructor':" + AGENT_IDS
                                + ",'team':{'objectType':'Group','mbox':'mailto:t@example.com'},'contextActivities':{'parent':[{'id':'http://example.com/a'}]"
                                + ",'category':[{'id':'http://example.com/c'}]},'platform':'LMS','language':'en-US',"
                                + "'statement':{'objectType':'StatementRef','id':'3f1b1b8e-6d0b-4bd6-9a33-1b7b5d1c1f2a'},'extensions':{'http://e.com/y':'v'}}")),
                Arguments.of("xAPI 2.0 contextAgents and contextGroups: the agent or group reduced, relevantTypes kept",
                        stmt(AGENT, VERB, ACTIVITY, "'context':{'contextAgents':[{'objectType':'contextAgent','agent':" + AGENT
                                + ",'relevantTypes':['http://example.com/r']}],'contextGroups':[{'objectType':'contextGroup','group':{'objectType':'Group','member':["
                                + AGENT + "]}}]}"),
                        stmt(AGENT_IDS, VERB_IDS, ACTIVITY_IDS, "'context':{'contextAgents':[{'objectType':'contextAgent','agent':" + AGENT_IDS
                                + ",'relevantTypes':['http://example.com/r']}],'contextGroups':[{'objectType':'contextGroup','group':{'objectType':'Group','member':["
                                + AGENT_IDS + "]}}]}")),
                Arguments.of("inside a SubStatement the same rules apply",
                        stmt(AGENT, VERB, "{'objectType':'SubStatement','actor':" + AGENT + ",'verb':" + VERB + ",'object':" + ACTIVITY
                                + ",'result':{'success':true},'context':{'contextActivities':{'other':" + ACTIVITY + "}}}", ""),
                        stmt(AGENT_IDS, VERB_IDS, "{'objectType':'SubStatement','actor':" + AGENT_IDS + ",'verb':" + VERB_IDS + ",'object':" + ACTIVITY_IDS
                                + ",'result':{'success':true},'context':{'contextActivities':{'other':[{'id':'http://example.com/a'}]}}}", "")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("ids")
    void idsFormat(String rule, String stored, String expected) {
        byte[] bytes = stored.getBytes(StandardCharsets.UTF_8);
        assertEquals(expected, new String(IdsWriter.write(bytes), StandardCharsets.UTF_8), rule);
        Statement model = StatementParser.parseOne(bytes, XapiVersion.V2_0_0).statement();
        assertEquals(expected, new String(IdsWriter.write(bytes, model), StandardCharsets.UTF_8), rule);
    }

    static final ActivityDefinition CANONICAL_A = new ActivityDefinition(
            Map.of("en-GB", "A (canonical, GB)"), Map.of("en-GB", "About A (canonical)"),
            "http://adlnet.gov/expapi/activities/lesson", null, null, null, null, null, null, null, null, null);
    static final Function<String, ActivityDefinition> LRS = id -> id.equals("http://example.com/a") ? CANONICAL_A : null;
    static final Function<String, ActivityDefinition> NONE = id -> null;

    static Stream<Arguments> canonical() {
        String def = "'definition':{'name':{'en-US':'A','en-GB':'A (GB)','de':'A (de)'},'description':{'en-US':'About A','de':'Über A'}}";
        String activityB = "{'id':'http://example.com/b'," + def + "}";
        return Stream.of(
                Arguments.of("Agents and Groups are returned as in exact",
                        NONE, "en-US", stmt(AGENT, VERB_IDS, "{'id':'http://example.com/b'}", ""),
                        stmt(AGENT, VERB_IDS, "{'id':'http://example.com/b'}", "")),
                Arguments.of("the verb display is cut to the language Accept-Language chooses",
                        NONE, "de", stmt(AGENT, VERB, "{'id':'http://example.com/b'}", ""),
                        stmt(AGENT, "{'id':'http://adlnet.gov/expapi/verbs/completed','display':{'de':'abgeschlossen'}}", "{'id':'http://example.com/b'}", "")),
                Arguments.of("the activity definition comes from the LRS's canonical definition",
                        LRS, "en-GB", stmt(AGENT, VERB_IDS, ACTIVITY, ""),
                        stmt(AGENT, VERB_IDS, "{'objectType':'Activity','id':'http://example.com/a','definition':{'name':{'en-GB':'A (canonical, GB)'},"
                                + "'description':{'en-GB':'About A (canonical)'},'type':'http://adlnet.gov/expapi/activities/lesson'}}", "")),
                Arguments.of("a canonical definition is added to an activity sent without one",
                        LRS, "en-GB", stmt(AGENT, VERB_IDS, "{'id':'http://example.com/a'}", ""),
                        stmt(AGENT, VERB_IDS, "{'id':'http://example.com/a','definition':{'name':{'en-GB':'A (canonical, GB)'},"
                                + "'description':{'en-GB':'About A (canonical)'},'type':'http://adlnet.gov/expapi/activities/lesson'}}", "")),
                Arguments.of("without a canonical definition the statement's own is used, cut to one language",
                        NONE, "en-GB", stmt(AGENT, VERB_IDS, activityB, ""),
                        stmt(AGENT, VERB_IDS, "{'id':'http://example.com/b','definition':{'name':{'en-GB':'A (GB)'},'description':{'en-US':'About A'}}}", "")),
                Arguments.of("context activities (sent as one object) and SubStatements are filtered too",
                        NONE, "de", stmt(AGENT, VERB, "{'objectType':'SubStatement','actor':" + AGENT + ",'verb':" + VERB + ",'object':" + activityB + "}",
                                "'context':{'contextActivities':{'parent':" + activityB + "}}"),
                        stmt(AGENT, "{'id':'http://adlnet.gov/expapi/verbs/completed','display':{'de':'abgeschlossen'}}",
                                "{'objectType':'SubStatement','actor':" + AGENT + ",'verb':{'id':'http://adlnet.gov/expapi/verbs/completed','display':{'de':'abgeschlossen'}},"
                                        + "'object':{'id':'http://example.com/b','definition':{'name':{'de':'A (de)'},'description':{'de':'Über A'}}}}",
                                "'context':{'contextActivities':{'parent':[{'id':'http://example.com/b','definition':{'name':{'de':'A (de)'},'description':{'de':'Über A'}}}]}}")),
                Arguments.of("interaction component descriptions are language maps too",
                        NONE, "fr", stmt(AGENT, VERB_IDS, "{'id':'http://example.com/q','definition':{'interactionType':'choice','correctResponsesPattern':['x'],"
                                + "'choices':[{'id':'x','description':{'en':'X','fr':'X (fr)'}}],'extensions':{'http://e.com/k':[1.5,true,null,'s']}}}", ""),
                        stmt(AGENT, VERB_IDS, "{'id':'http://example.com/q','definition':{'interactionType':'choice','correctResponsesPattern':['x'],"
                                + "'choices':[{'id':'x','description':{'fr':'X (fr)'}}],'extensions':{'http://e.com/k':[1.5,true,null,'s']}}}", "")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("canonical")
    void canonicalFormat(String rule, Function<String, ActivityDefinition> lrs, String acceptLanguage, String stored,
                         String expected) {
        byte[] bytes = stored.getBytes(StandardCharsets.UTF_8);
        assertEquals(expected, new String(new CanonicalWriter(lrs, acceptLanguage).write(bytes), StandardCharsets.UTF_8), rule);
    }

    static Stream<Arguments> languages() {
        List<String> map = List.of("en-US", "en-GB", "de", "fr-CA");
        return Stream.of(
                Arguments.of("the same tag", "en-GB", map, "en-GB"),
                Arguments.of("tags compare without regard to case", "EN-gb", map, "en-GB"),
                Arguments.of("the highest quality wins", "de;q=0.5, en-GB;q=0.9", map, "en-GB"),
                Arguments.of("equal qualities keep header order", "de, en-GB", map, "de"),
                Arguments.of("a range matches more specific tags (RFC 4647 filtering)", "fr", map, "fr-CA"),
                Arguments.of("a range is cut from the end (RFC 4647 lookup)", "de-CH-1996", map, "de"),
                Arguments.of("a private-use singleton is cut with its subtag", "de-x-a", map, "de"),
                Arguments.of("lookup goes to the next range before guessing", "en-AU, de;q=0.2", map, "de"),
                Arguments.of("then a tag of the same primary language", "en-AU, it;q=0.2", map, "en-US"),
                Arguments.of("the wildcard takes the first language", "*", map, "en-US"),
                Arguments.of("a wildcard after a range that misses", "it, *;q=0.1", map, "en-US"),
                Arguments.of("q=0 excludes a language from every choice", "it, en-US;q=0", map, "en-GB"),
                Arguments.of("q=0 on a range excludes its more specific tags", "*, en;q=0", map, "de"),
                Arguments.of("no header: some language", null, map, "en-US"),
                Arguments.of("no match at all: some language", "ja", map, "en-US"),
                Arguments.of("malformed entries are ignored", "??, de;q=x, fr;q=0.7", map, "fr-CA"),
                Arguments.of("a single language is always returned", "en-US;q=0", List.of("en-US"), "en-US"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("languages")
    void acceptLanguageChoosesOne(String rule, String header, List<String> available, String chosen) {
        assertEquals(chosen, AcceptLanguage.parse(header).choose(available), rule);
    }
}
