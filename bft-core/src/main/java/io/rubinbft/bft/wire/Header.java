package io.rubinbft.bft.wire;

/** The two bytes before every message and record: the format version and the type. */
final class Header {

  private Header() {}

  /** Checks the version and returns the type byte; {@code what} names the format in reasons. */
  static int read(WireReader in, int version, String what) {
    int actual = in.unsignedByte("version");
    if (actual != version) {
      throw in.invalid(what + " format version " + actual + " but this replica reads " + version);
    }
    return in.unsignedByte("type");
  }
}
