package dev.cairn.xapi;

import java.util.List;

/** An xAPI 2.0 contextGroups entry: a Group and the IRIs of its relevant types. */
public record ContextGroup(Group group, List<String> relevantTypes) {
}
