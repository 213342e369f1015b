package dev.cairn.xapi;

/**
 * The position of the parser inside a document, kept as segments and formatted only when an error needs it
 * ({@code $.context.contextActivities.parent[0].id}).
 */
final class JsonPath {
    private static final int MAX_DEPTH = 64;
    // Small at first: most statements nest less than 12 levels; grown on demand up to MAX_DEPTH.
    private String[] names = new String[12];
    private int[] indexes = new int[12];
    private int depth;

    void reset() {
        depth = 0;
    }

    void pushName(String name) {
        check();
        names[depth] = name;
        indexes[depth++] = -1;
    }

    void pushIndex(int index) {
        check();
        names[depth] = null;
        indexes[depth++] = index;
    }

    void setIndex(int index) {
        indexes[depth - 1] = index;
    }

    void pop() {
        depth--;
    }

    private void check() {
        if (depth == names.length) {
            if (depth == MAX_DEPTH) {
                throw new XapiException(format(), "json.too_deep", "JSON is nested more than " + MAX_DEPTH + " levels deep");
            }
            names = java.util.Arrays.copyOf(names, Math.min(MAX_DEPTH, depth * 2));
            indexes = java.util.Arrays.copyOf(indexes, names.length);
        }
    }

    String format() {
        StringBuilder b = new StringBuilder("$");
        for (int i = 0; i < depth; i++) {
            if (names[i] != null) {
                b.append('.').append(names[i]);
            } else {
                b.append('[').append(indexes[i]).append(']');
            }
        }
        return b.toString();
    }

    String format(String child) {
        return format() + "." + child;
    }
}
