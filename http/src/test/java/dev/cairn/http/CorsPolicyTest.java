package dev.cairn.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class CorsPolicyTest {
    @Test
    void starAllowsEveryOrigin() {
        CorsPolicy any = CorsPolicy.parse("*", 7200);
        assertTrue(any.anyOrigin());
        assertTrue(any.allows("https://lms.example.com"));
        assertTrue(any.allows("null"));
    }

    @Test
    void anExactOriginAllowsOnlyItselfIgnoringCase() {
        CorsPolicy p = CorsPolicy.parse("https://lms.example.com, http://127.0.0.1:8000", 600);
        assertTrue(p.allows("https://lms.example.com"));
        assertTrue(p.allows("HTTPS://LMS.example.com"));
        assertTrue(p.allows("http://127.0.0.1:8000"));
        assertFalse(p.allows("http://lms.example.com"), "another scheme is another origin");
        assertFalse(p.allows("https://lms.example.com:8443"), "another port is another origin");
        assertFalse(p.allows("http://127.0.0.1:8001"));
        assertFalse(p.allows("https://lms.example.com.evil.test"));
        assertFalse(p.allows("null"), "opaque origins (sandboxed frames, files) are not on the list");
    }

    @Test
    void aWildcardAllowsSubdomainsButNotTheDomainItself() {
        CorsPolicy p = CorsPolicy.parse("https://*.example.com", 600);
        assertTrue(p.allows("https://a.example.com"));
        assertTrue(p.allows("https://a.b.example.com"));
        assertFalse(p.allows("https://example.com"));
        assertFalse(p.allows("https://.example.com"));
        assertFalse(p.allows("https://evilexample.com"));
        assertFalse(p.allows("https://a.example.com:8443"));
        assertFalse(p.allows("http://a.example.com"));
        assertFalse(p.allows("https://a.example.com.evil.test"));
    }

    @Test
    void aWildcardWithAPortAllowsOnlyThatPort() {
        CorsPolicy p = CorsPolicy.parse("http://*.test:8000", 600);
        assertTrue(p.allows("http://content.test:8000"));
        assertFalse(p.allows("http://content.test:8001"));
        assertFalse(p.allows("http://content.test"));
    }

    @Test
    void entriesThatAreNotOriginsAreRefusedWithTheirText() {
        for (String bad : new String[] {"lms.example.com", "https://lms.example.com/", "https://lms.example.com/path",
                "https://", "https://lms.*.com", "*.example.com", "https://*", "https://*.", "1http://a"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CorsPolicy.parse(bad, 1),
                    bad);
            assertTrue(e.getMessage().contains("cors-origins"), e.getMessage());
        }
    }

    @Test
    void aNegativeMaxAgeIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CorsPolicy.parse("*", -1));
        assertEquals("cors-max-age=-1 must not be negative", e.getMessage());
    }
}
