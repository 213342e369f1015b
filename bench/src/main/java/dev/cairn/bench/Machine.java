package dev.cairn.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;

/** The line that heads every result: when and on what a table was measured. */
final class Machine {
    private Machine() {
    }

    static String describe() {
        return "Date " + LocalDate.now() + "; " + Runtime.getRuntime().availableProcessors() + " cores (nproc), "
                + memory() + " RAM; Java " + System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version")
                + "; JVM args " + ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .filter(a -> a.startsWith("-X")).toList();
    }

    private static String memory() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
                if (line.startsWith("MemTotal:")) {
                    long kb = Long.parseLong(line.replaceAll("[^0-9]", ""));
                    return (kb + (1 << 19)) / (1 << 20) + " GB";
                }
            }
        } catch (IOException | NumberFormatException e) {
            return "unknown";
        }
        return "unknown";
    }
}
