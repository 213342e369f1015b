package dev.cairn.http;

import java.util.Arrays;
import java.util.Optional;

/** The xAPI authorization scopes (xAPI 1.0.3 Communication 4.2 "OAuth Authorization Scope"). */
public enum Scope {
    STATEMENTS_WRITE("statements/write"),
    STATEMENTS_READ("statements/read"),
    STATEMENTS_READ_MINE("statements/read/mine"),
    ALL_READ("all/read"),
    ALL("all"),
    STATE("state"),
    DEFINE("define"),
    PROFILE("profile");

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
