package io.rubinbft.bft.sim;

import io.rubinbft.bft.message.Message;

/** A message between hosts, framed with the epoch its sender orders in (the cluster framing). */
record Framed(long epoch, Message message) {}
