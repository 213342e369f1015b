package dev.cairn.xapi;

import java.util.List;

/** Activities related to a statement (Data 2.4.6.2); a single object is read as a list of one. */
public record ContextActivities(
        List<Activity> parent,
        List<Activity> grouping,
        List<Activity> category,
        List<Activity> other) {
}
