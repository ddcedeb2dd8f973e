package io.rubinbft.orderer.service;

import io.rubinbft.ledger.ChannelLedger;
import io.rubinbft.orderer.validation.ChannelRules;
import org.hyperledger.fabric.protos.common.Envelope;

/** One channel as Broadcast and Deliver see it. Thread-safe: every stream calls it concurrently. */
public interface ServedChannel {

  /**
   * The rules of the channel's current config: the newest config block the ledger holds decides
   * every Broadcast, every new Deliver request and every block an open Deliver stream sends (which
   * evaluates /Channel/Readers again when the object it gets changes, as Fabric's session access
   * control does when the config sequence changes: a new config yields a new object).
   */
  ChannelRules rules();

  /** The channel's chain; Deliver only reads it. */
  ChannelLedger ledger();

  /**
   * Hands a validated envelope (signature verified, /Channel/Writers satisfied) to the consensus
   * request pool. Must answer promptly and never wait for room in the pool: a full pool is {@link
   * SubmitOutcome.PoolFull}, which pushes back on the client. The envelope's bytes must be ordered
   * exactly as given.
   *
   * @param txId the channel header's transaction id, for de-duplication against pending and ordered
   *     requests (a copy is accepted, another envelope under the id is {@link
   *     SubmitOutcome.Conflicting})
   */
  SubmitOutcome submit(Envelope envelope, String txId);

  /**
   * Applies a CONFIG_UPDATE envelope (its signature already found to satisfy /Channel/Writers) to
   * the current config and hands the resulting CONFIG envelope to the request pool: {@link
   * SubmitOutcome.Refused} with Fabric's status and message when the update is not authorized or
   * not applicable, else as {@link #submit}.
   */
  SubmitOutcome submitConfigUpdate(Envelope update);
}
