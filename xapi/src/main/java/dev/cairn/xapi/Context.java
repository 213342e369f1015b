package dev.cairn.xapi;

import java.util.List;
import java.util.Map;
import java.util.UUID;

/** The context of a statement (Data 2.4.6); contextAgents and contextGroups exist only in 2.0.0. */
public record Context(
        UUID registration,
        Actor instructor,
        Group team,
        ContextActivities contextActivities,
        String revision,
        String platform,
        String language,
        StatementRef statement,
        Map<String, Object> extensions,
        List<ContextAgent> contextAgents,
        List<ContextGroup> contextGroups) {
}
