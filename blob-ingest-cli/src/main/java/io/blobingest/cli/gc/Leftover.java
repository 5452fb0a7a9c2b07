package io.blobingest.cli.gc;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Something a writer that never committed left under a base.
 *
 * @param kind what it is
 * @param location the file or object; for a multipart upload, the key it would have completed
 * @param since last modified (files), initiated (uploads); empty if the store did not say
 * @param uploadId the multipart upload's id, empty for files
 */
public record Leftover(Kind kind, URI location, Optional<Instant> since, String uploadId) {

    public enum Kind {
        /** Local disk: the hidden {@code .<name>.inprogress.<uuid>} file a recoverable writer appends to. */
        IN_PROGRESS_FILE("in-progress-file"),
        /** S3: the {@code _<name>_tmp_<uuid>} object {@code persist()} uploads for a part under 5 MiB. */
        PERSISTED_PART("persisted-part"),
        /** S3: a multipart upload neither completed nor aborted. */
        MULTIPART_UPLOAD("multipart-upload");

        private final String label;

        Kind(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    /** True if it is at least {@code grace} old at {@code now}; of unknown age only if {@code grace} is zero. */
    public boolean olderThan(Duration grace, Instant now) {
        return since.map(time -> !time.plus(grace).isAfter(now)).orElse(grace.isZero());
    }
}
