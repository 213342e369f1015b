package dev.cairn.xapi;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The Data requirements of xAPI 1.0.3 (and 2.0.0 where it differs), one table per section: statements an LRS
 * must accept, and statements it must reject with the JSON path and the code of the broken rule. JSON is written
 * with single quotes for readability and turned into double quotes before parsing.
 */
class StatementValidationTest {
    static final String ACTOR = "'actor':{'mbox':'mailto:learner@example.com'}";
    static final String VERB = "'verb':{'id':'http://adlnet.gov/expapi/verbs/experienced'}";
    static final String OBJECT = "'object':{'id':'http://example.com/activities/a'}";

    static String json(String singleQuoted) {
        return singleQuoted.replace('\'', '"');
    }

    static String statement(String members) {
        return json("{" + members + "}");
    }

    static String withActor(String actor) {
        return statement("'actor':" + actor + "," + VERB + "," + OBJECT);
    }

    static String withVerb(String verb) {
        return statement(ACTOR + ",'verb':" + verb + "," + OBJECT);
    }

    static String withObject(String object) {
        return statement(ACTOR + "," + VERB + ",'object':" + object);
    }

    static String with(String extraMembers) {
        return statement(ACTOR + "," + VERB + "," + OBJECT + "," + extraMembers);
    }

    static String withResult(String result) {
        return with("'result':" + result);
    }

    static String withContext(String context) {
        return with("'context':" + context);
    }

    static String withDefinition(String definition) {
        return withObject("{'id':'http://example.com/q1','definition':" + definition + "}");
    }

    /** A SubStatement object with the given extra members. */
    static String withSub(String members) {
        return withObject("{'objectType':'SubStatement'," + ACTOR + "," + VERB + "," + OBJECT
                + (members.isEmpty() ? "" : "," + members) + "}");
    }

    static Arguments ok(String requirement, String json) {
        return Arguments.of(requirement, json);
    }

    static Arguments bad(String requirement, String json, String path, String code) {
        return Arguments.of(requirement, json, path, code);
    }

    static void assertAccepted(String json, XapiVersion version) {
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        assertDoesNotThrow(() -> StatementParser.parseBatch(body, version), json);
    }

    static void assertRejected(String json, XapiVersion version, String path, String code) {
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        XapiException e = assertThrows(XapiException.class, () -> StatementParser.parseBatch(body, version), json);
        assertEquals(code, e.code(), () -> e.toString());
        assertEquals(path, e.where(), () -> e.toString());
        if (e.getMessage() == null || e.getMessage().isBlank()) {
            throw new AssertionError("no message for " + e.code());
        }
    }

    // ---- accepted in both versions ---------------------------------------------------------------------------

