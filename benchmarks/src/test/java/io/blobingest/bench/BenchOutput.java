package io.blobingest.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Figures read out of {@code bench}'s printed report. */
final class BenchOutput {

    private BenchOutput() {}

    /** The first group of {@code regex}'s first match in {@code text}; fails the test if none. */
    static String group(String text, String regex) {
        Matcher matcher = Pattern.compile(regex).matcher(text);
        assertThat(matcher.find()).as("'%s' in:%n%s", regex, text).isTrue();
        return matcher.group(1);
    }
}
