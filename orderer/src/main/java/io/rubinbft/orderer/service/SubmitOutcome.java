package io.rubinbft.orderer.service;

import java.util.OptionalLong;
import org.hyperledger.fabric.protos.common.Status;

/**
 * The request pool's answer to {@link ServedChannel#submit}, and the Broadcast response it becomes.
 * The pool's refusals are 503 SERVICE_UNAVAILABLE with an info starting "failed to submit request:
 * ", as Fabric's BFT chain answers a request its SmartBFT pool refuses; a config update that cannot
 * be applied is {@link Refused} with Fabric's status and message. A copy of an envelope that is
 * pending or ordered is {@link Accepted}: Fabric's gateway sends each to every orderer.
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
   * @param bound the bound it reached, e.g. "100000 requests pending" (the pool's count bound) or
   *     "N bytes pending on this channel, at most M" (its byte bound)
   */
  record PoolFull(String bound) implements PoolRefusal {
    @Override
    public String reason() {
      return "request pool is full (" + bound + ")";
    }
  }

  /**
   * The request id was decided, but this node did not find the envelope ordered under it (the epoch
   * ended at an earlier block of the same step): the client should retry later.
   */
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
   * Another envelope under this transaction id is pending or was ordered: this one never is. 400,
   * as for any envelope that can never be ordered.
   *
   * @param orderedIn the block the other envelope is in, or empty while it is pending
   */
  record Conflicting(String txId, OptionalLong orderedIn) implements SubmitOutcome {
    @Override
    public Status status() {
      return Status.BAD_REQUEST;
    }

    @Override
    public String info() {
      return orderedIn.isPresent()
          ? "tx id "
              + txId
              + " was ordered in block "
              + orderedIn.getAsLong()
              + " with a different envelope"
          : "tx id " + txId + " is pending with a different envelope";
    }
  }

  /**
   * A config update refused before it reached the pool, e.g. BAD_REQUEST "error applying config
   * update to existing channel 'ch': error authorizing update: ...".
   */
  record Refused(Status status, String info) implements SubmitOutcome {}
}
