package dev.cairn.xapi;

/**
 * The position of the parser inside a document, kept as segments and formatted only when an error needs it
 * ({@code $.context.contextActivities.parent[0].id}).
 */
final class JsonPath {
    private final String[] names = new String[64];
    private final int[] indexes = new int[64];
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
            throw new XapiException(format(), "json.too_deep", "JSON is nested more than " + names.length + " levels deep");
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
