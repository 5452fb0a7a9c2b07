package io.blobingest.kafka;

import java.io.IOException;
import org.apache.flink.annotation.PublicEvolving;

/**
 * The descriptor topic is not the one this job first delivered to: deleted, and perhaps created
 * again under the same name. Its message is the whole story for the operator, in one line.
 */
@PublicEvolving
public final class DescriptorTopicRecreatedException extends IOException {

    private static final long serialVersionUID = 1L;

    public DescriptorTopicRecreatedException(String message) {
        super(message);
    }
}
