package dev.cairn.auth;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * A credential as a client or an operator gives it, {@code KEY:SECRET}. {@link #toString()} shows the key only, so
 * a secret never reaches a log line by accident.
 */
public record KeyAndSecret(String key, String secret) {
    /**
     * @param text KEY:SECRET (the secret may hold colons)
     * @param what how the message names the value ({@code admin-credential}, {@code --credential})
     */
    public static KeyAndSecret parse(String text, String what) {
        int colon = text.indexOf(':');
        if (colon < 1 || colon == text.length() - 1) {
            throw new IllegalArgumentException(what + " must be KEY:SECRET with both parts non-empty");
        }
        return new KeyAndSecret(text.substring(0, colon), text.substring(colon + 1));
    }

    /** The value of an Authorization header that presents this credential (Basic). */
    public String authorization() {
        return "Basic " + Base64.getEncoder().encodeToString((key + ":" + secret).getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public String toString() {
        return key + ":***";
    }
}
