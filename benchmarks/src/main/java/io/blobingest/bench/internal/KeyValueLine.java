package io.blobingest.bench.internal;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One line of {@code key=value} pairs separated by spaces: how a contender's child JVM reports its
 * figures to the bench, and how the bench passes it its settings. Keys and values hold no spaces.
 */
public final class KeyValueLine {

    private final Map<String, String> values;

    private KeyValueLine(Map<String, String> values) {
        this.values = Collections.unmodifiableMap(values);
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * @throws IllegalArgumentException naming the first token that is not {@code key=value}, or a
     *     key given twice
     */
    public static KeyValueLine parse(String line) {
        Map<String, String> values = new LinkedHashMap<>();
        for (String token : line.strip().split(" +")) {
            if (token.isEmpty()) {
                continue;
            }
            int equals = token.indexOf('=');
            if (equals <= 0) {
                throw new IllegalArgumentException("not key=value: '" + token + "' in '" + line + "'");
            }
            if (values.put(token.substring(0, equals), token.substring(equals + 1)) != null) {
                throw new IllegalArgumentException(
                        "key " + token.substring(0, equals) + " given twice in '" + line + "'");
            }
        }
        return new KeyValueLine(values);
    }

    /** @throws IllegalArgumentException if the key is missing */
    public String get(String key) {
        String value = values.get(key);
        if (value == null) {
            throw new IllegalArgumentException("no " + key + "= in '" + this + "'");
        }
        return value;
    }

    /** @throws IllegalArgumentException if the key is missing or its value is not a number */
    public long getLong(String key) {
        String value = get(key);
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " is not a whole number: '" + value + "'", e);
        }
    }

    public Map<String, String> asMap() {
        return values;
    }

    @Override
    public String toString() {
        StringBuilder line = new StringBuilder();
        values.forEach((key, value) ->
                line.append(line.isEmpty() ? "" : " ").append(key).append('=').append(value));
        return line.toString();
    }

    /** Pairs in the order they are put. */
    public static final class Builder {
        private final Map<String, String> values = new LinkedHashMap<>();

        public Builder put(String key, Object value) {
            String text = String.valueOf(value);
            if (key.isEmpty() || key.contains("=") || key.contains(" ") || text.contains(" ") || text.isEmpty()) {
                throw new IllegalArgumentException("cannot put '" + key + "'='" + text + "' on a key=value line");
            }
            if (values.put(key, text) != null) {
                throw new IllegalArgumentException("key " + key + " put twice");
            }
            return this;
        }

        public KeyValueLine build() {
            return new KeyValueLine(new LinkedHashMap<>(values));
        }
    }
}
