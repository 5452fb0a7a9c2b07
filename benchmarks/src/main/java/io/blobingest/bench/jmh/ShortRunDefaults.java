package io.blobingest.bench.jmh;

import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The run settings every benchmark here inherits (JMH reads these annotations from superclasses):
 * one fork, 3 warm-up and 5 measured iterations of 2 s, state per thread. JMH's own defaults (5
 * forks of 5 + 5 iterations of 10 s) would take minutes per parameter. Command-line options
 * ({@code -f -wi -i -w -r}) override them.
 */
@State(Scope.Thread)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public abstract class ShortRunDefaults {}
