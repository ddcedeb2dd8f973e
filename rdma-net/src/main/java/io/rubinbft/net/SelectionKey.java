package io.rubinbft.net;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/**
 * A {@link Selectable}'s registration with its selector: what the application waits for, and what
 * is ready. Valid until the channel is closed and that has been reported once.
 */
public final class SelectionKey {

  private final Selectable selectable;
  private final EnumSet<Interest> interests = EnumSet.noneOf(Interest.class);
  private final EnumSet<Interest> ready = EnumSet.noneOf(Interest.class);

  @SuppressWarnings("NullAway.Init") // attached right after creation, before any event
  private Object attachment;

  private boolean valid = true;

  SelectionKey(Selectable selectable) {
    this.selectable = selectable;
  }

  public Selectable selectable() {
    return selectable;
  }

  /** The channel, for a key of a {@link Channel}. */
  public Channel channel() {
    if (selectable instanceof Channel channel) {
      return channel;
    }
    throw new IllegalStateException("this key belongs to a server channel");
  }

  /** The server channel, for a key of a {@link ServerChannel}. */
  public ServerChannel serverChannel() {
    if (selectable instanceof ServerChannel server) {
      return server;
    }
    throw new IllegalStateException("this key belongs to a channel");
  }

  /** Replaces the interests. */
  public SelectionKey interests(Set<Interest> wanted) {
    interests.clear();
    interests.addAll(wanted);
    return this;
  }

  public SelectionKey addInterest(Interest interest) {
    interests.add(interest);
    return this;
  }

  public SelectionKey removeInterest(Interest interest) {
    interests.remove(interest);
    return this;
  }

  public Set<Interest> interests() {
    return Collections.unmodifiableSet(interests);
  }

  /** Whether {@code interest} was ready when the key was handed to the {@link KeyHandler}. */
  public boolean isReady(Interest interest) {
    return ready.contains(interest);
  }

  /** False once the channel has closed and that has been reported. */
  public boolean isValid() {
    return valid;
  }

  public void attach(Object value) {
    this.attachment = value;
  }

  public Object attachment() {
    return attachment;
  }

  EnumSet<Interest> readySet() {
    return ready;
  }

  boolean interested(Interest interest) {
    return interests.contains(interest);
  }

  void invalidate() {
    valid = false;
  }
}
