package dev.cairn.http;

import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import io.undertow.util.HttpString;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * HTTP Basic authentication: without valid credentials nothing is read or written (401). The header is decoded
 * exactly: a key and secret that are not valid UTF-8, or that hold control characters (a NUL among them), are
 * refused before any verification, so no two different byte strings reach the {@link Authenticator} as one
 * secret. The {@link CredentialCheck} decides the rest; the request continues on its I/O thread.
 */
public final class BasicAuthHandler implements HttpHandler {
    /** The longest key a credential may have (and a request may present). */
    public static final int MAX_KEY_LENGTH = 128;
    private static final String REALM = "Basic realm=\"Cairn xAPI\"";
    private static final String NAVIGATION_REALM = "xAPI realm=\"Cairn xAPI\"";
    private static final HttpString SEC_FETCH_MODE = new HttpString("Sec-Fetch-Mode");

    private final CredentialCheck check;
    private final HttpHandler next;

    public BasicAuthHandler(CredentialCheck check, HttpHandler next) {
        this.check = check;
        this.next = next;
    }

    /** Whether {@code s} can travel as a Basic key or secret: no control characters (C0, DEL, C1), no lone surrogate. */
    public static boolean presentable(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) {
                return false;
            }
            if (Character.isSurrogate(c)) {
                if (!Character.isHighSurrogate(c) || i + 1 == s.length() || !Character.isLowSurrogate(s.charAt(i + 1))) {
                    return false;
                }
                i++;
            }
        }
        return true;
    }

    @Override
    public void handleRequest(HttpServerExchange exchange) throws Exception {
        String header = exchange.getRequestHeaders().getFirst(Headers.AUTHORIZATION);
        String userPass = header == null ? null : decode(header);
        int colon = userPass == null ? -1 : userPass.indexOf(':');
        if (colon < 1 || colon > MAX_KEY_LENGTH || !presentable(userPass)) {
            refuse(exchange, header == null);
            return;
        }
        check.check(exchange, userPass.substring(0, colon), userPass.substring(colon + 1), (ex, principal) -> {
            if (principal == null) {
                refuse(ex, false);
            } else {
                ex.putAttachment(Exchanges.PRINCIPAL, principal);
                next.handleRequest(ex);
            }
        });
    }

    /** The key:secret of a Basic header, decoded strictly; null when it is not one. */
    private static String decode(String header) {
        if (!header.regionMatches(true, 0, "Basic ", 0, 6)) {
            return null;
        }
        try {
            byte[] bytes = Base64.getDecoder().decode(header.substring(6).trim());
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (IllegalArgumentException | CharacterCodingException e) {
            return null;
        }
    }

    private static void refuse(HttpServerExchange exchange, boolean missing) {
        // A browser that navigates here (a person opening an LRS URL) would prompt for the Basic challenge and then
        // attach what was typed to every later request to this origin, other sites' forms and fetches included; so
        // a navigation gets the challenge in a scheme no browser prompts for. Clients get Basic, as RFC 7617 asks.
        boolean navigation = "navigate".equals(exchange.getRequestHeaders().getFirst(SEC_FETCH_MODE));
        exchange.getResponseHeaders().put(Headers.WWW_AUTHENTICATE, navigation ? NAVIGATION_REALM : REALM);
        Responses.error(exchange, 401, "auth.required", "header Authorization", missing
                ? "authentication is required: send HTTP Basic credentials"
                : "the credentials are not valid");
    }
}
