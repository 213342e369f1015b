package dev.cairn.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.xapi.XapiVersion;
import io.undertow.server.HttpHandler;
import io.undertow.util.Headers;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HexFormat;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.xnio.OptionMap;

/**
 * The Alternate Request Syntax of xAPI 1.0.3 (Comm 1.3): a form POST is rewritten into the request it stands for
 * before the rest of the chain sees it, and what is not that syntax as 1.0.3 defines it is a 400 naming why.
 */
class AlternateSyntaxHandlerTest {
    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final String FORM = "application/x-www-form-urlencoded";
    private HttpServer server;

    @BeforeEach
    void start() throws Exception {
        // What the rest of the chain sees: the method, the parameters, the headers the form set and the body's bytes.
        HttpHandler seen = exchange -> {
            byte[] body = exchange.getAttachment(Exchanges.BODY);
            String text = exchange.getRequestMethod() + " " + new TreeMap<>(exchange.getQueryParameters())
                    + " type=" + exchange.getRequestHeaders().getFirst(Headers.CONTENT_TYPE)
                    + " length=" + exchange.getRequestHeaders().getFirst(Headers.CONTENT_LENGTH)
                    + " ifMatch=" + exchange.getRequestHeaders().getFirst(Headers.IF_MATCH)
                    + " body=" + (body == null ? "none" : HexFormat.of().formatHex(body));
            Responses.json(exchange, 200, text.getBytes(StandardCharsets.UTF_8));
        };
        server = HttpServer.start("127.0.0.1", 0, new ErrorPolicy(XapiVersion.V2_0_0, e -> false,
                        new AlternateSyntaxHandler(1 << 16, new UnauthenticatedBodies(1 << 20), null, seen)),
                OptionMap.EMPTY, 100, 10_000, HttpServer.malformedAnswer("2.0.0", CorsPolicy.parse("*", 0)));
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private HttpResponse<String> send(String method, String query, String contentType, String form, String... headers)
            throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/x" + query))
                .method(method, HttpRequest.BodyPublishers.ofString(form)).timeout(Duration.ofSeconds(10));
        if (contentType != null) {
            b.header("Content-Type", contentType);
        }
        if (headers.length > 0) {
            b.headers(headers);
        }
        return CLIENT.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static void refused(HttpResponse<String> r, String code, String where) {
        assertEquals(400, r.statusCode(), r.body());
        assertTrue(r.body().startsWith("{\"error\":\"" + code + "\",\"where\":\"" + where + "\""), r.body());
    }

    @Test
    void aFormPostBecomesTheRequestItNamesWithItsHeadersParametersAndContent() throws Exception {
        HttpResponse<String> r = send("POST", "?method=PUT", FORM, "statementId=abc&Content-Type=application%2Fjson"
                + "&If-Match=%22e%22&X-Experience-API-Version=1.0.3&content=%7B%7D");
        assertEquals(200, r.statusCode(), r.body());
        assertEquals("PUT {statementId=[abc]} type=application/json length=2 ifMatch=\"e\" body=7b7d", r.body());
    }

    @Test
    void contentWithoutAContentTypeFieldIsJson() throws Exception {
        HttpResponse<String> r = send("POST", "?method=POST", FORM, "content=%5B%5D");
        assertTrue(r.body().contains(" type=application/json "), r.body());
    }

    @Test
    void theContentIsTheBytesTheFormEncodesWhetherOrNotTheyAreUtf8() throws Exception {
        HttpResponse<String> r = send("POST", "?method=PUT", FORM, "content=%FF+a");
        assertTrue(r.body().endsWith(" body=ff2061"), r.body());
    }

    @Test
    void aRequestWithoutTheMethodParameterPassesUnchanged() throws Exception {
        HttpResponse<String> r = send("PUT", "?statementId=abc", "application/json", "{}");
        assertEquals("PUT {statementId=[abc]} type=application/json length=2 ifMatch=null body=none", r.body());
    }

    @Test
    void a20RequestUsingTheSyntaxIs400() throws Exception {
        HttpResponse<String> r = send("POST", "?method=GET", FORM, "", "X-Experience-API-Version", "2.0.0");
        refused(r, "syntax.unsupported", "parameter method");
        assertEquals("2.0.0", r.headers().firstValue("X-Experience-API-Version").orElseThrow());
    }

    @Test
    void aFormThatAsksForVersion20Is400() throws Exception {
        refused(send("POST", "?method=GET", FORM, "X-Experience-API-Version=2.0.0"), "syntax.unsupported",
                "parameter method");
    }

    @Test
    void theSyntaxSentWithAnotherMethodThanPostIs400AndIsAnswered103() throws Exception {
        HttpResponse<String> r = send("PUT", "?method=GET", FORM, "");
        refused(r, "syntax.not_post", "parameter method");
        assertEquals("1.0.3", r.headers().firstValue("X-Experience-API-Version").orElseThrow());
    }

    @Test
    void aMethodOtherThanGetPutPostOrDeleteIs400() throws Exception {
        refused(send("POST", "?method=PATCH", FORM, ""), "parameter.invalid", "parameter method");
        refused(send("POST", "?method=get", FORM, ""), "parameter.invalid", "parameter method");
    }

    @Test
    void aQueryParameterBesideMethodIs400() throws Exception {
        refused(send("POST", "?method=GET&limit=1", FORM, ""), "parameter.unknown", "parameter limit");
    }

    @Test
    void aBodyThatIsNotAFormIs400() throws Exception {
        refused(send("POST", "?method=GET", "application/json", "{}"), "content_type.unsupported", "header Content-Type");
    }

    @Test
    void aPercentThatEscapesNothingIs400() throws Exception {
        refused(send("POST", "?method=GET", FORM, "agent=%4"), "form.malformed", "body");
    }

    @Test
    void aFieldOtherThanContentThatIsNotUtf8Is400() throws Exception {
        refused(send("POST", "?method=GET", FORM, "agent=%FF"), "form.malformed", "body");
    }
}
