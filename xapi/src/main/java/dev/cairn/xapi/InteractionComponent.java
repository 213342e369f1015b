package dev.cairn.xapi;

import java.util.Map;

/** One choice, scale point, source, target or step of an interaction Activity. */
public record InteractionComponent(String id, Map<String, String> description) {
}
