package io.blobingest.job.internal;

import java.io.IOException;

/**
 * The descriptor topic is not the one this job first delivered to: deleted, and perhaps created
 * again under the same name. Its message is the whole story for the operator, in one line.
 */
public final class DescriptorTopicRecreatedException extends IOException {

    private static final long serialVersionUID = 1L;

    DescriptorTopicRecreatedException(String message) {
        super(message);
    }
}