    static Stream<Arguments> valid() {
        return Stream.of(
                ok("2.4.1 an id in standard UUID form, lower case", with("'id':'fd41c918-b88b-4b20-a0a5-a4c32391aaa0'")),
                ok("2.4.1 an id in upper case (RFC 4122: case insensitive on input)",
                        with("'id':'FD41C918-B88B-4B20-A0A5-A4C32391AAA0'")),
                ok("4.4 every UUID version and variant is accepted (a version 1 UUID)",
                        with("'id':'c232ab00-9414-11ec-b3c8-9f6bdeced846'")),
                ok("2.4.2.1 an Agent without objectType", withActor("{'mbox':'mailto:a@example.com'}")),
                ok("2.4.2.1 an Agent with name and mbox_sha1sum",
                        withActor("{'name':'A','mbox_sha1sum':'ebd31e95054c018b10727ccffd2ef2ec3a016ee9'}")),
                ok("2.4.2.1 an Agent with openid", withActor("{'openid':'http://toby.openid.example.org/'}")),
                ok("2.4.2.4 an Agent with account",
                        withActor("{'account':{'homePage':'http://www.example.com','name':'13936749'}}")),
                ok("2.4.2.2 an anonymous Group with members",
                        withActor("{'objectType':'Group','member':[{'mbox':'mailto:a@example.com'}]}")),
                ok("2.4.2.2 an identified Group without members",
                        withActor("{'objectType':'Group','mbox':'mailto:team@example.com'}")),
                ok("2.4.2.2 an identified Group with an empty member list",
                        withActor("{'objectType':'Group','mbox':'mailto:team@example.com','member':[]}")),
                ok("2.4.3 a Verb with a display language map",
                        withVerb("{'id':'http://adlnet.gov/expapi/verbs/attended','display':{'en-GB':'attended','de':'teilgenommen'}}")),
                ok("2.4.4.1 an Activity with objectType", withObject("{'objectType':'Activity','id':'urn:x:1'}")),
                ok("2.4.4.2 an Agent as object with objectType",
                        withObject("{'objectType':'Agent','mbox':'mailto:b@example.com'}")),
                ok("2.4.4.2 a Group as object with objectType",
                        withObject("{'objectType':'Group','member':[{'mbox':'mailto:b@example.com'}]}")),
                ok("2.4.4.3 a StatementRef as object",
                        withObject("{'objectType':'StatementRef','id':'9e13cefd-53d3-4eac-b5ed-2cf6693903bb'}")),
                ok("2.4.4.3 a SubStatement with result, context and timestamp",
                        withSub("'result':{'success':true},'context':{'platform':'web'},'timestamp':'2015-11-18T12:17:00Z'")),
                ok("2.3.2 a voiding statement with a StatementRef object", statement(ACTOR
                        + ",'verb':{'id':'http://adlnet.gov/expapi/verbs/voided'},'object':{'objectType':'StatementRef',"
                        + "'id':'9e13cefd-53d3-4eac-b5ed-2cf6693903bb'}")),
                ok("2.4.5 a full Result", withResult("{'score':{'scaled':-1,'raw':0,'min':0,'max':100},"
                        + "'success':false,'completion':true,'response':'a','duration':'PT1H0M0.1S',"
                        + "'extensions':{'http://example.com/x':null}}")),
                ok("2.4.5.1 raw equal to min and to max (inclusive)",
                        withResult("{'score':{'raw':5,'min':5,'max':10}}")),
                ok("2.2 numbers keep IEEE 754 precision: decimals and exponents",
                        withResult("{'score':{'scaled':0.12123434,'raw':1.2125E1,'min':-1e-3,'max':45.45}}")),
                ok("2.4.6 a full Context", withContext("{'registration':'ec531277-b57b-4c15-8d91-d292c5b2b8f7',"
                        + "'instructor':{'mbox':'mailto:i@example.com'},'team':{'objectType':'Group','mbox':'mailto:t@example.com'},"
                        + "'contextActivities':{'parent':{'id':'http://example.com/p'},'grouping':[{'id':'http://example.com/g'}],"
                        + "'category':[],'other':[{'id':'http://example.com/o1'},{'id':'http://example.com/o2'}]},"
                        + "'revision':'r1','platform':'web','language':'tlh','statement':{'objectType':'StatementRef',"
                        + "'id':'6690e6c9-3ef0-4ed3-8b37-7f3964730bee'},'extensions':{'http://example.com/e':{'a':[1,null]}}}")),
                ok("2.4.6 a Group as instructor", withContext(
                        "{'instructor':{'objectType':'Group','member':[{'mbox':'mailto:i@example.com'}]}}")),
                ok("4.1 extension values may be null, empty strings or empty objects", withResult(
                        "{'extensions':{'http://example.com/a':null,'http://example.com/b':'','http://example.com/c':{}}}")),
                ok("4.1 an empty extensions object", withContext("{'extensions':{}}")),
                ok("2.4.10 version 1.0", with("'version':'1.0'")),
                ok("2.4.10 version 1.0.x", with("'version':'1.0.9'")),
                ok("2.4.11 an attachment with fileUrl and description", with("'attachments':[{"
                        + "'usageType':'http://adlnet.gov/expapi/attachments/signature','display':{'en-US':'s'},"
                        + "'description':{'en-US':'d'},'contentType':'application/octet-stream','length':0,"
                        + "'sha2':'672fa5fa658017f1b72d65036f13379c6ab05d4ab3b6664908d8acf0b6a0c634',"
                        + "'fileUrl':'http://example.com/f'}]")),
                ok("2.4.11 a contentType with parameters", with("'attachments':[{"
                        + "'usageType':'http://example.com/u','display':{'en-US':'s'},"
                        + "'contentType':'text/plain; charset=ascii','length':12,"
                        + "'sha2':'672fa5fa658017f1b72d65036f13379c6ab05d4ab3b6664908d8acf0b6a0c634'}]")),
                ok("2.4.9 an authority Agent", with("'authority':{'mbox':'mailto:lrs@example.com'}")),
                ok("2.4.9 an OAuth authority: anonymous Group of two Agents", with("'authority':{'objectType':'Group',"
                        + "'member':[{'account':{'homePage':'http://example.com/xAPI/OAuth/Token','name':'oauth_consumer_x75db'}},"
                        + "{'mbox':'mailto:bob@example.com'}]}")),
                ok("2.4.8 stored is accepted (the LRS replaces it)", with("'stored':'2013-05-18T05:32:34.804+00:00'")),
                ok("2.4.4.1 every interaction type", withDefinition(
                        "{'interactionType':'numeric','correctResponsesPattern':['4[:]']}")),
                ok("2.4.4.1 choices with choice", withDefinition("{'interactionType':'choice',"
                        + "'correctResponsesPattern':['a[,]b'],'choices':[{'id':'a','description':{'en':'A'}},{'id':'b'}]}")),
                ok("2.4.4.1 source and target with matching", withDefinition("{'interactionType':'matching',"
                        + "'source':[{'id':'s'}],'target':[{'id':'t'}]}")),
                ok("2.4.4.1 scale with likert", withDefinition("{'interactionType':'likert','scale':[{'id':'1'}]}")),
                ok("2.4.4.1 steps with performance", withDefinition("{'interactionType':'performance','steps':[{'id':'1'}]}")),
                ok("2.4.4.1 choices with sequencing", withDefinition("{'interactionType':'sequencing','choices':[{'id':'1'}]}")),
                ok("2.4.4.1 a definition with every plain property", withDefinition("{'name':{'en-US':'n'},"
                        + "'description':{'en-US':'d'},'type':'http://adlnet.gov/expapi/activities/meeting',"
                        + "'moreInfo':'http://example.com/more','extensions':{'http://example.com/x':1}}")),
                ok("4.2 IRIs may hold non-ASCII characters (RFC 3987)", withObject("{'id':'http://example.com/\u00e9t\u00e9'}")),
                ok("4.5 a timestamp with an offset", with("'timestamp':'2023-05-04T12:00:00-05:00'")),
                ok("4.5 a timestamp with +00:00", with("'timestamp':'2008-09-15T15:53:00.601+00:00'")),
                ok("4.5 a timestamp with nanoseconds", with("'timestamp':'2008-09-15T15:53:00.123456789Z'")),
                ok("4.5 a timestamp with a basic offset", with("'timestamp':'2008-09-15T15:53:00+0530'")),
                ok("4.5 a future timestamp", with("'timestamp':'2099-01-01T00:00:00Z'")),
                ok("4.6 a duration in weeks alone", withResult("{'duration':'P4W'}")),
                ok("4.6 a duration with years to seconds", withResult("{'duration':'P3Y1M29DT4H35M59.14S'}")),
                ok("4.6 more than 0.01 second precision", withResult("{'duration':'P1DT12H36M0.12567S'}")),
                ok("2.2 a batch of two statements", "[" + with("'id':'fd41c918-b88b-4b20-a0a5-a4c32391aaa0'") + ","
                        + with("'id':'7ccd3322-e1a5-411a-a67d-6a735c76f119'") + "]"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("valid")
    void acceptsIn103(String requirement, String json) {
        assertAccepted(json, XapiVersion.V1_0_3);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("valid")
    void acceptsIn200(String requirement, String json) {
        assertAccepted(json, XapiVersion.V2_0_0);
    }

    // ---- rejected in both versions ---------------------------------------------------------------------------

    static Stream<Arguments> invalid() {
        return Stream.of(
                // 2.2 Formatting requirements
                bad("2.2 not JSON", "{'actor':", "$", "json.malformed"),
                bad("2.2 an empty body", "", "$", "json.empty"),
                bad("2.2 an empty batch", "[]", "$", "batch.empty"),
                bad("2.2 trailing content", with("'id':'fd41c918-b88b-4b20-a0a5-a4c32391aaa0'") + "{}", "$", "json.trailing"),
                bad("2.2 a duplicate property", statement(ACTOR + "," + ACTOR + "," + VERB + "," + OBJECT), "$.actor",
                        "property.duplicate"),
                bad("2.2 null outside extensions", with("'result':null"), "$.result", "property.null"),
                bad("2.2 null inside a language map", withVerb("{'id':'http://e.com/v','display':{'en':null}}"),
                        "$.verb.display.en", "property.null"),
                bad("2.2 a string where a number is required", withResult("{'score':{'raw':'1'}}"), "$.result.score.raw",
                        "property.type"),
                bad("2.2 a string where a boolean is required", withResult("{'success':'true'}"), "$.result.success",
                        "property.type"),
                bad("2.2 key case must match: Actor", statement("'Actor':{'mbox':'mailto:a@example.com'}," + VERB + ","
                        + OBJECT), "$.Actor", "property.unknown"),
                bad("2.2 key case must match: ID", with("'ID':'fd41c918-b88b-4b20-a0a5-a4c32391aaa0'"), "$.ID",
                        "property.unknown"),
                bad("2.2 enumerated value case must match: objectType agent",
                        withActor("{'objectType':'agent','mbox':'mailto:a@example.com'}"), "$.actor.objectType",
                        "object_type.invalid"),
                bad("2.2 enumerated value case must match: interactionType",
                        withDefinition("{'interactionType':'Choice'}"), "$.object.definition.interactionType",
                        "interaction_type.invalid"),
                bad("2.2 a property the spec does not define", with("'foo':1"), "$.foo", "property.unknown"),
                bad("2.2 an empty string where an IRI is required", withVerb("{'id':''}"), "$.verb.id", "iri.invalid"),
                bad("2.2 verb id without a scheme", withVerb("{'id':'adlnet.gov/expapi/verbs/experienced'}"), "$.verb.id",
                        "iri.invalid"),
                bad("2.2 openid without a scheme", withActor("{'openid':'open.id.com/testUser'}"), "$.actor.openid",
                        "iri.invalid"),
                bad("2.2 account homePage without a scheme",
                        withActor("{'account':{'homePage':'homePage.com/testUser','name':'123456'}}"),
                        "$.actor.account.homePage", "iri.invalid"),
                bad("2.2 activity id without a scheme", withObject("{'id':'www.example.com/a'}"), "$.object.id",
                        "iri.invalid"),
                bad("2.2 activity type without a scheme", withDefinition("{'type':'adlnet.gov/expapi/activities/course'}"),
                        "$.object.definition.type", "iri.invalid"),
                bad("2.2 activity moreInfo without a scheme", withDefinition("{'moreInfo':'example.com/more'}"),
                        "$.object.definition.moreInfo", "iri.invalid"),
                bad("2.2 activity extension key without a scheme", withDefinition("{'extensions':{'not.valid.com/x':1}}"),
                        "$.object.definition.extensions.not.valid.com/x", "extension.key"),
                bad("2.2 context extension key without a scheme", withContext("{'extensions':{'example.com/e':1}}"),
                        "$.context.extensions.example.com/e", "extension.key"),
                bad("2.2 result extension key without a scheme", withResult("{'extensions':{'example.com/e':1}}"),
                        "$.result.extensions.example.com/e", "extension.key"),
                bad("4.2 an IRI with a space", withObject("{'id':'http://example.com/a b'}"), "$.object.id",
                        "iri.invalid"),
                bad("2.2 a batch is rejected when one statement is", "[" + with("'version':'1.0'") + ","
                        + with("'version':'0.9'") + "]", "$[1].version", "version.unsupported"),
                bad("2.2 a top-level value that is not an object", "\"statement\"", "$", "property.type"),

                // 2.4.1 Id
                bad("2.4.1 id with too many digits", with("'id':'AA97B177-9383-4934-8543-0F91A7A028368'"), "$.id",
                        "uuid.invalid"),
                bad("2.4.1 id with a non-hex letter", with("'id':'MA97B177-9383-4934-8543-0F91A7A02836'"), "$.id",
                        "uuid.invalid"),
                bad("2.4.1 id without hyphens", with("'id':'fd41c918b88b4b20a0a5a4c32391aaa0'"), "$.id", "uuid.invalid"),
                bad("2.4.1 id in braces", with("'id':'{fd41c918-b88b-4b20-a0a5-a4c32391aaa0}'"), "$.id", "uuid.invalid"),
                bad("2.4.1 id as a number", with("'id':12345"), "$.id", "property.type"),

                // 2.4.2 Actor
                bad("2.2 actor is required", statement(VERB + "," + OBJECT), "$.actor", "property.missing"),
                bad("2.4.2 actor objectType is Agent or Group", withActor("{'objectType':'Activity','id':'http://e.com/a'}"),
                        "$.actor.objectType", "object_type.invalid"),
                bad("2.4.2.1 an Agent has exactly one IFI: none", withActor("{'name':'A'}"), "$.actor", "ifi.missing"),
                bad("2.4.2.1 an Agent has exactly one IFI: two", withActor(
                        "{'mbox':'mailto:a@example.com','openid':'http://a.example.com/'}"), "$.actor", "ifi.multiple"),
                bad("2.4.2.1 an Agent cannot have member", withActor(
                        "{'mbox':'mailto:a@example.com','member':[{'mbox':'mailto:b@example.com'}]}"), "$.actor.member",
                        "agent.member"),
                bad("2.4.2.1 an Agent with objectType Agent cannot have member", withActor("{'objectType':'Agent',"
                        + "'mbox':'mailto:a@example.com','member':[{'mbox':'mailto:b@example.com'}]}"), "$.actor.member",
                        "agent.member"),
                bad("2.4.2.2 a Group must say objectType Group (members without objectType)", withActor(
                        "{'member':[{'mbox':'mailto:b@example.com'}]}"), "$.actor.member", "agent.member"),
                bad("2.4.2.2 an anonymous Group needs members", withActor("{'objectType':'Group'}"), "$.actor",
                        "group.anonymous_without_members"),
                bad("2.4.2.2 an anonymous Group needs at least one member", withActor("{'objectType':'Group','member':[]}"),
                        "$.actor", "group.anonymous_without_members"),
                bad("2.4.2.2 Group members are Agents, not Groups", withActor("{'objectType':'Group','member':[{"
                        + "'objectType':'Group','mbox':'mailto:t@example.com'}]}"), "$.actor.member[0].objectType",
                        "object_type.invalid"),
                bad("2.4.2.2 member is an array", withActor("{'objectType':'Group','member':{'mbox':'mailto:b@example.com'}}"),
                        "$.actor.member", "property.type"),
                bad("2.4.2.2 a member needs an IFI", withActor("{'objectType':'Group','member':[{'mbox':"
                        + "'mailto:b@example.com'},{'name':'no ifi'}]}"), "$.actor.member[1]", "ifi.missing"),
                bad("2.4.2.3 mbox is a mailto IRI", withActor("{'mbox':'learner@example.com'}"), "$.actor.mbox",
                        "mbox.invalid"),
                bad("2.4.2.3 mbox has an address", withActor("{'mbox':'mailto:'}"), "$.actor.mbox", "mbox.invalid"),
                bad("2.4.2.3 mbox has one @", withActor("{'mbox':'mailto:a@b@example.com'}"), "$.actor.mbox", "mbox.invalid"),
                bad("2.4.2.3 mbox has no spaces", withActor("{'mbox':'mailto:a b@example.com'}"), "$.actor.mbox",
                        "mbox.invalid"),
                bad("2.4.2.3 mbox scheme is lower case mailto", withActor("{'mbox':'MAILTO:a@example.com'}"),
                        "$.actor.mbox", "mbox.invalid"),
                bad("2.4.2.3 mbox_sha1sum is 40 hex digits", withActor("{'mbox_sha1sum':'ebd31e95054c018b10727ccffd2ef2ec3a016ee'}"),
                        "$.actor.mbox_sha1sum", "mbox_sha1sum.invalid"),
                bad("2.4.2.3 mbox_sha1sum is hex", withActor("{'mbox_sha1sum':'zbd31e95054c018b10727ccffd2ef2ec3a016ee9'}"),
                        "$.actor.mbox_sha1sum", "mbox_sha1sum.invalid"),
                bad("2.4.2.3 openid is an IRI", withActor("{'openid':'toby'}"), "$.actor.openid", "iri.invalid"),
                bad("2.4.2.4 account needs homePage", withActor("{'account':{'name':'a'}}"), "$.actor.account.homePage",
                        "property.missing"),
                bad("2.4.2.4 account needs name", withActor("{'account':{'homePage':'http://e.com'}}"),
                        "$.actor.account.name", "property.missing"),
                bad("2.4.2.4 account has only homePage and name", withActor(
                        "{'account':{'homePage':'http://e.com','name':'a','id':'x'}}"), "$.actor.account.id",
                        "property.unknown"),
                bad("2.4.2 name is a string", withActor("{'mbox':'mailto:a@example.com','name':1}"), "$.actor.name",
                        "property.type"),

                // 2.4.3 Verb
                bad("2.2 verb is required", statement(ACTOR + "," + OBJECT), "$.verb", "property.missing"),
                bad("2.4.3 verb id is required", withVerb("{'display':{'en':'x'}}"), "$.verb.id", "property.missing"),
                bad("2.4.3 verb display is a language map", withVerb("{'id':'http://e.com/v','display':'x'}"),
                        "$.verb.display", "property.type"),
                bad("2.4.3 verb display keys are language tags", withVerb("{'id':'http://e.com/v','display':{'a12345':'x'}}"),
                        "$.verb.display.a12345", "language.invalid"),
                bad("2.4.3 verb has only id and display", withVerb("{'id':'http://e.com/v','objectType':'Verb'}"),
                        "$.verb.objectType", "property.unknown"),
                bad("2.3.2 a voiding statement needs a StatementRef object", statement(ACTOR
                        + ",'verb':{'id':'http://adlnet.gov/expapi/verbs/voided'}," + OBJECT), "$.object", "voiding.object"),

                // 2.4.4 Object
                bad("2.2 object is required", statement(ACTOR + "," + VERB), "$.object", "property.missing"),
                bad("2.4.4.1 an Activity needs id", withObject("{'objectType':'Activity'}"), "$.object.id",
                        "property.missing"),
                bad("2.4.4.1 an Activity has no name", withObject("{'id':'http://e.com/a','name':'x'}"), "$.object.name",
                        "property.not_allowed"),
                bad("2.4.4.1 definition is an object", withObject("{'id':'http://e.com/a','definition':'x'}"),
                        "$.object.definition", "property.type"),
                bad("2.4.4.1 definition name is a language map", withDefinition("{'name':{'not a tag':'x'}}"),
                        "$.object.definition.name.not a tag", "language.invalid"),
                bad("2.4.4.1 unknown definition property", withDefinition("{'Type':'http://e.com/t'}"),
                        "$.object.definition.Type", "property.unknown"),
                bad("2.4.4.1 correctResponsesPattern needs interactionType", withDefinition(
                        "{'correctResponsesPattern':['a']}"), "$.object.definition.correctResponsesPattern",
                        "interaction.without_type"),
                bad("2.4.4.1 choices need interactionType", withDefinition("{'choices':[{'id':'a'}]}"),
                        "$.object.definition.choices", "interaction.component"),
                bad("2.4.4.1 scale needs interactionType", withDefinition("{'scale':[{'id':'a'}]}"),
                        "$.object.definition.scale", "interaction.component"),
                bad("2.4.4.1 source needs interactionType", withDefinition("{'source':[{'id':'a'}]}"),
                        "$.object.definition.source", "interaction.component"),
                bad("2.4.4.1 target needs interactionType", withDefinition("{'target':[{'id':'a'}]}"),
                        "$.object.definition.target", "interaction.component"),
                bad("2.4.4.1 steps need interactionType", withDefinition("{'steps':[{'id':'a'}]}"),
                        "$.object.definition.steps", "interaction.component"),
                bad("2.4.4.1 choices only with choice or sequencing", withDefinition(
                        "{'interactionType':'likert','choices':[{'id':'a'}]}"), "$.object.definition.choices",
                        "interaction.component"),
                bad("2.4.4.1.1 component ids are unique", withDefinition(
                        "{'interactionType':'choice','choices':[{'id':'a'},{'id':'a'}]}"),
                        "$.object.definition.choices[1].id", "interaction.duplicate_id"),
                bad("2.4.4.1.1 a component needs id", withDefinition(
                        "{'interactionType':'choice','choices':[{'description':{'en':'x'}}]}"),
                        "$.object.definition.choices[0].id", "property.missing"),
                bad("2.4.4.1.1 component description is a language map", withDefinition(
                        "{'interactionType':'choice','choices':[{'id':'a','description':{'a12345':'x'}}]}"),
                        "$.object.definition.choices[0].description.a12345", "language.invalid"),
                bad("2.4.4.1 correctResponsesPattern is an array of strings", withDefinition(
                        "{'interactionType':'other','correctResponsesPattern':[1]}"),
                        "$.object.definition.correctResponsesPattern[0]", "property.type"),
                bad("2.4.4.2 an Agent as object must have objectType", withObject("{'mbox':'mailto:b@example.com'}"),
                        "$.object.objectType", "property.missing"),
                bad("2.4.4.2 a Group as object must have objectType", withObject(
                        "{'member':[{'mbox':'mailto:b@example.com'}]}"), "$.object.objectType", "property.missing"),
                bad("2.4.4.3 a StatementRef needs id", withObject("{'objectType':'StatementRef'}"), "$.object.id",
                        "property.missing"),
                bad("2.4.4.3 a StatementRef id is a UUID", withObject("{'objectType':'StatementRef','id':'http://e.com/s'}"),
                        "$.object.id", "uuid.invalid"),
                bad("2.4.4.3 a StatementRef has only objectType and id", withObject("{'objectType':'StatementRef',"
                        + "'id':'9e13cefd-53d3-4eac-b5ed-2cf6693903bb','definition':{}}"), "$.object.definition",
                        "property.not_allowed"),
                bad("2.4.4.3 objectType StatementRef is case sensitive", withObject("{'objectType':'statementref',"
                        + "'id':'9e13cefd-53d3-4eac-b5ed-2cf6693903bb'}"), "$.object.objectType", "object_type.invalid"),
                bad("2.4.4.3 a SubStatement must have objectType", withObject("{" + ACTOR + "," + VERB + "," + OBJECT
                        + "}"), "$.object.objectType", "property.missing"),
                bad("2.4.4.3 a SubStatement needs actor", withObject("{'objectType':'SubStatement'," + VERB + ","
                        + OBJECT + "}"), "$.object.actor", "property.missing"),
                bad("2.4.4.3 a SubStatement needs verb", withObject("{'objectType':'SubStatement'," + ACTOR + ","
                        + OBJECT + "}"), "$.object.verb", "property.missing"),
                bad("2.4.4.3 a SubStatement needs object", withObject("{'objectType':'SubStatement'," + ACTOR + ","
                        + VERB + "}"), "$.object.object", "property.missing"),
                bad("2.4.4.3 a SubStatement has no id", withSub("'id':'9e13cefd-53d3-4eac-b5ed-2cf6693903bb'"),
                        "$.object.id", "property.not_allowed"),
                bad("2.4.4.3 a SubStatement has no stored", withSub("'stored':'2013-05-18T05:32:34.804Z'"),
                        "$.object.stored", "property.not_allowed"),
                bad("2.4.4.3 a SubStatement has no version", withSub("'version':'1.0.0'"), "$.object.version",
                        "property.not_allowed"),
                bad("2.4.4.3 a SubStatement has no authority", withSub("'authority':{'mbox':'mailto:a@example.com'}"),
                        "$.object.authority", "property.not_allowed"),
                bad("2.4.4.3 a SubStatement cannot nest a SubStatement", withSub("").replace(
                        json("'object':{'id':'http://example.com/activities/a'}}"),
                        json("'object':{'objectType':'SubStatement'," + ACTOR + "," + VERB + "," + OBJECT + "}}")),
                        "$.object.object.objectType", "substatement.position"),
                bad("2.4.4.3 SubStatement values are validated (timestamp)", withSub("'timestamp':'yesterday'"),
                        "$.object.timestamp", "timestamp.invalid"),
                bad("2.4.4.3 SubStatement context rules apply", withObject("{'objectType':'SubStatement'," + ACTOR + ","
                        + VERB + ",'object':{'objectType':'Agent','mbox':'mailto:b@example.com'},'context':{'revision':'1'}}"),
                        "$.object.context.revision", "context.revision"),

                // 2.4.5 Result
                bad("2.4.5 result is an object", with("'result':'passed'"), "$.result", "property.type"),
                bad("2.4.5 unknown result property", withResult("{'Success':true}"), "$.result.Success", "property.unknown"),
                bad("2.4.5 response is a string", withResult("{'response':1}"), "$.result.response", "property.type"),
                bad("2.4.5.1 scaled is at most 1", withResult("{'score':{'scaled':1.01}}"), "$.result.score.scaled",
                        "score.scaled"),
                bad("2.4.5.1 scaled is at least -1", withResult("{'score':{'scaled':-1.00001}}"), "$.result.score.scaled",
                        "score.scaled"),
                bad("2.4.5.1 min is less than max", withResult("{'score':{'min':10,'max':5}}"), "$.result.score.min",
                        "score.min"),
                bad("2.4.5.1 min equal to max is not less than max", withResult("{'score':{'min':5,'max':5}}"),
                        "$.result.score.min", "score.min"),
                bad("2.4.5.1 raw is at least min", withResult("{'score':{'raw':4,'min':5}}"), "$.result.score.raw",
                        "score.raw"),
                bad("2.4.5.1 raw is at most max", withResult("{'score':{'raw':101,'max':100}}"), "$.result.score.raw",
                        "score.raw"),
                bad("2.4.5.1 unknown score property", withResult("{'score':{'percent':1}}"), "$.result.score.percent",
                        "property.unknown"),
                bad("4.6 duration in ISO 8601 format", withResult("{'duration':'PA1H0M0S'}"), "$.result.duration",
                        "duration.invalid"),
                bad("4.6 the alternative duration format is not used", withResult("{'duration':'P0003-01-29T04:35:59'}"),
                        "$.result.duration", "duration.invalid"),
                bad("4.6 weeks are not combined with other components", withResult("{'duration':'P4W1D'}"),
                        "$.result.duration", "duration.invalid"),

                // 2.4.6 Context
                bad("2.4.6 registration is a UUID", withContext("{'registration':'ec531277'}"),
                        "$.context.registration", "uuid.invalid"),
                bad("2.4.6 instructor is an Agent or Group", withContext("{'instructor':{'objectType':'Activity',"
                        + "'id':'http://e.com/a'}}"), "$.context.instructor.objectType", "object_type.invalid"),
                bad("2.4.6 team is a Group", withContext("{'team':{'objectType':'Agent','mbox':'mailto:t@example.com'}}"),
                        "$.context.team.objectType", "object_type.invalid"),
                bad("2.4.6 team must say objectType Group", withContext("{'team':{'mbox':'mailto:t@example.com'}}"),
                        "$.context.team.objectType", "property.missing"),
                bad("2.4.6 revision only with an Activity object", statement(ACTOR + "," + VERB
                        + ",'object':{'objectType':'Agent','mbox':'mailto:b@example.com'},'context':{'revision':'1'}"),
                        "$.context.revision", "context.revision"),
                bad("2.4.6 platform only with an Activity object", statement(ACTOR + "," + VERB
                        + ",'object':{'objectType':'StatementRef','id':'9e13cefd-53d3-4eac-b5ed-2cf6693903bb'},"
                        + "'context':{'platform':'web'}"), "$.context.platform", "context.platform"),
                bad("2.4.6 language is a language tag", withContext("{'language':'english!'}"), "$.context.language",
                        "language.invalid"),
                bad("2.4.6 statement is a StatementRef", withContext("{'statement':{'objectType':'SubStatement'}}"),
                        "$.context.statement.objectType", "substatement.position"),
                bad("2.4.6 statement must say objectType StatementRef", withContext(
                        "{'statement':{'id':'9e13cefd-53d3-4eac-b5ed-2cf6693903bb'}}"), "$.context.statement.objectType",
                        "property.missing"),
                bad("2.4.6.2 contextActivities keys are parent, grouping, category, other", withContext(
                        "{'contextActivities':{'consequences':[]}}"), "$.context.contextActivities.consequences",
                        "property.unknown"),
                bad("2.4.6.2 contextActivities values are Activities", withContext(
                        "{'contextActivities':{'parent':[{'objectType':'Agent','mbox':'mailto:a@example.com'}]}}"),
                        "$.context.contextActivities.parent[0].objectType", "object_type.invalid"),
                bad("2.4.6.2 contextActivities activity ids are IRIs", withContext(
                        "{'contextActivities':{'other':{'id':'nope'}}}"), "$.context.contextActivities.other.id",
                        "iri.invalid"),

                // 2.4.7 Timestamp, 2.4.8 Stored, 4.5
                bad("4.5 timestamp is ISO 8601", with("'timestamp':'01/011/2015'"), "$.timestamp", "timestamp.invalid"),
                bad("4.5 timestamp offset -00 is rejected", with("'timestamp':'2008-09-15T15:53:00.601-00'"),
                        "$.timestamp", "timestamp.invalid"),
                bad("4.5 timestamp offset -0000 is rejected", with("'timestamp':'2008-09-15T15:53:00.601-0000'"),
                        "$.timestamp", "timestamp.invalid"),
                bad("4.5 timestamp offset -00:00 is rejected", with("'timestamp':'2008-09-15T15:53:00.601-00:00'"),
                        "$.timestamp", "timestamp.invalid"),
                bad("4.5 timestamp month 13", with("'timestamp':'2008-13-15T15:53:00Z'"), "$.timestamp",
                        "timestamp.invalid"),
                bad("4.5 timestamp 30 February", with("'timestamp':'2008-02-30T15:53:00Z'"), "$.timestamp",
                        "timestamp.invalid"),
                bad("4.5 timestamp needs a time", with("'timestamp':'2008-09-15'"), "$.timestamp", "timestamp.invalid"),
                bad("4.5 timestamp is a string", with("'timestamp':1221494400"), "$.timestamp", "property.type"),
                bad("2.4.8 stored is a timestamp", with("'stored':'now'"), "$.stored", "timestamp.invalid"),

                // 2.4.9 Authority
                bad("2.4.9 authority is an Agent or Group", with("'authority':{'objectType':'Activity','id':'http://e.com/a'}"),
                        "$.authority.objectType", "object_type.invalid"),
                bad("2.4.9 an authority Group is an anonymous group of two (identified)", with("'authority':{"
                        + "'objectType':'Group','mbox':'mailto:g@example.com','member':[{'mbox':'mailto:a@example.com'},"
                        + "{'mbox':'mailto:b@example.com'}]}"), "$.authority", "authority.group"),
                bad("2.4.9 an authority Group is an anonymous group of two (three members)", with("'authority':{"
                        + "'objectType':'Group','member':[{'mbox':'mailto:a@example.com'},{'mbox':'mailto:b@example.com'},"
                        + "{'mbox':'mailto:c@example.com'}]}"), "$.authority", "authority.group"),

                // 2.4.10 Version
                bad("2.4.10 version 0.9.9 is rejected", with("'version':'0.9.9'"), "$.version", "version.unsupported"),
                bad("2.4.10 version 1.1.0 is rejected", with("'version':'1.1.0'"), "$.version", "version.unsupported"),
                bad("2.4.10 version 1.0. is rejected", with("'version':'1.0.'"), "$.version", "version.unsupported"),
                bad("2.4.10 version is a string", with("'version':1.0"), "$.version", "property.type"),

                // 2.4.11 Attachments
                bad("2.4.11 attachments is an array", with("'attachments':{}"), "$.attachments", "property.type"),
                bad("2.4.11 an attachment needs usageType", with("'attachments':[{'display':{'en':'x'},"
                        + "'contentType':'text/plain','length':1,'sha2':'ab'}]"), "$.attachments[0].usageType",
                        "property.missing"),
                bad("2.4.11 an attachment needs display", with("'attachments':[{'usageType':'http://e.com/u',"
                        + "'contentType':'text/plain','length':1,'sha2':'ab'}]"), "$.attachments[0].display",
                        "property.missing"),
                bad("2.4.11 an attachment needs contentType", with("'attachments':[{'usageType':'http://e.com/u',"
                        + "'display':{'en':'x'},'length':1,'sha2':'ab'}]"), "$.attachments[0].contentType",
                        "property.missing"),
                bad("2.4.11 an attachment needs length", with("'attachments':[{'usageType':'http://e.com/u',"
                        + "'display':{'en':'x'},'contentType':'text/plain','sha2':'ab'}]"), "$.attachments[0].length",
                        "property.missing"),
                bad("2.4.11 an attachment needs sha2", with("'attachments':[{'usageType':'http://e.com/u',"
                        + "'display':{'en':'x'},'contentType':'text/plain','length':1}]"), "$.attachments[0].sha2",
                        "property.missing"),
                bad("2.4.11 usageType is an IRI", with("'attachments':[{'usageType':'adlnet.gov/expapi/attachments/signature',"
                        + "'display':{'en':'x'},'contentType':'text/plain','length':1,'sha2':'ab'}]"),
                        "$.attachments[0].usageType", "iri.invalid"),
                bad("2.4.11 fileUrl is an IRL", with("'attachments':[{'usageType':'http://e.com/u','display':{'en':'x'},"
                        + "'contentType':'text/plain','length':1,'sha2':'ab','fileUrl':'example.com/f'}]"),
                        "$.attachments[0].fileUrl", "iri.invalid"),
                bad("2.4.11 contentType is an Internet Media Type", with("'attachments':[{'usageType':'http://e.com/u',"
                        + "'display':{'en':'x'},'contentType':'plain text','length':1,'sha2':'ab'}]"),
                        "$.attachments[0].contentType", "attachment.content_type"),
                bad("2.4.11 length is an integer", with("'attachments':[{'usageType':'http://e.com/u',"
                        + "'display':{'en':'x'},'contentType':'text/plain','length':'1','sha2':'ab'}]"),
                        "$.attachments[0].length", "attachment.length"),
                bad("2.4.11 length is not negative", with("'attachments':[{'usageType':'http://e.com/u',"
                        + "'display':{'en':'x'},'contentType':'text/plain','length':-1,'sha2':'ab'}]"),
                        "$.attachments[0].length", "attachment.length"),
                bad("2.4.11 sha2 is hexadecimal", with("'attachments':[{'usageType':'http://e.com/u',"
                        + "'display':{'en':'x'},'contentType':'text/plain','length':1,'sha2':'not hex'}]"),
                        "$.attachments[0].sha2", "attachment.sha2"),
                bad("2.4.11 display is a language map", with("'attachments':[{'usageType':'http://e.com/u',"
                        + "'display':{'a12345678':'x'},'contentType':'text/plain','length':1,'sha2':'ab'}]"),
                        "$.attachments[0].display.a12345678", "language.invalid"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalid")
    void rejectsIn103(String requirement, String json, String path, String code) {
        assertRejected(json(json), XapiVersion.V1_0_3, path, code);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalid")
    void rejectsIn200(String requirement, String json, String path, String code) {
        assertRejected(json(json), XapiVersion.V2_0_0, path, code);
    }

    // ---- differences between 1.0.3 and 2.0.0 -----------------------------------------------------------------

    static final String CONTEXT_AGENTS = "{'contextAgents':[{'objectType':'contextAgent','agent':{'mbox':"
            + "'mailto:p@example.com'},'relevantTypes':['https://example.com/types/player']}]}";
    static final String CONTEXT_GROUPS = "{'contextGroups':[{'objectType':'contextGroup','group':{'objectType':'Group',"
            + "'mbox':'mailto:team@example.com'},'relevantTypes':['https://example.com/types/team']}]}";

    static Stream<Arguments> validOnlyIn200() {
        return Stream.of(
                ok("2.0 4.2.2.5 contextAgents", withContext(CONTEXT_AGENTS)),
                ok("2.0 4.2.2.5 contextGroups", withContext(CONTEXT_GROUPS)),
                ok("2.0 4.2.2.5 relevantTypes is optional", withContext("{'contextAgents':[{'objectType':'contextAgent',"
                        + "'agent':{'mbox':'mailto:p@example.com'}}]}")),
                ok("2.0 4.2.4.3 version 2.0.0", with("'version':'2.0.0'")),
                ok("2.0 4.2.4.3 version 2.0", with("'version':'2.0'")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("validOnlyIn200")
    void acceptedIn200(String requirement, String json) {
        assertAccepted(json, XapiVersion.V2_0_0);
    }

    static Stream<Arguments> validOnlyIn103() {
        return Stream.of(
                ok("1.0.3 4.5 a timestamp SHOULD* include the time zone (so one without is valid)",
                        with("'timestamp':'2008-09-15T15:53:00'")),
                ok("1.0.3 4.5 a stored without a time zone", with("'stored':'2008-09-15T15:53:00.601'")),
                ok("1.0.3 4.5 a SubStatement timestamp without a time zone", withSub("'timestamp':'2008-09-15T15:53:00'")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("validOnlyIn103")
    void acceptedIn103(String requirement, String json) {
        assertAccepted(json, XapiVersion.V1_0_3);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("validOnlyIn103")
    void storedStatementsAreReadWhicheverVersionAcceptedThem(String requirement, String json) {
        assertDoesNotThrow(() -> StatementParser.parseStored(json.getBytes(StandardCharsets.UTF_8)));
    }

    @org.junit.jupiter.api.Test
    void theTimestampMessageStatesTheRuleOfTheVersion() {
        byte[] noOffset = with("'timestamp':'2008-09-15T15:53:00'").getBytes(StandardCharsets.UTF_8);
        String in200 = assertThrows(XapiException.class, () -> StatementParser.parseBatch(noOffset, XapiVersion.V2_0_0))
                .getMessage();
        assertEquals(true, in200.contains("UTC offset") && in200.contains("xAPI 2.0 requires it"), in200);
        byte[] bad = with("'timestamp':'yesterday'").getBytes(StandardCharsets.UTF_8);
        String in103 = assertThrows(XapiException.class, () -> StatementParser.parseBatch(bad, XapiVersion.V1_0_3))
                .getMessage();
        assertEquals(false, in103.contains("requires"), in103);
    }

    static Stream<Arguments> invalidIn103() {
        return Stream.of(
                bad("1.0.3 has no contextAgents", withContext(CONTEXT_AGENTS), "$.context.contextAgents",
                        "property.unknown"),
                bad("1.0.3 has no contextGroups", withContext(CONTEXT_GROUPS), "$.context.contextGroups",
                        "property.unknown"),
                bad("1.0.3 version 2.0.0 is rejected", with("'version':'2.0.0'"), "$.version", "version.unsupported"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidIn103")
    void rejectedIn103(String requirement, String json, String path, String code) {
        assertRejected(json, XapiVersion.V1_0_3, path, code);
    }

    static Stream<Arguments> invalidIn200() {
        return Stream.of(
                bad("2.0 contextAgent objectType is contextAgent", withContext("{'contextAgents':[{'objectType':"
                        + "'ContextAgent','agent':{'mbox':'mailto:p@example.com'}}]}"),
                        "$.context.contextAgents[0].objectType", "context_agent.object_type"),
                bad("2.0 contextAgent needs agent", withContext("{'contextAgents':[{'objectType':'contextAgent'}]}"),
                        "$.context.contextAgents[0].agent", "property.missing"),
                bad("2.0 contextAgent agent is an Agent", withContext("{'contextAgents':[{'objectType':'contextAgent',"
                        + "'agent':{'objectType':'Group','mbox':'mailto:t@example.com'}}]}"),
                        "$.context.contextAgents[0].agent.objectType", "object_type.invalid"),
                bad("2.0 relevantTypes is not empty", withContext("{'contextAgents':[{'objectType':'contextAgent',"
                        + "'agent':{'mbox':'mailto:p@example.com'},'relevantTypes':[]}]}"),
                        "$.context.contextAgents[0].relevantTypes", "array.empty"),
                bad("2.0 relevantTypes are IRIs", withContext("{'contextGroups':[{'objectType':'contextGroup',"
                        + "'group':{'objectType':'Group','mbox':'mailto:t@example.com'},'relevantTypes':['team']}]}"),
                        "$.context.contextGroups[0].relevantTypes[0]", "iri.invalid"),
                bad("2.0 contextGroup objectType is contextGroup", withContext("{'contextGroups':[{'objectType':"
                        + "'contextAgent','group':{'objectType':'Group','mbox':'mailto:t@example.com'}}]}"),
                        "$.context.contextGroups[0].objectType", "context_group.object_type"),
                bad("2.0 contextGroup group must say objectType Group", withContext("{'contextGroups':[{'objectType':"
                        + "'contextGroup','group':{'mbox':'mailto:t@example.com'}}]}"),
                        "$.context.contextGroups[0].group.objectType", "property.missing"),
                bad("2.0 version 2.1.0 is rejected", with("'version':'2.1.0'"), "$.version", "version.unsupported"),
                bad("2.0 a timestamp includes its UTC offset", with("'timestamp':'2008-09-15T15:53:00'"),
                        "$.timestamp", "timestamp.invalid"),
                bad("2.0 so does stored", with("'stored':'2008-09-15T15:53:00.601'"), "$.stored", "timestamp.invalid"),
                bad("2.0 and a SubStatement timestamp", withSub("'timestamp':'2008-09-15T15:53:00'"),
                        "$.object.timestamp", "timestamp.invalid"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidIn200")
    void rejectedIn200(String requirement, String json, String path, String code) {
        assertRejected(json, XapiVersion.V2_0_0, path, code);
    }

    // ---- agent query parameter ---------------------------------------------------------------------------------

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidAgentParameters")
    void agentParameterIsValidatedLikeStatements(String requirement, String json, String path, String code) {
        byte[] body = json(json).getBytes(StandardCharsets.UTF_8);
        XapiException e = assertThrows(XapiException.class,
                () -> StatementParser.parseActor(body, XapiVersion.V1_0_3, "agent"));
        assertEquals(code, e.code(), e::toString);
        assertEquals(path, e.where(), e::toString);
    }

    static Stream<Arguments> invalidAgentParameters() {
        return Stream.of(
                bad("2.2 an agent parameter with a bad mbox", "{'mbox':'a@example.com'}", "agent $.mbox", "mbox.invalid"),
                bad("2.2 an agent parameter without an IFI", "{'name':'x'}", "agent $", "ifi.missing"),
                bad("2.2 an agent parameter that is not JSON", "{'mbox'", "agent $", "json.malformed"));
    }
}
