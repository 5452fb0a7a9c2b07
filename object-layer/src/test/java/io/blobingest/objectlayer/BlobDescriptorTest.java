package io.blobingest.objectlayer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.blobingest.objectlayer.pack.RawPackFormat;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Every rule of spec.md section 1's descriptor table. */
class BlobDescriptorTest {

    private static final long MAX_U32 = 0xFFFF_FFFFL;
    private static final long MAX_U64 = -1L;

    @Nested
    class Kinds {
        @Test
        void kindValuesAreLances() {
            assertThat(BlobKind.INLINE.value()).isZero();
            assertThat(BlobKind.PACKED.value()).isEqualTo(1);
            assertThat(BlobKind.DEDICATED.value()).isEqualTo(2);
            assertThat(BlobKind.EXTERNAL.value()).isEqualTo(3);
        }

        @ParameterizedTest
        @EnumSource(BlobKind.class)
        void fromValueInvertsValue(BlobKind kind) {
            assertThat(BlobKind.fromValue(kind.value())).isEqualTo(kind);
        }

        @Test
        void fromValueRejectsUnknownKind() {
            assertThatThrownBy(() -> BlobKind.fromValue(4)).hasMessageContaining("unknown blob kind 4");
        }
    }

    @Nested
    class AllKinds {
        @Test
        void blobIdMustBeAU32() {
            assertThatThrownBy(() -> BlobDescriptor.dedicated(1, MAX_U32 + 1))
                    .hasMessageContaining("blob_id must be a u32");
            assertThatThrownBy(() -> BlobDescriptor.dedicated(1, -1)).hasMessageContaining("blob_id must be a u32");
            assertThat(BlobDescriptor.dedicated(1, MAX_U32).blobId()).isEqualTo(MAX_U32);
        }

        @Test
        void kindAndUriMustNotBeNull() {
            assertThatNullPointerException().isThrownBy(() -> new BlobDescriptor(null, 0, 0, 0, ""));
            assertThatNullPointerException().isThrownBy(() -> new BlobDescriptor(BlobKind.INLINE, 0, 0, 0, null));
        }

        @Test
        void sizeIsAU64() {
            assertThat(BlobDescriptor.dedicated(MAX_U64, 1).size()).isEqualTo(MAX_U64);
        }
    }

    @Nested
    class Inline {
        @Test
        void acceptsItsShape() {
            BlobDescriptor inline = BlobDescriptor.inline(12);
            assertThat(inline).isEqualTo(new BlobDescriptor(BlobKind.INLINE, 0, 12, 0, ""));
            assertThat(inline.isObjectBacked()).isFalse();
            assertThat(BlobDescriptor.inline(0).size()).isZero();
        }

        @Test
        void positionMustBeZero() {
            assertThatThrownBy(() -> new BlobDescriptor(BlobKind.INLINE, 1, 12, 0, ""))
                    .hasMessage("invalid INLINE descriptor: position must be 0, found 1");
        }

        @Test
        void blobIdMustBeZero() {
            assertThatThrownBy(() -> new BlobDescriptor(BlobKind.INLINE, 0, 12, 3, ""))
                    .hasMessage("invalid INLINE descriptor: blob_id must be 0, found 3");
        }

        @Test
        void blobUriMustBeEmpty() {
            assertThatThrownBy(() -> new BlobDescriptor(BlobKind.INLINE, 0, 12, 0, "file:/x"))
                    .hasMessage("invalid INLINE descriptor: blob_uri must be empty");
        }
    }

    @Nested
    class Packed {
        @Test
        void objectBackedPositionHasBit63Set() {
            BlobDescriptor packed = BlobDescriptor.packed(RawPackFormat.entryReference(7), 100, 2);
            assertThat(packed.isObjectBacked()).isTrue();
            assertThat(packed.position()).isEqualTo(0x8000_0000_0000_0007L);
        }

        @Test
        void legacyPositionIsAByteOffset() {
            BlobDescriptor legacy = new BlobDescriptor(BlobKind.PACKED, 4096, 100, 2, "");
            assertThat(legacy.isObjectBacked()).isFalse();
        }

        @Test
        void blobIdMustNameASidecar() {
            assertThatThrownBy(() -> BlobDescriptor.packed(RawPackFormat.entryReference(0), 100, 0))
                    .hasMessage("invalid PACKED descriptor: blob_id must name a sidecar (0 is reserved)");
        }

