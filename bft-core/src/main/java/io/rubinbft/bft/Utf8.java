package io.rubinbft.bft;

/**
 * UTF-8 sizes without encoding: request limits count the bytes that travel, and the wire codec's
 * counting pass runs for every message, so neither may copy the string to measure it.
 */
public final class Utf8 {

  private Utf8() {}

  /**
   * What {@code value.getBytes(UTF_8).length} is. A lone surrogate counts one byte, as the JDK's
   * encoder replaces it with '?' ({@link RequestId} refuses such strings, so ids encode exactly).
   */
  public static int length(String value) {
    int length = 0;
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c < 0x80) {
        length += 1;
      } else if (c < 0x800) {
        length += 2;
      } else if (pairStartsAt(value, i)) {
        length += 4;
        i++;
      } else if (Character.isSurrogate(c)) {
        length += 1;
      } else {
        length += 3;
      }
    }
    return length;
  }

  /** The index of the first surrogate that is not half of a pair, or -1 if there is none. */
  public static int loneSurrogate(String value) {
    for (int i = 0; i < value.length(); i++) {
      if (pairStartsAt(value, i)) {
        i++;
      } else if (Character.isSurrogate(value.charAt(i))) {
        return i;
      }
    }
    return -1;
  }

  private static boolean pairStartsAt(String value, int i) {
    return Character.isHighSurrogate(value.charAt(i))
        && i + 1 < value.length()
        && Character.isLowSurrogate(value.charAt(i + 1));
  }
}
