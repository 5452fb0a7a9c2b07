package io.blobingest.objectlayer;

import java.io.IOException;

/** Turns the physical bytes of a plan's range into the blob's logical bytes, checking them on the way. */
@FunctionalInterface
public interface PayloadDecoder {

    /** Physical bytes are the logical bytes; nothing to check. */
    PayloadDecoder IDENTITY = physical -> physical;

    /**
     * @param physical exactly the bytes of the plan's range; the decoder may return it
     * @throws IOException naming the file and offset if the bytes fail a check
     */
    byte[] decode(byte[] physical) throws IOException;
}
