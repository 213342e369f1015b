package dev.cairn.xapi;

import java.util.List;

/** An xAPI 2.0 contextAgents entry: an Agent and the IRIs of its relevant types. */
public record ContextAgent(Agent agent, List<String> relevantTypes) {
}
