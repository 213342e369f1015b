package dev.cairn.ingest;

import dev.cairn.xapi.MediaTypes;
import dev.cairn.xapi.XapiException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A multipart/mixed request body (RFC 2046 section 5.1, Comm 1.5.2) split into its parts. Anything before the
 * first delimiter is preamble and ignored, as RFC 2046 says; the body must end with the close delimiter. Header
 * names are kept lowercase. Every rule broken is a 400 naming the part.
 */
final class MultipartBody {
    /** One part: its headers (names lowercase) and its content. */
    record Part(Map<String, String> headers, byte[] content) {
        String header(String lowercaseName) {
            return headers.get(lowercaseName);
        }
    }

    private MultipartBody() {
    }

    /** The boundary parameter of a multipart Content-Type header, unquoted. */
    static String boundary(String contentType) {
        for (String b : MediaTypes.parameterValues(contentType, "boundary")) {
            if (!b.isEmpty() && b.length() <= 70) {
                return b;
            }
        }
        throw new XapiException("header Content-Type", "multipart.boundary",
                "a multipart/mixed request needs a boundary parameter of 1 to 70 characters in its Content-Type");
    }

    static List<Part> parse(byte[] body, String boundary) {
        byte[] delimiter = ("--" + boundary).getBytes(StandardCharsets.US_ASCII);
        int at = indexOf(body, delimiter, 0);
        while (at > 0 && !(body[at - 1] == '\n')) {
            at = indexOf(body, delimiter, at + 1); // a delimiter starts a line
        }
        if (at < 0) {
            throw new XapiException("body", "multipart.malformed", "the body does not contain the boundary '"
                    + boundary + "' named in Content-Type");
        }
        List<Part> parts = new ArrayList<>();
        int pos = at + delimiter.length;
        while (true) {
            if (startsWith(body, pos, "--")) {
                return parts; // the close delimiter; what follows is epilogue
            }
            pos = skipLineEnd(body, pos, parts.size());
            int headersEnd = indexOf(body, "\r\n\r\n".getBytes(StandardCharsets.US_ASCII), pos);
            boolean noHeaders = startsWith(body, pos, "\r\n");
            if (headersEnd < 0 && !noHeaders) {
                throw malformed(parts.size(), "its headers do not end with an empty line");
            }
            Map<String, String> headers = noHeaders ? Map.of() : headers(body, pos, headersEnd, parts.size());
            int contentStart = noHeaders ? pos + 2 : headersEnd + 4;
            byte[] next = ("\r\n--" + boundary).getBytes(StandardCharsets.US_ASCII);
            int contentEnd = indexOf(body, next, contentStart);
            if (contentEnd < 0) {
                throw malformed(parts.size(), "it is not followed by a boundary; the body must end with '--"
                        + boundary + "--'");
            }
            parts.add(new Part(headers, Arrays.copyOfRange(body, contentStart, contentEnd)));
            pos = contentEnd + next.length;
        }
    }

    private static Map<String, String> headers(byte[] body, int from, int to, int part) {
        Map<String, String> headers = new LinkedHashMap<>();
        for (String line : new String(body, from, to - from, StandardCharsets.UTF_8).split("\r\n")) {
            int colon = line.indexOf(':');
            if (colon <= 0) {
                throw malformed(part, "the header line '" + line + "' has no name");
            }
            headers.put(line.substring(0, colon).trim().toLowerCase(Locale.ROOT), line.substring(colon + 1).trim());
        }
        return headers;
    }

    /** Skips the optional whitespace and the CRLF after a delimiter. */
    private static int skipLineEnd(byte[] body, int pos, int part) {
        while (pos < body.length && (body[pos] == ' ' || body[pos] == '\t')) {
            pos++;
        }
        if (!startsWith(body, pos, "\r\n")) {
            throw malformed(part, "its boundary line does not end with CRLF");
        }
        return pos + 2;
    }

    private static XapiException malformed(int part, String why) {
        return new XapiException("body part " + (part + 1), "multipart.malformed", "multipart part " + (part + 1)
                + " is malformed: " + why);
    }

    private static boolean startsWith(byte[] body, int pos, String s) {
        if (pos + s.length() > body.length) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            if (body[pos + i] != s.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private static int indexOf(byte[] haystack, byte[] needle, int from) {
        outer:
        for (int i = Math.max(from, 0); i <= haystack.length - needle.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
