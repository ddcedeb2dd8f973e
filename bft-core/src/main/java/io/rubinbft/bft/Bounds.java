package io.rubinbft.bft;

/**
 * The check every limit of a replica's and of the wire's configuration passes, with one wording for
 * the operator.
 */
public final class Bounds {

  private Bounds() {}

  /**
   * @throws IllegalArgumentException naming {@code name} when {@code value} is below {@code
   *     minimum}
   */
  public static void atLeast(String name, long value, long minimum) {
    if (value < minimum) {
      throw new IllegalArgumentException(
          name + " is " + value + " but must be at least " + minimum);
    }
  }
}
