package io.rubinbft.orderer.service;

import org.hyperledger.fabric.protos.common.Status;

/**
 * The request pool's answer to {@link ServedChannel#submit}, and the Broadcast response it becomes.
 * The pool's refusals are 503 SERVICE_UNAVAILABLE with an info starting "failed to submit request:
 * ", as Fabric's BFT chain answers a request its SmartBFT pool refuses; a config update that cannot
 * be applied is {@link Refused} with Fabric's status and message.
 */
public sealed interface SubmitOutcome {

  Status status();

  String info();

  /** In the request pool (not yet ordered: in BFT, SUCCESS means accepted into the pool). */
  record Accepted() implements SubmitOutcome {
    @Override
    public Status status() {
      return Status.SUCCESS;
    }

    @Override
    public String info() {
      return "";
    }
  }

  /** A refusal by the pool or the replica: 503, with Fabric's "failed to submit request: ". */
  sealed interface PoolRefusal extends SubmitOutcome {

    /** Why, for the client. */
    String reason();

    @Override
    default Status status() {
      return Status.SERVICE_UNAVAILABLE;
    }

    @Override
    default String info() {
      return "failed to submit request: " + reason();
    }
  }

  /**
   * The pool is at its bound: the client should retry later.
   *
   * @param bound the bound it reached, e.g. "100000 requests pending" (a channel's pool) or "N
   *     bytes pending on this node, at most M" (the pools of all channels)
   */
  record PoolFull(String bound) implements PoolRefusal {
    @Override
    public String reason() {
      return "request pool is full (" + bound + ")";
    }
  }

  /** The transaction id is pending or was recently ordered: it is not ordered twice. */
  record AlreadyProcessed() implements PoolRefusal {
    @Override
    public String reason() {
      return "request already processed";
    }
  }

  /**
   * The replica cannot take requests now.
   *
   * @param reason why, for the client, e.g. "replica is catching up"
   */
  record NotServing(String reason) implements PoolRefusal {}

  /**
   * A config update refused before it reached the pool, e.g. BAD_REQUEST "error applying config
   * update to existing channel 'ch': error authorizing update: ...".
   */
  record Refused(Status status, String info) implements SubmitOutcome {}
}
