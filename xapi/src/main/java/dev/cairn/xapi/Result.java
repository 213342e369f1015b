package dev.cairn.xapi;

import java.util.Map;

/** The outcome of a statement (Data 2.4.5). */
public record Result(
        Score score,
        Boolean success,
        Boolean completion,
        String response,
        String duration,
        Map<String, Object> extensions) {
}
