package dev.cairn.http;

import java.util.Arrays;
import java.util.Optional;

/**
 * The xAPI authorization scopes (xAPI 1.0.3 Communication 4.2 "OAuth Authorization Scope"), and Cairn's own
 * {@code admin}: the administrative API under {@code /admin/} (export, and what moves data elsewhere), which
 * {@code all} does not grant, so a client credential cannot send the LRS's data anywhere.
 */
public enum Scope {
    STATEMENTS_WRITE("statements/write"),
    STATEMENTS_READ("statements/read"),
    STATEMENTS_READ_MINE("statements/read/mine"),
    ALL_READ("all/read"),
    ALL("all"),
    STATE("state"),
    DEFINE("define"),
    PROFILE("profile"),
    ADMIN("admin");

    private final String text;

    Scope(String text) {
        this.text = text;
    }

    public String text() {
        return text;
    }

    public static Optional<Scope> parse(String text) {
        return Arrays.stream(values()).filter(s -> s.text.equals(text)).findFirst();
    }
}
