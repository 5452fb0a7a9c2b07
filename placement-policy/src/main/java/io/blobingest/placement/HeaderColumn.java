package io.blobingest.placement;

import io.blobingest.objectlayer.DescriptorRow.Attribute;
import java.io.Serializable;
import java.nio.charset.CharacterCodingException;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A typed column filled from an input header, one item of {@code sink.lance.columns}:
 * {@code name:type=header}. The header's value is UTF-8 text; a value that does not parse as the
 * type makes the record a {@code bad-header} dead letter, a missing header is a null.
 *
 * @param name the column's name, {@code [a-z_][a-z0-9_]*}
 * @param header the input header it comes from (its last value, as Kafka's {@code lastHeader})
 */
public record HeaderColumn(String name, Type type, String header) implements Serializable {

    private static final Pattern NAME = Pattern.compile("[a-z_][a-z0-9_]{0,63}");
    /** Decimal only: Java's own parser also takes hexadecimal, {@code NaN} and a {@code d} suffix. */
    private static final Pattern DECIMAL = Pattern.compile("-?(\\d+(\\.\\d*)?|\\.\\d+)([eE][+-]?\\d+)?");

    /** The types a header value may be parsed as, by their names in {@code sink.lance.columns}. */
    public enum Type {
        /** UTF-8 text as it is. */
        STRING,
        /** A decimal 32-bit signed integer. */
        INT32,
        /** A decimal 64-bit signed integer. */
        INT64,
        /** A decimal number, as a 64-bit float. */
        FLOAT64,
        /** {@code true} or {@code false}. */
        BOOL,
        /**
         * Milliseconds since the epoch, decimal, or an ISO-8601 date-time with an offset
         * ({@code 2026-12-07T10:15:30.250Z}); stored as UTC milliseconds.
         */
        TIMESTAMP;

        /** Its name in {@code sink.lance.columns}. */
        public String optionName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public HeaderColumn {
        Objects.requireNonNull(type, "type");
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("column name must match " + NAME.pattern() + ", found "
                    + (name == null ? "none" : "'" + name + "'"));
        }
        if (header == null || header.isEmpty()) {
            throw new IllegalArgumentException("column " + name + " names no header");
        }
        if (BlobHeaders.RESERVED.contains(header)) {
            throw new IllegalArgumentException("column " + name + " reads header " + header
                    + ", which the pipeline interprets and does not pass through");
        }
    }

    /**
     * Parses {@code name:type=header, ...} (blanks around items ignored; empty: no columns).
     *
     * @throws IllegalArgumentException naming the item, for a malformed item, an unknown type or a
     *     name given twice
     */
    public static List<HeaderColumn> parseAll(String spec) {
        List<HeaderColumn> columns = new ArrayList<>();
        if (spec == null || spec.isBlank()) {
            return columns;
        }
        Set<String> names = new HashSet<>();
        for (String item : spec.split(",")) {
            String text = item.strip();
            int colon = text.indexOf(':');
            int equals = text.indexOf('=', Math.max(colon, 0));
            if (colon <= 0 || equals < 0) {
                throw new IllegalArgumentException(
                        "expected name:type=header, found '" + text + "' (types: " + typeNames() + ")");
            }
            Type type = type(text.substring(colon + 1, equals).strip(), text);
            HeaderColumn column;
            try {
                column = new HeaderColumn(
                        text.substring(0, colon).strip(),
                        type,
                        text.substring(equals + 1).strip());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(e.getMessage() + " (in '" + text + "')", e);
            }
            if (!names.add(column.name())) {
                throw new IllegalArgumentException("column " + column.name() + " is given twice");
            }
            columns.add(column);
        }
        return columns;
    }

    /** The last value of this column's header among {@code headers}, or null if it is absent or has none. */
    public byte[] lastValue(List<Attribute> headers) {
        Attribute last = BlobHeaders.last(headers, header);
        return last == null ? null : last.value();
    }

    /**
     * The value as its type: a String, Integer, Long (also a timestamp's milliseconds), Double or
     * Boolean.
     *
     * @throws IllegalArgumentException saying what was expected and what was found
     */
    public Object parse(byte[] value) {
        String text;
        try {
            text = BlobHeaders.decodeUtf8(value);
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException("expected UTF-8 text, found " + BlobHeaders.printable(value));
        }
        try {
            return switch (type) {
                case STRING -> text;
                case INT32 -> Integer.parseInt(text);
                case INT64 -> Long.parseLong(text);
                case FLOAT64 -> {
                    if (!DECIMAL.matcher(text).matches()) {
                        throw new NumberFormatException(text);
                    }
                    yield Double.parseDouble(text);
                }
                case BOOL -> {
                    if (!text.equals("true") && !text.equals("false")) {
                        throw new IllegalArgumentException(text);
                    }
                    yield Boolean.parseBoolean(text);
                }
                case TIMESTAMP -> timestampMillis(text);
            };
        } catch (IllegalArgumentException | DateTimeParseException | ArithmeticException e) {
            throw new IllegalArgumentException("expected " + describe(type) + ", found '" + text + "'");
        }
    }

    private static long timestampMillis(String text) {
        if (!text.isEmpty() && text.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return Long.parseLong(text);
        }
        return OffsetDateTime.parse(text).toInstant().toEpochMilli();
    }

    private static String describe(Type type) {
        return switch (type) {
            case STRING -> "UTF-8 text";
            case INT32 -> "a decimal int32";
            case INT64 -> "a decimal int64";
            case FLOAT64 -> "a decimal number";
            case BOOL -> "true or false";
            case TIMESTAMP -> "epoch milliseconds or an ISO-8601 date-time with offset";
        };
    }

    private static Type type(String name, String item) {
        for (Type type : Type.values()) {
            if (type.optionName().equals(name)) {
                return type;
            }
        }
        throw new IllegalArgumentException(
                "unknown type '" + name + "' in '" + item + "': expected one of " + typeNames());
    }

    private static List<String> typeNames() {
        return java.util.Arrays.stream(Type.values()).map(Type::optionName).toList();
    }
}
