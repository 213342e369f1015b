package dev.cairn.bench;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/** How many answers had each HTTP status (-1: no answer), printed as "3 × 200, 1 × 507" for a row's observed. */
record StatusCounts(Map<Integer, Integer> counts) {
    static StatusCounts of(Collection<Integer> statuses) {
        Map<Integer, Integer> counts = new TreeMap<>();
        statuses.forEach(s -> counts.merge(s, 1, Integer::sum));
        return new StatusCounts(counts);
    }

    int total() {
        return counts.values().stream().mapToInt(Integer::intValue).sum();
    }

    int of(int status) {
        return counts.getOrDefault(status, 0);
    }

    /** Whether every answer had one of {@code statuses}. */
    boolean only(Set<Integer> statuses) {
        return statuses.containsAll(counts.keySet());
    }

    @Override
    public String toString() {
        if (counts.isEmpty()) {
            return "no answers";
        }
        List<String> parts = new ArrayList<>();
        counts.forEach((status, n) -> parts.add(n + " × " + (status < 0 ? "no answer" : status)));
        return String.join(", ", parts);
    }
}