        @Test
        void blobUriMustBeEmpty() {
            assertThatThrownBy(() -> new BlobDescriptor(BlobKind.PACKED, 0, 1, 1, "file:/x"))
                    .hasMessage("invalid PACKED descriptor: blob_uri must be empty");
        }

        @Test
        void legacyRangeMustNotOverflowU64() {
            // 2^63 - 1 + 2^63 = 2^64 - 1, the last u64; one more byte overflows.
            assertThat(new BlobDescriptor(BlobKind.PACKED, Long.MAX_VALUE, Long.MIN_VALUE, 1, "").size())
                    .isEqualTo(Long.MIN_VALUE);
            assertThatThrownBy(() -> new BlobDescriptor(BlobKind.PACKED, Long.MAX_VALUE, Long.MIN_VALUE + 1, 1, ""))
                    .hasMessage("invalid PACKED descriptor: byte offset 9223372036854775807 + size 9223372036854775809"
                            + " overflows u64");
        }

        @Test
        void objectBackedSizeIsUnconstrainedByThePosition() {
            assertThat(BlobDescriptor.packed(RawPackFormat.entryReference(0), MAX_U64, 1)
                            .size())
                    .isEqualTo(MAX_U64);
        }
    }

    @Nested
    class Dedicated {
        @Test
        void acceptsItsShape() {
            assertThat(BlobDescriptor.dedicated(5_000_000, 9))
                    .isEqualTo(new BlobDescriptor(BlobKind.DEDICATED, 0, 5_000_000, 9, ""));
        }

        @Test
        void positionMustBeZero() {
            assertThatThrownBy(() -> new BlobDescriptor(BlobKind.DEDICATED, 16, 10, 1, ""))
                    .hasMessage("invalid DEDICATED descriptor: position must be 0, found 16");
        }

        @Test
        void blobIdMustNameASidecar() {
            assertThatThrownBy(() -> BlobDescriptor.dedicated(10, 0))
                    .hasMessage("invalid DEDICATED descriptor: blob_id must name a sidecar (0 is reserved)");
        }

        @Test
        void blobUriMustBeEmpty() {
            assertThatThrownBy(() -> new BlobDescriptor(BlobKind.DEDICATED, 0, 10, 1, "s3://b/k"))
                    .hasMessage("invalid DEDICATED descriptor: blob_uri must be empty");
        }
    }

    @Nested
    class External {
        @Test
        void wholeObjectIsPositionZeroSizeZero() {
            BlobDescriptor whole = BlobDescriptor.external("s3://bucket/key", 0, 0);
            assertThat(whole).isEqualTo(new BlobDescriptor(BlobKind.EXTERNAL, 0, 0, 0, "s3://bucket/key"));
        }

        @Test
        void rangeUpToTheLastU64ByteIsValid() {
            assertThat(BlobDescriptor.external("file:/x", MAX_U64 - 10, 10).position())
                    .isEqualTo(MAX_U64 - 10);
        }

        @Test
        void rangeMustNotOverflowU64() {
            assertThatThrownBy(() -> BlobDescriptor.external("file:/x", MAX_U64 - 10, 11))
                    .hasMessage("invalid EXTERNAL descriptor: position 18446744073709551605 + size 11 overflows u64");
        }

        @Test
        void blobIdMustBeZero() {
            assertThatThrownBy(() -> new BlobDescriptor(BlobKind.EXTERNAL, 0, 0, 1, "file:/x"))
                    .hasMessage("invalid EXTERNAL descriptor: blob_id must be 0, found 1");
        }

        @Test
        void blobUriMustBeAbsolute() {
            assertThatThrownBy(() -> BlobDescriptor.external("", 0, 0)).hasMessageContaining("absolute URI");
            assertThatThrownBy(() -> BlobDescriptor.external("relative/path", 0, 0))
                    .hasMessageContaining("absolute URI");
            assertThatThrownBy(() -> BlobDescriptor.external("not a uri", 0, 0)).hasMessageContaining("absolute URI");
        }

        @Test
        void invalidUriIsNotEchoedBecauseItMayCarryCredentials() {
            assertThatThrownBy(() -> BlobDescriptor.external("//user:secret@host/key", 0, 0))
                    .hasMessageNotContaining("secret");
        }
    }
}
