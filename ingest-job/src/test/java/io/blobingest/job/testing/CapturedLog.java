package io.blobingest.job.testing;

import java.io.StringWriter;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.WriterAppender;
import org.apache.logging.log4j.core.layout.PatternLayout;

/**
 * Every log line this JVM writes while open (Flink's and its connectors' at the levels the test
 * configuration lets through, this project's from INFO up), as {@code LEVEL Logger - message}.
 */
public final class CapturedLog implements AutoCloseable {

    private static final String NAME = "captured-log";

    private final StringWriter text = new StringWriter();
    private final LoggerContext context = (LoggerContext) LogManager.getContext(false);
    private final WriterAppender appender = WriterAppender.newBuilder()
            .setName(NAME)
            .setTarget(text)
            .setLayout(PatternLayout.newBuilder()
                    .withPattern("%level %c{1} - %msg%n")
                    .build())
            .build();

    public CapturedLog() {
        appender.start();
        context.getConfiguration().getRootLogger().addAppender(appender, Level.ALL, null);
        context.updateLoggers();
    }

    public synchronized String text() {
        return text.toString();
    }

    @Override
    public void close() {
        context.getConfiguration().getRootLogger().removeAppender(NAME);
        context.updateLoggers();
        appender.stop();
    }
}
