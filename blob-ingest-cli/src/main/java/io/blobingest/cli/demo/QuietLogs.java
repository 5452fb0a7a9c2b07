package io.blobingest.cli.demo;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.config.Configurator;

/**
 * Raises the log level of the services the demo embeds to ERROR while the demo runs, and restores
 * it on close. Their warnings concern the demo's own plumbing, not the user's data: the broker's
 * start-up and shutdown chatter, and the checkpoint a finishing bounded job declines because its
 * tasks are already closing. The demo checks every outcome itself.
 */
public final class QuietLogs implements AutoCloseable {

    private static final List<String> EMBEDDED =
            List.of("kafka", "org.apache.kafka", "org.apache.flink.runtime.checkpoint.CheckpointFailureManager");

    private final Map<String, Level> previous = new LinkedHashMap<>();

    private QuietLogs() {
        for (String logger : EMBEDDED) {
            previous.put(logger, LogManager.getLogger(logger).getLevel());
            Configurator.setLevel(logger, Level.ERROR);
        }
    }

    public static QuietLogs whileTheDemoRuns() {
        return new QuietLogs();
    }

    @Override
    public void close() {
        previous.forEach(Configurator::setLevel);
    }
}
