package dev.cairn.xapi;

import java.util.Optional;

/** The xAPI versions Cairn speaks, chosen per request by the X-Experience-API-Version header (Comm 3.3). */
public enum XapiVersion {
    V1_0_3("1.0.3"),
    V2_0_0("2.0.0");

    private final String header;

    XapiVersion(String header) {
        this.header = header;
    }

    /** The value sent back in X-Experience-API-Version: the latest patch of the requested major version. */
    public String header() {
        return header;
    }

    /** "1.0", "1.0.x" map to 1.0.3; "2.0", "2.0.x" map to 2.0.0; anything else is not supported. */
    public static Optional<XapiVersion> fromHeader(String value) {
        if (value == null) {
            return Optional.empty();
        }
        String v = value.trim();
        if (v.equals("1.0") || (v.startsWith("1.0.") && isPatch(v.substring(4)))) {
            return Optional.of(V1_0_3);
        }
        if (v.equals("2.0") || (v.startsWith("2.0.") && isPatch(v.substring(4)))) {
            return Optional.of(V2_0_0);
        }
        return Optional.empty();
    }

    private static boolean isPatch(String s) {
        if (s.isEmpty()) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }
}
