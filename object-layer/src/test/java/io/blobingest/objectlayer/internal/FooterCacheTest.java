package io.blobingest.objectlayer.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.objectlayer.PackBackend.PackIndex;
import java.net.URI;
import org.junit.jupiter.api.Test;

class FooterCacheTest {

    private static final URI A = URI.create("file:///s/a.blob");
    private static final URI B = URI.create("file:///s/b.blob");
    private static final URI C = URI.create("file:///s/c.blob");

    private static PackIndex index() {
        return entry -> {
            throw new UnsupportedOperationException("never planned");
        };
    }

    @Test
    void theLeastRecentlyUsedFooterGoesFirst() {
        FooterCache cache = new FooterCache(2);
        PackIndex a = index();
        cache.put(A, 100, a);
        cache.put(B, 100, index());
        cache.get(A, 100);

        cache.put(C, 100, index());

        assertThat(cache.get(A, 100)).isSameAs(a);
        assertThat(cache.get(B, 100)).isNull();
        assertThat(cache.get(C, 100)).isNotNull();
        assertThat(cache.size()).isEqualTo(2);
    }

    @Test
    void theSameLocationWithAnotherLengthIsAnotherObject() {
        FooterCache cache = new FooterCache(4);
        cache.put(A, 100, index());

        assertThat(cache.get(A, 101)).isNull();
    }

    @Test
    void capacityZeroKeepsNothing() {
        FooterCache cache = new FooterCache(0);
        cache.put(A, 100, index());

        assertThat(cache.get(A, 100)).isNull();
        assertThat(cache.size()).isZero();
    }
}
