package dev.cairn.ops;

import java.util.List;

/** The setting names a configuration file may use: the common options without their dashes. */
final class CommonOptionNames {
    static final List<String> ALL = List.of("data", "db", "log", "host", "port", "admin-credential",
            "admin-credential-file", "ack", "max-body", "max-unauthenticated-body", "default-limit", "max-limit",
            "ring-size", "projector-batch", "ready-lag", "xapi-version", "cors-origins", "cors-max-age",
            "header-timeout", "body-timeout", "write-timeout", "max-connections", "visible-timeout", "max-page-bytes",
            "disk-reserve");

    private CommonOptionNames() {
    }
}
