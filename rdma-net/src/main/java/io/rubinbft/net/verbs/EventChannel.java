package io.rubinbft.net.verbs;

/**
 * Lets an idle poller sleep in the kernel until its device may have something to report, as
 * rdma-core's completion channel ({@code ibv_req_notify_cq}, {@code ibv_get_cq_event}) and
 * rdma_cm's event channel do together. Used from the polling thread only, except {@link #wakeup}.
 *
 * <p>The order closes the race with an event that lands just before the sleep:
 *
 * <pre>{@code
 * if (channel.arm()) {
 *   int found = pollEverything();           // connection events and every completion queue
 *   if (found == 0) channel.await(timeout); // an event after arm() either shows in that poll
 *   else channel.disarm();                  // or ends this await
 * }
 * }</pre>
 */
public interface EventChannel {

  /**
   * Asks to be woken by the device's next completion or connection event. Returns false when the
   * device cannot sleep now because only more polling makes progress (the caller keeps polling);
   * otherwise the caller polls once more, then calls {@link #await} or {@link #disarm}.
   */
  boolean arm() throws VerbsException;

  /** Withdraws an {@link #arm} whose following poll found something. */
  void disarm();

  /**
   * Sleeps until an event arrives after {@link #arm}, {@link #wakeup} is called, or {@code
   * timeoutNanos} pass (zero or less: does not sleep), and returns disarmed. May return early: the
   * caller polls and decides.
   */
  void await(long timeoutNanos) throws VerbsException;

  /**
   * Ends the current {@link #await} at once, or makes the next one return at once. The one method
   * any thread may call.
   */
  void wakeup();
}
