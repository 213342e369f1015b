package dev.cairn.xapi;

import java.util.List;
import java.util.Map;

/** An Activity Definition (Data 2.4.4.1), including the interaction properties of Data 2.4.4.1.1. */
public record ActivityDefinition(
        Map<String, String> name,
        Map<String, String> description,
        String type,
        String moreInfo,
        String interactionType,
        List<String> correctResponsesPattern,
        List<InteractionComponent> choices,
        List<InteractionComponent> scale,
        List<InteractionComponent> source,
        List<InteractionComponent> target,
        List<InteractionComponent> steps,
        Map<String, Object> extensions) {
}
