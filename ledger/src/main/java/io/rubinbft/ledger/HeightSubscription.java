package io.rubinbft.ledger;

/** A registered height listener; closing it unregisters the listener. */
public interface HeightSubscription extends AutoCloseable {

  @Override
  void close();
}
