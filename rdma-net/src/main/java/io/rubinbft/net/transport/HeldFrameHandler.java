package io.rubinbft.net.transport;

import io.rubinbft.net.frame.FrameFlyweight;

/** Takes a held frame from {@link Link#deliverHeld}; its slot is released when this returns. */
@FunctionalInterface
public interface HeldFrameHandler {

  void onFrame(FrameFlyweight frame, int length);
}
