package dev.cairn.store;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * Creates the directories and files Cairn keeps its data in readable by their owner only (0700 and 0600 on POSIX
 * file systems): they hold personal data and credential hashes. What exists already is left as it is.
 */
public final class OwnerOnly {
    private static final boolean POSIX = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");

    private OwnerOnly() {
    }

    /** Creates {@code dir} and its missing parents, each 0700. */
    public static void createDirectories(Path dir) throws IOException {
        Path absolute = dir.toAbsolutePath();
        if (Files.isDirectory(absolute)) {
            return;
        }
        if (absolute.getParent() != null) {
            createDirectories(absolute.getParent());
        }
        try {
            Files.createDirectory(absolute, attributes("rwx------"));
        } catch (FileAlreadyExistsException e) {
            if (!Files.isDirectory(absolute)) {
                throw e;
            }
        }
    }

    /** Creates {@code file} empty and 0600 unless it exists. */
    public static void createFile(Path file) throws IOException {
        try {
            Files.createFile(file, attributes("rw-------"));
        } catch (FileAlreadyExistsException e) {
            // kept as it is
        }
    }

    private static FileAttribute<?>[] attributes(String permissions) {
        return POSIX ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(permissions))}
                : new FileAttribute<?>[0];
    }
}
