package io.rubinbft.net.verbs;

/** A completion queue, polled without blocking and without allocation. */
public interface CompletionQueue extends AutoCloseable {

  /** Hands at most {@code max} completions to {@code handler}; returns how many. */
  int poll(CompletionHandler handler, int max) throws VerbsException;

  @Override
  void close();
}
