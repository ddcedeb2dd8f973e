package io.rubinbft.orderer.service;

import io.rubinbft.ledger.ChannelLedger;
import io.rubinbft.orderer.validation.ChannelRules;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.common.Envelope;

/** One channel as Broadcast and Deliver see it. Thread-safe: every stream calls it concurrently. */
public interface ServedChannel {

  /**
   * The rules of the channel's current config: the newest config block the ledger holds decides
   * every Broadcast and every new Deliver request.
   */
  ChannelRules rules();

  /**
   * The rules an open Deliver stream judges {@code block} by: those of the config in force at that
   * block, which its last config index names (a config block's own config applies to it). So a
   * stream of an org that a config block removes gets every block before that one and FORBIDDEN
   * instead of that one, on every node, however far the ledger has grown meanwhile. Streams
   * re-evaluate /Channel/Readers when the object they get changes, as Fabric's session access
   * control does when the config sequence changes: a new config yields a new object.
   */
  ChannelRules rulesAt(Block block);

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
