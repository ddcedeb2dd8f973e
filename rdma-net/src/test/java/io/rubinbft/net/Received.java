package io.rubinbft.net;

import java.util.ArrayList;
import java.util.List;
import org.agrona.DirectBuffer;

/** A message handler that copies what it gets, for assertions after the poll. */
public final class Received implements MessageHandler {

  public final List<byte[]> messages = new ArrayList<>();

  @Override
  public void onMessage(DirectBuffer buffer, int offset, int length) {
    byte[] copy = new byte[length];
    buffer.getBytes(offset, copy);
    messages.add(copy);
  }

  public int count() {
    return messages.size();
  }
}
