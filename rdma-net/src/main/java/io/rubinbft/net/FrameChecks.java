package io.rubinbft.net;

import static io.rubinbft.net.frame.FrameDescriptor.FLAGS_KNOWN;
import static io.rubinbft.net.frame.FrameDescriptor.OVERHEAD;

import io.rubinbft.net.frame.FrameDescriptor;
import io.rubinbft.net.frame.FrameFlyweight;
import io.rubinbft.net.frame.FrameType;
import java.util.Optional;

/** The structural checks every arriving frame passes before its tag is even checked. */
final class FrameChecks {

  private static final Optional<DropReason> TRUNCATED = Optional.of(DropReason.TRUNCATED);
  private static final Optional<DropReason> OVERSIZED = Optional.of(DropReason.OVERSIZED);
  private static final Optional<DropReason> MALFORMED = Optional.of(DropReason.MALFORMED);

  private FrameChecks() {}

  /** Why a frame of {@code length} bytes is structurally unusable, or empty if it is usable. */
  static Optional<DropReason> invalidReason(FrameFlyweight frame, int length, int maxFrameBytes) {
    if (length < OVERHEAD) {
      return TRUNCATED;
    }
    if (length > maxFrameBytes) {
      return OVERSIZED;
    }
    if (frame.frameLength() != length) {
      return frame.frameLength() > length ? TRUNCATED : MALFORMED;
    }
    if (frame.version() != FrameDescriptor.VERSION
        || frame.reserved() != 0
        || (frame.flags() & ~FLAGS_KNOWN) != 0
        || FrameType.fromCode(frame.typeCode()).isEmpty()) {
      return MALFORMED;
    }
    return Optional.empty();
  }
}
