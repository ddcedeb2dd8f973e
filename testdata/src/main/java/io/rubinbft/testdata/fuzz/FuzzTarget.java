package io.rubinbft.testdata.fuzz;

import java.util.random.RandomGenerator;

/**
 * A decoder under fuzzing. It returns whether the input decoded to a value, returns false when the
 * decoder refused it with its documented error (what the production caller turns into "close the
 * link" or "reject the request"), and lets anything else escape: that is a finding.
 */
@FunctionalInterface
public interface FuzzTarget {

  /**
   * @param random this input's own generator, for choices beside the bytes (a header, a path)
   */
  boolean accept(byte[] input, RandomGenerator random) throws Exception;
}
