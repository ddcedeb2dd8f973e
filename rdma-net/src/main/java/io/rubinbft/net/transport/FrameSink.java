package io.rubinbft.net.transport;

import io.rubinbft.net.DropReason;
import io.rubinbft.net.frame.FrameFlyweight;

/** Takes frames as they arrive in a link's receive slots. */
public interface FrameSink {

  /**
   * A frame arrived, in place: {@code frame} is wrapped over exactly its {@code length} bytes.
   * Return true to hold it (it stays in its slot until {@link Link#deliverHeld} hands it over), or
   * false to release its slot at once (control frames, and dropped frames).
   */
  boolean onFrame(FrameFlyweight frame, int length);

  /**
   * A stream transport cannot find the next frame's boundary any more (e.g. a length field past the
   * frame size); the link is failed after this call.
   */
  void onUnframeable(DropReason reason, String detail);
}
