package io.blobingest.job.launch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.MatchResult;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The launcher script and the build start their JVMs with what {@link LaunchOptions} defines:
 * neither can read the Java constants, so this test reads them.
 */
class LaunchOptionsTest {

    private static final Path ROOT = Path.of("").toAbsolutePath().getParent();
    private static final Pattern ADD_OPENS = Pattern.compile("--add-opens=\\S+");

    @Test
    void theLauncherScriptOpensThePackagesLaunchOptionsLists() throws IOException {
        assertThat(addOpensIn(Files.readString(ROOT.resolve("blob-ingest")))).isEqualTo(LaunchOptions.ADD_OPENS);
    }

    @Test
    void theLauncherScriptPassesThePluginsDirectoryUnderThePropertyTheCommandsRead() throws IOException {
        assertThat(Files.readString(ROOT.resolve("blob-ingest")))
                .contains("-D" + LaunchOptions.PLUGINS_DIR_PROPERTY + "=");
    }

    @Test
    void theTestJvmsOfTheBuildOpenTheSamePackages() throws IOException {
        Matcher argLine =
                Pattern.compile("<test.argLine>(.*)</test.argLine>").matcher(Files.readString(ROOT.resolve("pom.xml")));

        assertThat(argLine.find())
                .as("test.argLine in " + ROOT.resolve("pom.xml"))
                .isTrue();
        assertThat(addOpensIn(argLine.group(1))).isEqualTo(LaunchOptions.ADD_OPENS);
    }

    private static List<String> addOpensIn(String text) {
        return ADD_OPENS.matcher(text).results().map(MatchResult::group).toList();
    }
}
