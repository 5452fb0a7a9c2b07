package io.blobingest.objectlayer.internal;

import io.blobingest.objectlayer.BlobReadPlan;
import java.io.IOException;

/** Runs a plan's decoder and holds it to the lengths the plan promised. */
final class PayloadDecoding {

    private PayloadDecoding() {}

    static byte[] decode(BlobReadPlan plan, byte[] physical) throws IOException {
        if (physical.length != plan.range().length()) {
            throw new IllegalArgumentException(
                    plan.range().location() + ": the plan reads " + plan.range().length() + " bytes at offset "
                            + plan.range().offset() + ", given " + physical.length);
        }
        byte[] logical = plan.decoder().decode(physical);
        if (logical.length != plan.logicalSize()) {
            throw new IOException(plan.range().location() + ": decoding the " + physical.length + " bytes at offset "
                    + plan.range().offset() + " gave " + logical.length + " bytes, expected "
                    + plan.logicalSize());
        }
        return logical;
    }
}
